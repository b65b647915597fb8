"""Links between chunks from their LLM profiles: what multi-hop questions travel along.

Three edge kinds, added to the knowledge graph beside the spaCy ones:

* ``entity_overlap``: the two chunks' profiles name the same entity (``shared``: the names,
  as the first chunk writes them; ``score``: shared / the smaller entity list). A
  multi-hop specific question bridges them through one of these names.
* ``theme_overlap``: they share a theme (``shared``, ``score`` as above). A multi-hop
  abstract question asks about the theme across them.
* ``summary_similar``: the cosine of their summaries' embeddings is at least the threshold
  (``score``), only when an embedder is given; abstract questions use these too.

Names are compared after case folding, punctuation stripping and dropping a leading "the"
("The Louvre" = "Louvre"), not by fuzzy matching: "Paris" and "Paris Hilton" must not
link. A name or theme on a large share of the chunks is the corpus's subject, not a link
(it would join nearly every pair): it is left out when the corpus has 20 chunks or more,
as ``graph.MAX_ENTITY_SHARE`` does for spaCy's names.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import combinations
from typing import Mapping, Sequence

import numpy as np

from testset_gen.graph.enrichment import ChunkProfile
from testset_gen.graph.knowledge_graph import MAX_ENTITY_SHARE, KnowledgeGraph

MAX_THEME_SHARE = 0.2
"""Themes are broader than names, so a theme may be on more chunks before it stops linking
(not tuned on data: a theme on a fifth of a corpus is its subject)."""

SUMMARY_SIMILARITY = 0.8
"""Cosine of two summaries from which their chunks are ``summary_similar``."""

_PUNCT = re.compile(r"[^\w\s]")


def normalise(name: str) -> str:
    """``"The Louvre,"`` -> ``"louvre"``: what two names must agree on to link chunks."""
    text = " ".join(_PUNCT.sub(" ", name.casefold()).split())
    return text[4:] if text.startswith("the ") else text


def apply_profiles(graph: KnowledgeGraph, profiles: Mapping[str, ChunkProfile]) -> None:
    """Store each profile on its chunk node (``headline``, ``summary``, ``themes``,
    ``llm_entities``) and give each document the summaries of its first chunks."""
    by_doc: dict[str, list[str]] = {}
    for chunk_id in graph.chunk_ids():
        p = profiles.get(chunk_id)
        if p is None:
            continue
        graph.graph.nodes[chunk_id].update(headline=p.headline, summary=p.summary,
                                           themes=list(p.themes), llm_entities=list(p.entities))
        by_doc.setdefault(graph.graph.nodes[chunk_id]["document_id"], []).append(p.summary)
    for doc_id, summaries in by_doc.items():
        graph.graph.nodes[doc_id].setdefault("summary", " ".join(summaries[:3]))


def _overlap(items: Sequence[list[str]], max_share: float) -> list[tuple[int, int, list[str], float]]:
    """(i, j, shared names as chunk i writes them, shared / smaller list) for pairs sharing one."""
    norms = [{normalise(x): x for x in row if normalise(x)} for row in items]
    if len(norms) >= 20:
        counts = Counter(k for row in norms for k in row)
        common = {k for k, n in counts.items() if n > max_share * len(norms)}
        norms = [{k: v for k, v in row.items() if k not in common} for row in norms]
    holders: dict[str, list[int]] = {}
    for i, row in enumerate(norms):
        for k in row:
            holders.setdefault(k, []).append(i)
    pairs: dict[tuple[int, int], list[str]] = {}
    for k, idx in holders.items():
        for i, j in combinations(sorted(idx), 2):
            pairs.setdefault((i, j), []).append(k)
    out = []
    for (i, j), shared in sorted(pairs.items()):
        smaller = min(len(norms[i]), len(norms[j])) or 1
        out.append((i, j, sorted(norms[i][k] for k in shared), round(len(shared) / smaller, 6)))
    return out


def link_chunks(graph: KnowledgeGraph, summary_vectors: Mapping[str, np.ndarray] | None = None,
                threshold: float = SUMMARY_SIMILARITY) -> dict[str, int]:
    """Add the three edge kinds between profiled chunks; returns the count of each added."""
    ids = [c for c in graph.chunk_ids() if "themes" in graph.graph.nodes[c]]
    nodes = [graph.graph.nodes[c] for c in ids]
    added = {"entity_overlap": 0, "theme_overlap": 0, "summary_similar": 0}
    for kind, key, share in (("entity_overlap", "llm_entities", MAX_ENTITY_SHARE),
                             ("theme_overlap", "themes", MAX_THEME_SHARE)):
        for i, j, shared, score in _overlap([n.get(key, []) for n in nodes], share):
            graph.graph.add_edge(ids[i], ids[j], key=kind, kind=kind, shared=shared, score=score)
            added[kind] += 1
    if summary_vectors:
        with_vec = [c for c in ids if c in summary_vectors]
        if len(with_vec) > 1:
            rows = np.stack([summary_vectors[c] for c in with_vec])
            sims = rows @ rows.T
            for i, j in zip(*np.nonzero(np.triu(sims, k=1) >= threshold)):
                graph.graph.add_edge(with_vec[i], with_vec[j], key="summary_similar",
                                     kind="summary_similar", score=round(float(sims[i, j]), 6))
                added["summary_similar"] += 1
    return added
