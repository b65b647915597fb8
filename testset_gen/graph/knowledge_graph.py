"""The knowledge graph: documents and chunks, linked by what they share.

The evolutions read it to pick what a question is written from: one chunk for a simple
question, two chunks that name the same entity for a multi-context one (``bridges``), a
chunk's neighbours in reading order or by meaning when a question needs more context.

Why a ``networkx.MultiDiGraph``: two chunks are often related in several ways at once
(next to each other, similar, naming the same person), and each relation carries its own
data (a score, the shared names). A multigraph keeps one edge per relation, keyed by its
``kind``, so ``g.edges[a, b, "similar"]["score"]`` reads directly and adding a relation never
overwrites another; with a ``DiGraph`` all kinds would have to be packed into one edge.
Directed, because ``contains`` (document -> chunk) and ``next`` (reading order) have a
direction; the symmetric relations (``similar``, ``shared_entity``, ``shared_keyphrase``) are
stored once, from the chunk that comes first in graph order to the later one, and
``neighbours`` follows edges both ways.

Determinism: documents are ordered by (source, id) and chunks by (document, index, start),
whatever order the caller passes them in, and edges are added in that order; the same
documents therefore give the same node-link JSON, byte for byte, on every run.

Node properties (all JSON values, so that ``save``/``load`` keep them exactly):

* document: ``kind="document"``, ``text``, ``source``, ``title``, ``pages``, ``metadata``,
  ``summary`` (only when the caller gave one).
* chunk: ``kind="chunk"``, ``text``, ``document_id``, ``source``, ``title``, ``page``,
  ``index``, ``start``, ``end``, ``tokens``, ``entities`` (``[{"text", "label", "norm"}]``),
  ``keyphrases`` (``[str]``), ``embedding`` (``[float]``, unit length, when embedded),
  ``summary`` (only when given).

Edge kinds: ``contains`` (document -> chunk), ``next`` (chunk -> following chunk of the same
document), ``similar`` (cosine of the embeddings >= the threshold; ``score``),
``shared_entity`` (``shared``: the names both chunks mention, values such as dates left out),
``shared_keyphrase`` (``shared``: the keyphrases both have). The synthesizer path adds
``entity_overlap``, ``theme_overlap`` and ``summary_similar`` from the chunks' LLM profiles
(``testset_gen.graph.relationships``), and the profile on each chunk node (``headline``,
``summary``, ``themes``, ``llm_entities``).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import networkx as nx
import numpy as np

from testset_gen.documents.document import Chunk, Document
from testset_gen.graph.extract import KEYPHRASES_PER_CHUNK, extract

EDGE_KINDS: tuple[str, ...] = ("contains", "next", "similar", "shared_entity", "shared_keyphrase")
PROFILE_EDGE_KINDS: tuple[str, ...] = ("entity_overlap", "theme_overlap", "summary_similar")
"""Added by the synthesizer path from the chunks' LLM profiles (``testset_gen.graph.relationships``)."""
ALL_EDGE_KINDS = EDGE_KINDS + PROFILE_EDGE_KINDS
SYMMETRIC_KINDS = frozenset({"similar", "shared_entity", "shared_keyphrase", *PROFILE_EDGE_KINDS})
FORMAT_VERSION = 1

Encoder = Callable[[Sequence[str]], Any]
"""Texts -> an ``(n, dim)`` array of vectors (normalised here to unit length)."""

_CHUNK_FIELDS = ("document_id", "text", "index", "start", "end", "source", "title", "page",
                 "tokens")


@dataclass(frozen=True)
class Bridge:
    """Two chunks that name the same entity: the raw material of a multi-context question.

    ``a`` comes before ``b`` in graph order; ``texts`` is how each chunk writes the name.
    """

    a: str
    b: str
    entity: str
    label: str
    texts: tuple[str, str]


