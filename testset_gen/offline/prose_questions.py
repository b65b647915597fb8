"""The recipes for prose that tells or explains (guides, handbooks, explanatory text) run over
a folder's pages: one parse of the sentences they read, then each recipe.

Apart from ``structure_questions``, which reads headings, lists and tables: these recipes
read sentences (a rule with its condition, reason or preference, ``recipes/guidance``), so
they parse every sentence that may hold one. Pages are read in a seeded order, ``PAGE_BATCH`` at a time, until there are ``wanted``
candidates.
"""

from __future__ import annotations

import random
from typing import Mapping

from ragmeter.text.syntax import parse
from testset_gen.graph.knowledge_graph import KnowledgeGraph
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.pages import graph_subject, read_pages
from testset_gen.offline.recipes.guidance import guidance_questions, guidance_sentences

PAGE_BATCH = 16


def prose_candidates(graph: KnowledgeGraph, names: Mapping[str, str], wanted: int,
                     rng: random.Random) -> list[Candidate]:
    """Candidates from the rules the graph's documents state; ``names``:
    document id -> what it documents (``page_names``)."""
    order = graph.document_ids()
    rng.shuffle(order)
    project = graph_subject(graph, names)
    out: list[Candidate] = []
    for start in range(0, len(order), PAGE_BATCH):
        pages = read_pages(graph, names, order[start:start + PAGE_BATCH], project)
        sentences = guidance_sentences(pages)
        docs = dict(zip(sentences, parse(sentences, entities=False)))
        for page in pages:
            out += guidance_questions(page, docs)
        if len(out) >= wanted:
            break
    return out
