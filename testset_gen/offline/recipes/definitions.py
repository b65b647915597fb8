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
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from testset_gen.documents.structure import PARAGRAPH
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.heading_forms import defines
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
    plural: bool = False


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
                    out.append(Definition(term, sentence, chunk, page.subject, page.document_id,
                                          m.group("be") == "are"))
                    continue
                t = TERM.match(body)
                if t and page.subject and not VAGUE_DEFINITIONS.match(t.group("def")):
                    term = f"{t.group('art').lower()} {t.group('x')}"
                    out.append(Definition(term, sentence, chunk, page.subject, page.document_id))
    return out


def defining(found: Sequence[Definition], docs: Mapping[str, Any]) -> list[Definition]:
    """The definitions whose sentence does define the term (``heading_forms.defines``: "TDD
    is a skill like any other" matches the pattern and defines nothing); ``docs``: sentence ->
    its parse. A capitalised word that only opens the sentence ("Monitoring is a reactive
    control ...": a common noun, tagged NN) is asked in lower case in its page's subject."""
    out = []
    for d in found:
        doc = docs.get(d.sentence)
        head = d.term.split()[-1]
        if doc is None or not defines(doc, head):
            continue
        subject = next((t for t in doc if t.dep_ in ("nsubj", "nsubjpass") and t.head.dep_ == "ROOT"), None)
        plural = d.plural or (subject is not None and subject.tag_ in ("NNS", "NNPS"))
        if len(d.term.split()) == 1 and d.term[:1].isupper() and subject is not None \
                and subject.tag_ not in ("NNP", "NNPS") and not d.term.isupper() and d.term[1:] == d.term[1:].lower():
            if not d.page:
                continue
            d = replace(d, term=d.term.lower())
        out.append(replace(d, plural=plural))
    return out


def definition_questions(found: Sequence[Definition]) -> list[Candidate]:
    """``found``: the page's definitions that define (``defining``)."""
    out = []
    for d in found:
        bare = d.term[:1].islower() and not d.term.startswith(("a ", "an ", "the "))
        tail = in_subject(d.page, d.term) if d.term.startswith(("a ", "an ")) or bare else ""
        question = f"What {'are' if d.plural else 'is'} {d.term}{tail}?"
        out.append(Candidate("simple", question, d.sentence, (d.chunk,), (
            ("template", "structure:definition"), ("wh", "define"), ("page", d.page),
            ("term", d.term), ("source_sentences", [d.sentence])), structural=True))
    return out