class KnowledgeGraph:
    """Documents and chunks as a ``networkx.MultiDiGraph`` (``.graph``), with typed access."""

    def __init__(self, graph: nx.MultiDiGraph | None = None) -> None:
        self.graph: nx.MultiDiGraph = graph if graph is not None else nx.MultiDiGraph()

    # --- nodes ------------------------------------------------------------------------

    def _ids(self, kind: str) -> list[str]:
        return [n for n, d in self.graph.nodes(data=True) if d.get("kind") == kind]

    def chunk_ids(self) -> list[str]:
        """Chunk ids in graph order (document by document, reading order)."""
        return self._ids("chunk")

    def document_ids(self) -> list[str]:
        return self._ids("document")

    def node(self, node_id: str) -> dict[str, Any]:
        """A copy of a node's properties (raises ``KeyError`` for an unknown id)."""
        if node_id not in self.graph:
            raise KeyError(f"no node {node_id!r} in the knowledge graph")
        return dict(self.graph.nodes[node_id])

    def chunk(self, chunk_id: str) -> Chunk:
        """The chunk as the ingestion step made it (graph-only properties left out)."""
        data = self.node(chunk_id)
        if data.get("kind") != "chunk":
            raise KeyError(f"{chunk_id!r} is a {data.get('kind')} node, not a chunk")
        return Chunk(id=chunk_id, **{k: data[k] for k in _CHUNK_FIELDS if k in data})

    def document(self, document_id: str) -> Document:
        data = self.node(document_id)
        if data.get("kind") != "document":
            raise KeyError(f"{document_id!r} is a {data.get('kind')} node, not a document")
        return Document(id=document_id, text=data["text"], source=data["source"],
                        title=data.get("title"),
                        pages=[tuple(p) for p in data.get("pages", [])],
                        metadata=data.get("metadata", {}))

    def chunks(self) -> list[Chunk]:
        return [self.chunk(c) for c in self.chunk_ids()]

    def documents(self) -> list[Document]:
        return [self.document(d) for d in self.document_ids()]

    # --- edges ------------------------------------------------------------------------

    def edges(self, kind: str | None = None) -> list[tuple[str, str, dict[str, Any]]]:
        """``(source, target, data)`` of every edge (of one kind), in insertion order."""
        return [(u, v, d) for u, v, k, d in self.graph.edges(keys=True, data=True)
                if kind is None or k == kind]

    def neighbours(self, chunk_id: str, kinds: Iterable[str] | None = None) -> list[str]:
        """Chunks linked to ``chunk_id`` by an edge of one of ``kinds`` (default: every
        chunk-to-chunk kind), either direction, in graph order, without repeats.

        ``next`` is followed both ways too: the chunk before and the one after.
        """
        wanted = set(kinds) if kinds is not None else set(ALL_EDGE_KINDS) - {"contains"}
        unknown = wanted - set(ALL_EDGE_KINDS)
        if unknown:
            raise ValueError(f"unknown edge kinds {sorted(unknown)}; known: {list(ALL_EDGE_KINDS)}")
        if chunk_id not in self.graph:
            raise KeyError(f"no node {chunk_id!r} in the knowledge graph")
        found: set[str] = set()
        for _, v, k in self.graph.out_edges(chunk_id, keys=True):
            if k in wanted:
                found.add(v)
        for u, _, k in self.graph.in_edges(chunk_id, keys=True):
            if k in wanted:
                found.add(u)
        return [c for c in self.chunk_ids() if c in found]

    def bridges(self) -> list[Bridge]:
        """One ``Bridge`` per (pair of chunks, shared name), in graph order."""
        out: list[Bridge] = []
        for u, v, data in self.edges("shared_entity"):
            ents_u = {e["norm"]: e for e in self.graph.nodes[u].get("entities", [])}
            ents_v = {e["norm"]: e for e in self.graph.nodes[v].get("entities", [])}
            for norm in data.get("shared", []):
                eu, ev = ents_u.get(norm, {}), ents_v.get(norm, {})
                out.append(Bridge(u, v, norm, eu.get("label") or ev.get("label", ""),
                                  (eu.get("text", norm), ev.get("text", norm))))
        return out

    # --- summary ----------------------------------------------------------------------

    def stats(self) -> dict[str, Any]:
        """Counts a user looks at to judge whether the graph can feed the generator.

        ``nodes``/``edges``: counts by kind (every kind listed, zeros included);
        ``entities``: distinct names over all chunks (values such as dates not counted);
        ``entity_mentions``: (chunk, name) pairs; ``keyphrases``: distinct keyphrases;
        ``mean_degree``: mean number of distinct chunks a chunk is linked to (any
        chunk-to-chunk kind); ``isolated_chunks``: chunks linked to none; ``bridges``:
        (pair, shared name) triples, what multi-context questions are made from.
        """
        from ragmeter.text.nlp import VALUE_LABELS

        chunk_ids = self.chunk_ids()
        nodes = Counter(d.get("kind", "?") for _, d in self.graph.nodes(data=True))
        edges = Counter(k for _, _, k in self.graph.edges(keys=True))
        names: set[str] = set()
        mentions = 0
        phrases: set[str] = set()
        for c in chunk_ids:
            data = self.graph.nodes[c]
            for e in data.get("entities", []):
                if e["label"] not in VALUE_LABELS:
                    names.add(e["norm"])
                    mentions += 1
            phrases.update(data.get("keyphrases", []))
        degrees = [len(self.neighbours(c)) for c in chunk_ids]
        return {
            "nodes": {"document": nodes.get("document", 0), "chunk": nodes.get("chunk", 0)},
            "edges": {k: edges.get(k, 0) for k in EDGE_KINDS + tuple(k for k in PROFILE_EDGE_KINDS if edges.get(k))},
            "entities": len(names),
            "entity_mentions": mentions,
            "keyphrases": len(phrases),
            "mean_degree": round(sum(degrees) / len(degrees), 3) if degrees else 0.0,
            "isolated_chunks": sum(1 for d in degrees if d == 0),
            "bridges": len(self.bridges()),
            "embedded": any("embedding" in self.graph.nodes[c] for c in chunk_ids),
        }

    # --- persistence ------------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        """Node-link data (``networkx.node_link_data``, edges under ``"edges"``)."""
        return nx.node_link_data(self.graph, edges="edges")

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "KnowledgeGraph":
        graph = nx.node_link_graph(dict(data), directed=True, multigraph=True, edges="edges")
        return cls(graph)

    def save(self, path: str | Path) -> Path:
        """Write node-link JSON (UTF-8). Embeddings are lists of floats, written exactly."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_data(), ensure_ascii=False), encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: str | Path) -> "KnowledgeGraph":
        return cls.from_data(json.loads(Path(path).read_text(encoding="utf-8")))

    def __len__(self) -> int:
        return self.graph.number_of_nodes()

    def __repr__(self) -> str:
        s = self.stats()
        return (f"KnowledgeGraph({s['nodes']['document']} documents, {s['nodes']['chunk']} "
                f"chunks, {sum(s['edges'].values())} edges)")


# --- building -------------------------------------------------------------------------


def _default_encoder() -> Encoder:
    from ragmeter.judges.local import default_encoder

    return default_encoder().encode


def _unit_rows(vectors: Any) -> np.ndarray:
    rows = np.asarray(vectors, dtype=np.float32)
    if rows.ndim != 2:
        raise ValueError(f"the encoder returned an array of shape {rows.shape}, not (n, dim)")
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.where(norms == 0, 1.0, norms)


def _similar_pairs(rows: np.ndarray, threshold: float,
                   block: int = 1024) -> list[tuple[int, int, float]]:
    """(i, j, cosine) for i < j with cosine >= threshold, block by block (bounded memory)."""
    out: list[tuple[int, int, float]] = []
    n = rows.shape[0]
    for start in range(0, n, block):
        sims = rows[start:start + block] @ rows.T
        for r, j in zip(*np.nonzero(sims >= threshold)):
            i = start + int(r)
            if i < int(j):
                out.append((i, int(j), round(float(sims[r, j]), 6)))
    out.sort()
    return out


def _shared(items: Sequence[set[str]], min_shared: int) -> list[tuple[int, int, list[str]]]:
    """(i, j, shared items sorted) for chunk pairs sharing at least ``min_shared`` items,
    through an inverted index (only pairs that share something are ever compared)."""
    holders: dict[str, list[int]] = {}
    for i, s in enumerate(items):
        for item in s:
            holders.setdefault(item, []).append(i)
    pairs: dict[tuple[int, int], list[str]] = {}
    for item, idx in holders.items():
        for i, j in combinations(sorted(idx), 2):
            pairs.setdefault((i, j), []).append(item)
    return [(i, j, sorted(shared)) for (i, j), shared in sorted(pairs.items())
            if len(shared) >= min_shared]


ADJECTIVE_LABELS = frozenset({"NORP", "LANGUAGE"})
"""Entity labels that are mostly adjectives ("American", "English"): two chunks that both
say "American" are not about the same thing, so these never link chunks."""
MAX_ENTITY_SHARE = 0.1
"""A name found in more than this share of the chunks (of a corpus of 20 chunks or more)
is the corpus's topic, not a link: it would join almost every pair of chunks."""


