"""An HTML table (unstructured's ``text_as_html``) as Markdown pipe rows.

unstructured gives a table's text as its cells run together ("Name Year Marie Curie 1867"),
which reads as a sentence and became questions about nothing. As rows ("| Marie Curie |
1867 |") the table stays a table in the chunk a RAG app retrieves, and the question rules,
which only read prose sentences, leave it alone.
"""

from __future__ import annotations

from html.parser import HTMLParser


class _Rows(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            if not self.rows:
                self.rows.append([])
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def table_rows(html: str) -> str:
    """``"| a | b |\\n| c | d |"`` for a table's rows; ``""`` when there are none."""
    if "<t" not in html:
        return ""
    parser = _Rows()
    parser.feed(html)
    return "\n".join("| " + " | ".join(r) + " |" for r in parser.rows if r)
