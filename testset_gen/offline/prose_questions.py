"""The recipes for prose that tells or explains (guides, handbooks, explanatory text) run over
a folder's pages: one parse of the sentences they read, then each recipe.

Apart from ``structure_questions``, which reads headings, lists and tables: these recipes
read sentences (a rule with its condition, reason or preference, ``recipes/guidance``), so
they parse every sentence that may hold one. Pages are read in a seeded order, ``PAGE_BATCH`` at a time, all of them
(``wanted`` no longer stops the reading: see ``recipes/occasions``).
"""

from __future__ import annotations

import random
from typing import Mapping

from ragmeter.text.syntax import parse
from testset_gen.graph.knowledge_graph import KnowledgeGraph
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.pages import graph_subject, read_pages
from testset_gen.offline.recipes.guidance import action_rules, guidance_questions, guidance_sentences, topic_phrases
from testset_gen.offline.recipes.occasions import settle_occasions

PAGE_BATCH = 16


def prose_candidates(graph: KnowledgeGraph, names: Mapping[str, str], wanted: int,
                     rng: random.Random) -> list[Candidate]:
    """Candidates from the rules the graph's documents state; ``names``:
    document id -> what it documents (``page_names``)."""
    order = graph.document_ids()
    rng.shuffle(order)
    project = graph_subject(graph, names)
    out: list[Candidate] = []
    rules: list[tuple[str, str, str, str, str]] = []
    # every page is read: whether a rule is the folder's whole answer ("When should you
    # contact ...?") depends on the rules of the other pages (``recipes/occasions``)
    for start in range(0, len(order), PAGE_BATCH):
        pages = read_pages(graph, names, order[start:start + PAGE_BATCH], project)
        sentences = guidance_sentences(pages)
        docs = dict(zip(sentences, parse(sentences, entities=False)))
        topics = topic_phrases({s.heading for p in pages for s in p.sections if s.heading}
                               | {p.title for p in pages if p.title})
        for page in pages:
            rules += action_rules(page, docs)
            out += guidance_questions(page, docs, topics)
    return settle_occasions(out, rules)
