"""The recipes for prose that tells or explains (guides, handbooks, explanatory text) run over
a folder's pages: one parse of the sentences they read, then each recipe.

Apart from ``structure_questions``, which reads headings, lists and tables: these recipes
read sentences (a rule with its condition, reason or preference, ``recipes/guidance``), so
they parse every sentence that may hold one. Pages are read in a seeded order, ``PAGE_BATCH`` at a time, all of them
(see ``recipes/occasions``); the pages ``structure_questions`` read already come from the
same ``FolderPages`` as they were read.
"""

from __future__ import annotations

from ragmeter.text.syntax import parse
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.folder_pages import FolderPages
from testset_gen.offline.recipes.guidance import (action_rules, guidance_questions, guidance_sentences, guide_sentences,
                                                  topic_phrases)
from testset_gen.offline.recipes.occasions import settle_occasions

PAGE_BATCH = 16


def prose_candidates(folder: FolderPages) -> list[Candidate]:
    """Candidates from the rules the folder's pages state."""
    out: list[Candidate] = []
    rules: list[tuple[str, str, str, str, str]] = []
    # every page is read: whether a rule is the folder's whole answer ("When should you
    # contact ...?") depends on the rules of the other pages (``recipes/occasions``)
    for pages in folder.batches(PAGE_BATCH):
        told = [guide_sentences(page) for page in pages]  # split once, read by the three below
        sentences = guidance_sentences(told)
        docs = dict(zip(sentences, parse(sentences, entities=False)))
        topics = topic_phrases({s.heading for p in pages for s in p.sections if s.heading}
                               | {p.title for p in pages if p.title})
        for page, sentences_of_page in zip(pages, told):
            rules += action_rules(page, sentences_of_page, docs)
            out += guidance_questions(page, sentences_of_page, docs, topics)
    return settle_occasions(out, rules)
