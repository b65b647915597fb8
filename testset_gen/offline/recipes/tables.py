"""simple: a table asked cell by cell ("What is the weight of the Trailhead 2?" from the row
"| Weight | 1.8 kg |"), the cell said as a sentence as the ground truth ("The weight of the
Trailhead 2 is 1.8 kg.").

Two kinds of table: a property table (two columns, a property and its value) describes the
page's subject, and is asked only on a page that has one (the folder's project or a name of
its own); a wider table has a row per thing (its first cell, a name) and a column per
property (the header row), and is asked as "What is the <column> of <row>?" only when every
cell of the row is a value: a table of how-tos or examples has other columns only to sort
its rows. Every cell asked is also a ``Fact`` that ``comparisons`` compares
with the same property of another thing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from testset_gen.documents.structure import TABLE
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.pages import Page

_SEPARATOR = re.compile(r"^\|?\s*:?-{2,}")
_CODE = re.compile(r"[`{}=<>\[\]]|\w\(|^\W*$|\w_\w|[A-Za-z_]\.[A-Za-z_]|(?:^|\s)--?\w|^(?:True|False|None|null|yes|no)$")
MAX_CELL_WORDS = 12


@dataclass(frozen=True)
class Fact:
    """``thing``'s ``prop`` is ``value`` ("the Trailhead 2", "weight", "1.8 kg"), stated by
    ``sentence`` (a whole sentence) in ``chunk``."""

    thing: str
    prop: str
    value: str
    sentence: str
    chunk: str
    source: str  # the row or sentence of the page it was read from
    document_id: str = ""


def rows_of(text: str) -> list[tuple[list[str], str]]:
    """``(cells, line)`` of each row of a pipe table, separator rows left out."""
    out = []
    for line in text.split("\n"):
        line = line.strip()
        if not line.startswith("|") or _SEPARATOR.match(line):
            continue
        out.append(([c.strip() for c in line.strip("|").split("|")], line))
    return out


def _plain(cell: str) -> bool:
    return bool(cell) and cell not in ("-", "—", "n/a", "N/A") and not _CODE.search(cell) \
        and len(cell.split()) <= MAX_CELL_WORDS


def _said(thing: str, prop: str, value: str) -> str:
    """The cell as a sentence: "The weight of the Trailhead 2 is 1.8 kg."; a value that is
    itself a sentence is quoted ("The description of Typer is "Use Python type hints ..."")."""
    value = value.rstrip(".")
    if len(value.split()) >= 4 and value[:1].isupper():
        value = f"\u201c{value}\u201d"
    return f"The {prop} of {thing} is {value}."


def _prop(name: str) -> str:
    words = name.split()
    return name if len(words) > 1 and all(w[:1].isupper() for w in words) and name.isupper() else name.lower()


_NAME_WORD = re.compile(r"[A-Z0-9][\w.+-]*|of|and|the|for|in|on|to|a|an|&")


def _names_a_thing(cell: str) -> bool:
    """A row's key as a question can ask about it: a name of at most five words, every
    word but a short function word capitalised ("Trailhead 2", "Elevation of Privilege",
    "Typer"). A description ("Obituary of a prominent community member") or a state
    ("Met", "Not met" are adjectives in capitals) names no thing whose property one asks;
    a state is told apart by its form: one past participle ("Met") or a negation."""
    words = cell.split()
    if not 1 <= len(words) <= 5 or not words[0][:1].isupper() or not all(_NAME_WORD.fullmatch(w) for w in words):
        return False
    # "Met" by name: an "-et" ending would also drop "Jacket", "Helmet", "Tablet"
    return not (len(words) == 1 and (cell.lower().endswith("ed") or cell.lower() in ("met", "unmet"))
                or words[0].lower() in ("not", "no"))


def table_facts(page: Page) -> list[Fact]:
    out = []
    for section in page.sections:
        for block in section.blocks:
            if block.kind != TABLE:
                continue
            text = page.text[block.start:block.end]
            rows = rows_of(text)
            if len(rows) < 2 or len({len(c) for c, _ in rows}) != 1:
                continue
            header, body = rows[0][0], rows[1:]
            # a header is words ("Weight", "Packed size"), not data or symbols ("🚨 Bug Reports")
            if not all(re.fullmatch(r"[A-Za-z][A-Za-z ]{0,30}", h) for h in header):
                continue
            for cells, line in body:
                at = text.find(line)
                chunk = page.chunk_for(block.start + at, block.start + at + len(line)) if at >= 0 else None
                if chunk is None:
                    continue
                if len(header) == 2:  # property | value, about the page's subject
                    prop, value = cells
                    if (not page.subject or not _plain(value)
                            or not re.fullmatch(r"[A-Za-z][A-Za-z ]{0,30}", prop)):  # "⚡ Apache Arrow backend"
                        continue
                    thing = page.subject
                    out.append(Fact(thing, _prop(prop), value,
                                    _said(thing, _prop(prop), value), chunk, line,
                                    page.document_id))
                else:
                    thing = cells[0]
                    # a row is a thing with a name ("Typer", "Trailhead 2"); a lowercase word
                    # is a parameter ("level", "path") whose table documents code; a row with a
                    # cell that is no value (a command, an instruction, an example) belongs to
                    # a table of how-tos ("Terminal | Platform | Instructions"), whose other
                    # columns only sort its rows: no property table
                    if not _plain(thing) or "," in thing or not _names_a_thing(thing) or not all(
                            _plain(v) for v in cells[1:]):
                        continue
                    for col, value in zip(header[1:], cells[1:]):
                        if _plain(value):
                            out.append(Fact(thing, _prop(col), value,
                                            _said(thing, _prop(col), value), chunk, line,
                                            page.document_id))
    return out


def table_questions(page: Page) -> list[Candidate]:
    out = []
    for f in table_facts(page):
        sentence = f.sentence[:1].upper() + f.sentence[1:]
        tail = "" if f.thing == page.subject or not page.subject else f" in {page.subject}"
        out.append(Candidate("simple", f"What is the {f.prop} of {f.thing}{tail}?", sentence,
                             (f.chunk,), (("template", "structure:table"), ("constructed", True), ("wh", "what"),
                                          ("page", page.subject), ("answer", f.value),
                                          ("source_sentences", [f.source])), structural=True))
    return out
