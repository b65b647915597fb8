"""Every structure recipe run over a folder's pages: one parse for all of them, then each
recipe, then the recipes that pair pages (comparisons, shared entities).

Pages are read in a seeded order (``FolderPages``, shared with ``prose_questions``),
``PAGE_BATCH`` at a time, until there are a few times as many candidates as records asked
(``wanted``): a large folder is not parsed whole for a small test set.
"""

from __future__ import annotations

import re

from ragmeter.text.syntax import parse
from testset_gen.documents.structure import ITEM, PARAGRAPH
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.folder_pages import FolderPages
from testset_gen.offline.heading_forms import heading_forms, parse_sentences
from testset_gen.offline.pages import Page
from testset_gen.offline.recipes.causes import CAUSE, cause_questions
from testset_gen.offline.recipes.comparisons import comparison_questions
from testset_gen.offline.recipes.definitions import Definition, definition_questions, defining, definitions_of
from testset_gen.offline.recipes.lists import list_questions
from testset_gen.offline.recipes.quantities import DURATION, LIFETIME, quantity_questions
from testset_gen.offline.recipes.sections import section_questions, section_sentences
from testset_gen.offline.recipes.shared_entities import compared_things
from testset_gen.offline.recipes.shared_sections import shared_section_questions
from testset_gen.offline.recipes.steps import step_questions
from testset_gen.offline.recipes.tables import Fact, table_facts, table_questions

PAGE_BATCH = 16

_NUMBERISH = re.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|lifetime|January|"
                        r"February|March|April|June|July|August|September|October|November|December)\b")


def _imperative(doc: "object") -> bool:
    first = doc[0]  # type: ignore[index]
    return first.tag_ == "VB" or (first.pos_ == "VERB" and first.lower_ == first.lemma_.lower()
                                  and not first.lower_.endswith("ing"))


def _read(pages: list[Page]) -> tuple[list[Candidate], list[Fact], list[Definition]]:
    headings = sorted({s.heading for p in pages for s in p.sections if s.heading})
    items = sorted({b.text for p in pages for s in p.sections for b in s.blocks if b.kind == ITEM and b.text})
    sentences = sorted({s for p in pages for sec in p.sections for b in sec.blocks if b.kind == PARAGRAPH
                        for s, _, _ in p.sentences(b)
                        if _NUMBERISH.search(s) or DURATION.search(s) or LIFETIME.search(s)
                        or CAUSE.search(s)})
    tagged = parse(items, entities=False)
    forms = heading_forms(headings)
    imperative = {t for t, d in zip(items, tagged) if len(d) and _imperative(d)}
    said = parse_sentences(section_sentences(pages, forms))
    docs = dict(zip(sentences, parse(sentences)))
    out: list[Candidate] = []
    facts: list[Fact] = []
    found = [d for page in pages for d in definitions_of(page)]
    definitions = defining(found, parse_sentences([d.sentence for d in found]))
    out += definition_questions(definitions)
    for page in pages:
        out += section_questions(page, forms, said)
        out += list_questions(page, imperative)
        out += step_questions(page, imperative, forms, said)
        out += table_questions(page)
        facts += table_facts(page)
        out += cause_questions(page, docs)
        asked, stated = quantity_questions(page, docs)
        out += asked
        facts += stated
    return out, facts, definitions


def structure_candidates(folder: FolderPages, wanted: int) -> list[Candidate]:
    """Candidates from the structure of the folder's pages; reading stops at ``wanted``
    single-page candidates."""
    out: list[Candidate] = []
    facts: list[Fact] = []
    definitions: list[Definition] = []
    pages: list[Page] = []
    for batch in folder.batches(PAGE_BATCH):
        pages += batch
        got, stated, defined = _read(batch)
        out += got
        facts += stated
        definitions += defined
        if len(out) >= wanted:
            break
    return (out + comparison_questions(facts) + compared_things(out, definitions, folder.project)
            + shared_section_questions(pages))
