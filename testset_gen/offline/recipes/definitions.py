"""simple: "What is X?" from a sentence that defines X ("The Ember Stove is a compact gas stove
for camping and backpacking."), the sentence as the ground truth.

X is a name (capitalised words: "Click", "The Ember Stove") or a term the sentence
introduces with an article ("A parameter is ..."), which is then asked in the page's
subject ("What is a parameter in Click?"). Definitions are second-tier simple records
(``metadata["wh"] == "define"``, capped by ``DEFINITION_SHARE``), and a term the folder
defines in two different sentences is asked nothing (``structure_checks``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from testset_gen.documents.structure import PARAGRAPH
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.pages import Page, whole_sentence
from testset_gen.offline.wording import PRONOUNS, in_subject

NAMED = re.compile(r"^(?P<x>(?:The )?[A-Z][\w.+-]*(?: (?:[A-Z0-9][\w.+-]*|of|and|for|de|von))*?) "
                   r"(?P<be>is|are) (?P<def>(?:a|an|the|one of) .{8,})$")
TERM = re.compile(r"^(?P<art>A|An) (?P<x>[a-z][\w-]*(?: [a-z][\w-]*){0,2}) (?P<be>is) "
                  r"(?P<def>(?:a|an|the) .{8,})$")
VAGUE_DEFINITIONS = re.compile(r"^(?:a|an|the) (?:way|thing|lot|number|set|part|kind|type|bit) of\b")


@dataclass(frozen=True)
class Definition:
    """A term the page defines: ``term`` as asked ("the Ember Stove"), ``sentence`` the
    definition, ``chunk`` the chunk that holds it, ``page`` its page's subject."""

    term: str
    sentence: str
    chunk: str
    page: str
    document_id: str


def definitions_of(page: Page) -> list[Definition]:
    out = []
    for section in page.sections:
        for block in section.blocks:
            if block.kind != PARAGRAPH:
                continue
            for sentence, start, end in page.sentences(block):
                if not whole_sentence(sentence) or len(sentence.split()) > 45:
                    continue
                body = sentence.rstrip(".")
                chunk = page.chunk_for(start, end)
                if chunk is None:
                    continue
                m = NAMED.match(body)
                if m and m.group("x").split()[-1].lower() not in PRONOUNS | {"there", "that"} \
                        and m.group("x") not in ("The", "This", "It") \
                        and not VAGUE_DEFINITIONS.match(m.group("def")):
                    x = m.group("x")
                    term = ("the " + x[4:]) if x.startswith("The ") else x
                    out.append(Definition(term, sentence, chunk, page.subject, page.document_id))
                    continue
                t = TERM.match(body)
                if t and page.subject and not VAGUE_DEFINITIONS.match(t.group("def")):
                    term = f"{t.group('art').lower()} {t.group('x')}"
                    out.append(Definition(term, sentence, chunk, page.subject, page.document_id))
    return out


def definition_questions(page: Page) -> list[Candidate]:
    out = []
    for d in definitions_of(page):
        plural = d.term.split()[-1].endswith("s") and not d.term.split()[-1].endswith("ss") \
            and d.term[:1].islower() and not d.term.startswith(("a ", "an "))
        tail = in_subject(d.page, d.term) if d.term.startswith(("a ", "an ")) else ""
        question = f"What {'are' if plural else 'is'} {d.term}{tail}?"
        out.append(Candidate("simple", question, d.sentence, (d.chunk,), (
            ("template", "structure:definition"), ("wh", "define"), ("page", d.page),
            ("term", d.term), ("source_sentences", [d.sentence])), structural=True))
    return out
