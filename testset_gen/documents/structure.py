"""A document's structure: its headings, and the paragraphs, list items and tables under each.

Every document folder has structure, whoever wrote it: sections under headings, lists,
tables, numbered steps. The offline recipes (``testset_gen.offline.recipes``) ask about that
structure rather than about sentence shapes tuned on particular pages, so they generalise to
folders nobody in the project wrote.

Where the structure comes from:

* a file read by ``load_documents``: the format's own labels (unstructured's ``Title``,
  ``ListItem``, ``Table``...), kept at ingest as ``metadata["blocks"]`` (offset, end, label);
* text without labels (a LangChain ``Document``, a graph saved before labels were kept):
  blank-line blocks read by Markdown's marks (``#`` headings, ``-``/``1.`` items, ``|``
  rows, fenced code), and a short line without final punctuation as a heading.

Offsets point into ``document.text``, so a recipe can find the chunk that holds a block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

HEADING = "heading"
PARAGRAPH = "paragraph"
ITEM = "item"
TABLE = "table"
CODE = "code"

MAX_HEADING_WORDS = 12
"""A line longer than this is prose, whatever its label (unstructured calls some short
sentences ``Title``)."""

_LABELS = {"Title": HEADING, "ListItem": ITEM, "Table": TABLE, "CodeSnippet": CODE,
           "Formula": CODE}
_BLANK = re.compile(r"\n[ \t]*\n\s*")
_MD_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_MARKER = re.compile(r"^[ \t]*(?:[-*+\u2022]|\d{1,3}[.)])\s+")
_ORDERED = re.compile(r"^[ \t]*\d{1,3}[.)]\s+")


@dataclass(frozen=True)
class Block:
    """One unit of a document: ``kind`` is ``heading``, ``paragraph``, ``item``, ``table`` or
    ``code``; ``text`` is ``document.text[start:end]`` without a Markdown mark;
    ``ordered``: a numbered list item."""

    kind: str
    text: str
    start: int
    end: int
    ordered: bool = False


@dataclass
class Section:
    """A heading and the blocks under it up to the next heading (``heading`` is "" for what
    comes before the first heading). ``title``: the document's title, the first heading."""

    heading: str
    blocks: list[Block] = field(default_factory=list)
    title: str = ""

    def paragraphs(self) -> list[Block]:
        return [b for b in self.blocks if b.kind == PARAGRAPH]


def _is_heading_line(text: str) -> bool:
    words = text.split()
    return (0 < len(words) <= MAX_HEADING_WORDS and "\n" not in text.strip()
            and not re.search(r"[.!?:;,]$", text.strip()) and text[:1].isupper()
            and not text.startswith(("|", "`")))


def _labelled(text: str, labels: Sequence[Sequence[Any]]) -> list[Block]:
    out: list[Block] = []
    for start, end, label in labels:
        start, end = int(start), int(end)
        body = text[start:end]
        kind = _LABELS.get(str(label), PARAGRAPH)
        if kind == HEADING and not _is_heading_line(body):
            kind = PARAGRAPH
        if kind == PARAGRAPH and (m := _MD_HEADING.match(body)):
            out.append(Block(HEADING, m.group(2), start, end))
            continue
        out.append(Block(kind, body.strip(), start, end))
    return out


def _unlabelled(text: str) -> list[Block]:
    out: list[Block] = []
    pos = 0
    pieces: list[tuple[int, int]] = []
    for gap in _BLANK.finditer(text):
        pieces.append((pos, gap.start()))
        pos = gap.end()
    pieces.append((pos, len(text)))
    for start, end in pieces:
        body = text[start:end].rstrip()
        end = start + len(body)
        if not body.strip():
            continue
        lines = body.split("\n")
        if body.lstrip().startswith("```"):
            out.append(Block(CODE, body, start, end))
        elif m := _MD_HEADING.match(body):
            out.append(Block(HEADING, m.group(2), start, end))
        elif all(line.lstrip().startswith("|") for line in lines):
            out.append(Block(TABLE, body, start, end))
        elif _MARKER.match(lines[0]):
            offset = start
            for line in lines:
                if _MARKER.match(line):
                    item = _MARKER.sub("", line)
                    out.append(Block(ITEM, item.strip(), offset, offset + len(line),
                                     ordered=bool(_ORDERED.match(line))))
                elif out and out[-1].kind == ITEM:  # a wrapped item line
                    last = out[-1]
                    out[-1] = Block(ITEM, f"{last.text} {line.strip()}", last.start,
                                    offset + len(line), last.ordered)
                offset += len(line) + 1
        elif _is_heading_line(body):
            out.append(Block(HEADING, body.strip(), start, end))
        else:
            out.append(Block(PARAGRAPH, " ".join(body.split()), start, end))
    return out


_FRONT_MATTER = re.compile(r"^(?:---\s*)?[a-z][\w-]*:(?:\s|$)")
_FIELD = re.compile(r"(?:^|\s)[a-z][\w-]*:(?=\s|$)")


def _front_matter(blocks: list[Block]) -> list[Block]:
    """A static-site page's front matter ("title: "Basic usage" draft: false ...", "menu:
    docs: weight: 10") is data, not prose: the blocks of ``key: value`` fields before the
    first heading become code, so no recipe quotes them."""
    out = list(blocks)
    for i, b in enumerate(out):
        if b.kind == HEADING:
            break
        if b.kind == PARAGRAPH and _FRONT_MATTER.match(b.text) and len(_FIELD.findall(b.text)) >= 2 \
                and not re.search(r"[a-z]{3,}[.!?]$", b.text):
            out[i] = Block(CODE, b.text, b.start, b.end)
    return out


def blocks_of(text: str, labels: Sequence[Sequence[Any]] | None = None) -> list[Block]:
    """The blocks of ``text``: by the format's ``labels`` (``[start, end, label]`` per
    block, as ingest keeps them) when given, else by Markdown's marks."""
    return _front_matter(_labelled(text, labels) if labels else _unlabelled(text))


def sections_of(text: str, labels: Sequence[Sequence[Any]] | None = None,
                title: str = "") -> list[Section]:
    """The document cut at its headings, in reading order; a section with no blocks (a
    heading right under another) is left out."""
    blocks = blocks_of(text, labels)
    first = next((b.text for b in blocks if b.kind == HEADING), "")
    title = title or first
    sections = [Section("", title=title)]
    for b in blocks:
        if b.kind == HEADING:
            sections.append(Section(b.text, title=title))
        else:
            sections[-1].blocks.append(b)
    return [s for s in sections if s.blocks]


def runs(blocks: Iterable[Block], kind: str) -> list[list[Block]]:
    """Maximal runs of consecutive blocks of one ``kind`` (a list is a run of items)."""
    out: list[list[Block]] = []
    current: list[Block] = []
    for b in blocks:
        if b.kind == kind:
            current.append(b)
        else:
            if current:
                out.append(current)
            current = []
    if current:
        out.append(current)
    return out