def _bridging_names(features: Sequence[Any], value_labels: frozenset[str]) -> list[set[str]]:
    """Per chunk, the names that may link it to another chunk (see the two constants above)."""
    names = [{e.norm for e in f.entities if e.label not in value_labels
              and e.label not in ADJECTIVE_LABELS} for f in features]
    if len(names) >= 20:
        counts = Counter(n for chunk in names for n in chunk)
        common = {n for n, k in counts.items() if k > MAX_ENTITY_SHARE * len(names)}
        names = [chunk - common for chunk in names]
    return names


def build_graph(documents: Sequence[Document], chunks: Sequence[Chunk], *,
                embed: bool | Encoder = True, similarity_threshold: float = 0.75,
                min_shared: int = 1, summaries: Mapping[str, str] | None = None,
                keyphrases_per_chunk: int = KEYPHRASES_PER_CHUNK) -> KnowledgeGraph:
    """The knowledge graph of ``documents`` cut into ``chunks``.

    ``embed``: ``True`` embeds every chunk with the bundled MiniLM
    (``ragmeter.judges.local.default_encoder``), a callable (texts -> array) with that
    encoder instead, ``False`` not at all (and then no ``similar`` edges).
    ``similarity_threshold``: the cosine from which two chunks are ``similar``.
    ``min_shared``: how many names (keyphrases) two chunks must share for a
    ``shared_entity`` (``shared_keyphrase``) edge. ``summaries``: node id -> summary text
    (from an LLM summariser; stored as the node's ``summary``).

    Raises ``ValueError`` for a chunk whose document is not among ``documents``.
    """
    if not 0.0 <= similarity_threshold <= 1.0:
        raise ValueError(f"similarity_threshold must be in [0, 1]; got {similarity_threshold}")
    if min_shared < 1:
        raise ValueError(f"min_shared must be at least 1; got {min_shared}")
    from ragmeter.text.nlp import VALUE_LABELS

    docs = sorted({d.id: d for d in documents}.values(), key=lambda d: (d.source, d.id))
    doc_rank = {d.id: i for i, d in enumerate(docs)}
    orphans = sorted({c.document_id for c in chunks} - set(doc_rank))
    if orphans:
        raise ValueError(f"chunks refer to documents that were not given: {orphans[:5]}")
    ordered = sorted({c.id: c for c in chunks}.values(),
                     key=lambda c: (doc_rank[c.document_id], c.index, c.start, c.id))
    summaries = dict(summaries or {})

    g = nx.MultiDiGraph(format_version=FORMAT_VERSION,
                        similarity_threshold=similarity_threshold, min_shared=min_shared)
    for d in docs:
        props: dict[str, Any] = {"kind": "document", "text": d.text, "source": d.source,
                                 "title": d.title, "pages": [list(p) for p in d.pages],
                                 "metadata": json.loads(json.dumps(d.metadata, default=str))}
        if d.id in summaries:
            props["summary"] = summaries[d.id]
        g.add_node(d.id, **props)

    texts = [c.text for c in ordered]
    features = extract(texts, [c.document_id for c in ordered], top_k=keyphrases_per_chunk)
    rows: np.ndarray | None = None
    if embed:
        encoder = _default_encoder() if embed is True else embed
        rows = _unit_rows(encoder(texts)) if texts else np.zeros((0, 0), dtype=np.float32)
        if rows.shape[0] != len(texts):
            raise ValueError(f"the encoder returned {rows.shape[0]} rows for {len(texts)} texts")
        g.graph["embedding_dim"] = int(rows.shape[1]) if rows.size else 0
    for i, (c, f) in enumerate(zip(ordered, features)):
        props = {"kind": "chunk", **{k: getattr(c, k) for k in _CHUNK_FIELDS},
                 "entities": [e.to_dict() for e in f.entities],
                 "keyphrases": list(f.keyphrases)}
        if rows is not None:
            props["embedding"] = [float(x) for x in rows[i]]
        if c.id in summaries:
            props["summary"] = summaries[c.id]
        g.add_node(c.id, **props)

    for c in ordered:
        g.add_edge(c.document_id, c.id, key="contains", kind="contains")
    for prev, cur in zip(ordered, ordered[1:]):
        if prev.document_id == cur.document_id:
            g.add_edge(prev.id, cur.id, key="next", kind="next")
    if rows is not None and len(ordered) > 1:
        for i, j, score in _similar_pairs(rows, similarity_threshold):
            g.add_edge(ordered[i].id, ordered[j].id, key="similar", kind="similar", score=score)
    names = _bridging_names(features, VALUE_LABELS)
    for i, j, shared in _shared(names, min_shared):
        g.add_edge(ordered[i].id, ordered[j].id, key="shared_entity", kind="shared_entity",
                   shared=shared)
    phrases = [set(f.keyphrases) for f in features]
    for i, j, shared in _shared(phrases, min_shared):
        g.add_edge(ordered[i].id, ordered[j].id, key="shared_keyphrase",
                   kind="shared_keyphrase", shared=shared)
    return KnowledgeGraph(g)
