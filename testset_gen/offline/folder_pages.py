"""A folder's pages in the seeded order, each read once and shared by the recipes that read
whole pages.

Why shared: the structure recipes (``structure_questions``) and the guide-prose recipes
(``prose_questions``) walk the same pages in the same seeded order; each read them itself
(``read_pages``: the sections parsed again, the folder's subject found again). Now the pages
are read on demand, ``batch`` at a time, and a page the structure recipes read is handed to
the prose recipes as it is. A page reads the same alone or in any batch (``read_pages``
looks at no other page of its batch), so the records do not change.
"""

from __future__ import annotations

import random
from typing import Iterator, Mapping

from testset_gen.graph.knowledge_graph import KnowledgeGraph
from testset_gen.offline.pages import Page, graph_subject, read_pages


class FolderPages:
    """The graph's pages in the order ``rng`` shuffles them to; ``project``: the folder's
    subject (``graph_subject``); ``names``: document id -> what it documents (``page_names``)."""

    def __init__(self, graph: KnowledgeGraph, names: Mapping[str, str], rng: random.Random) -> None:
        self.graph = graph
        self.names = names
        self.order = graph.document_ids()
        rng.shuffle(self.order)
        self.project = graph_subject(graph, names)
        self._read: list[Page] = []

    def batches(self, size: int) -> Iterator[list[Page]]:
        """The pages ``size`` at a time, in order; each read when first asked for (a large
        folder is not read whole when the caller stops early)."""
        for start in range(0, len(self.order), size):
            end = min(start + size, len(self.order))
            if len(self._read) < end:
                self._read += read_pages(self.graph, self.names, self.order[len(self._read):end], self.project)
            yield self._read[start:end]
