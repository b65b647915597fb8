"""The knowledge graph over a small hand-written corpus: nodes, edges, bridges, JSON."""

from __future__ import annotations

import json

import numpy as np
import pytest

from testset_corpus import corpus
from testset_gen.documents.document import Chunk, Document
from testset_gen.graph.knowledge_graph import EDGE_KINDS, KnowledgeGraph, build_graph

THRESHOLD = 0.6  # the corpus's paragraphs are short: related ones score 0.6-0.7 with MiniLM


@pytest.fixture(scope="module")
def docs_and_chunks() -> tuple[list[Document], list[Chunk]]:
    return corpus()


@pytest.fixture(scope="module")
def graph(docs_and_chunks, minilm) -> KnowledgeGraph:
    documents, chunks = docs_and_chunks
    return build_graph(documents, chunks, similarity_threshold=THRESHOLD)


def _by_source(graph: KnowledgeGraph, source: str, index: int) -> str:
    return next(c.id for c in graph.chunks() if c.source == source and c.index == index)


def test_nodes_carry_the_chunk_and_its_features(graph, docs_and_chunks):
    documents, chunks = docs_and_chunks
    assert len(graph.document_ids()) == 3 and len(graph.chunk_ids()) == len(chunks)
    assert {c.id: c for c in graph.chunks()} == {c.id: c for c in chunks}
    assert {d.id: d for d in graph.documents()} == {d.id: d for d in documents}
    for cid in graph.chunk_ids():
        node = graph.node(cid)
        assert node["kind"] == "chunk"
        for key in ("text", "source", "title", "page", "index", "keyphrases", "entities"):
            assert key in node
        assert "summary" not in node  # only when a caller gives one
        assert len(node["embedding"]) == 384
        assert all(isinstance(x, float) for x in node["embedding"])
        assert abs(float(np.linalg.norm(node["embedding"])) - 1.0) < 1e-4
        assert all(set(e) == {"text", "label", "norm"} for e in node["entities"])
    first = graph.node(_by_source(graph, "curie.md", 0))
    labels = {e["norm"]: e["label"] for e in first["entities"]}
    assert labels["marie curie"] == "PERSON" and labels["warsaw"] == "GPE"
    assert "physics" in first["keyphrases"]
    assert graph.node(_by_source(graph, "curie.md", 1))["keyphrases"][:2] == ["polonium", "radium"]


def test_every_edge_kind_is_present_and_well_formed(graph):
    counts = graph.stats()["edges"]
    assert set(counts) == set(EDGE_KINDS) and all(counts[k] > 0 for k in EDGE_KINDS)
    assert counts["contains"] == len(graph.chunk_ids())
    assert counts["next"] == len(graph.chunk_ids()) - len(graph.document_ids())
    for u, v, _ in graph.edges("contains"):
        assert graph.node(u)["kind"] == "document" and graph.chunk(v).document_id == u
    for u, v, _ in graph.edges("next"):
        a, b = graph.chunk(u), graph.chunk(v)
        assert a.document_id == b.document_id and b.index == a.index + 1
    for u, v, data in graph.edges("similar"):
        cosine = float(np.dot(graph.node(u)["embedding"], graph.node(v)["embedding"]))
        assert data["score"] >= THRESHOLD and abs(data["score"] - cosine) < 1e-4
    for kind, field in (("shared_entity", "entities"), ("shared_keyphrase", "keyphrases")):
        for u, v, data in graph.edges(kind):
            def items(n: str) -> set[str]:
                values = graph.node(n)[field]
                return {e["norm"] for e in values} if field == "entities" else set(values)
            assert data["shared"] and set(data["shared"]) <= items(u) & items(v)
    # dates are values, not names: 1867 never links two chunks
    assert all("1867" not in d["shared"] for _, _, d in graph.edges("shared_entity"))
    research = [d["shared"] for u, v, d in graph.edges("shared_keyphrase")
                if {graph.chunk(u).source, graph.chunk(v).source} == {"curie.md", "warsaw.md"}]
    assert ["research"] in research


def test_bridges_join_chunks_that_name_the_same_entity(graph):
    bridges = graph.bridges()
    found = {(graph.chunk(b.a).source, graph.chunk(b.b).source, b.entity, b.label)
             for b in bridges}
    assert ("curie.md", "warsaw.md", "marie curie", "PERSON") in found
    assert ("curie.md", "eiffel.md", "paris", "GPE") in found
    assert ("eiffel.md", "eiffel.md", "eiffel tower", "FAC") in found or \
        ("eiffel.md", "eiffel.md", "eiffel tower", "LOC") in found
    order = graph.chunk_ids()
    for b in bridges:
        assert order.index(b.a) < order.index(b.b)
        assert b.entity in {e["norm"] for e in graph.node(b.a)["entities"]}
        assert all(t for t in b.texts)


def test_neighbours_follow_edges_both_ways(graph):
    middle = _by_source(graph, "curie.md", 1)
    before, after = _by_source(graph, "curie.md", 0), _by_source(graph, "curie.md", 2)
    assert graph.neighbours(middle, kinds=["next"]) == [before, after]
    warsaw = _by_source(graph, "warsaw.md", 0)
    assert middle in graph.neighbours(warsaw, kinds=["shared_entity"])
    assert set(graph.neighbours(middle)) >= {before, after, warsaw}
    with pytest.raises(ValueError, match="unknown edge kinds"):
        graph.neighbours(middle, kinds=["cites"])
    with pytest.raises(KeyError):
        graph.chunk(graph.document_ids()[0])


def test_stats(graph):
    s = graph.stats()
    assert s["nodes"] == {"document": 3, "chunk": 7}
    assert s["entities"] >= 15 and s["entity_mentions"] >= s["entities"]
    assert s["keyphrases"] > 0 and s["embedded"] is True
    assert s["bridges"] == len(graph.bridges()) > 0
    assert s["mean_degree"] > 1 and s["isolated_chunks"] == 0
    assert repr(graph).startswith("KnowledgeGraph(3 documents, 7 chunks")


def test_save_and_load_round_trip(graph, tmp_path):
    path = graph.save(tmp_path / "kg" / "graph.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert {"nodes", "edges", "graph", "multigraph", "directed"} <= set(data)
    loaded = KnowledgeGraph.load(path)
    assert list(loaded.graph.nodes(data=True)) == list(graph.graph.nodes(data=True))
    assert list(loaded.graph.edges(keys=True, data=True)) == \
        list(graph.graph.edges(keys=True, data=True))
    assert loaded.graph.graph == graph.graph.graph
    assert loaded.to_data() == graph.to_data()
    assert loaded.stats() == graph.stats() and loaded.bridges() == graph.bridges()
    assert loaded.chunks() == graph.chunks()


def test_order_of_the_input_does_not_matter(graph, docs_and_chunks):
    documents, chunks = docs_and_chunks
    again = build_graph(list(reversed(documents)), list(reversed(chunks)),
                        similarity_threshold=THRESHOLD)
    assert json.dumps(again.to_data()) == json.dumps(graph.to_data())


def test_a_custom_encoder_summaries_and_no_embeddings(docs_and_chunks):
    documents, chunks = docs_and_chunks
    same = build_graph(documents, chunks, embed=lambda texts: np.ones((len(texts), 4)),
                       summaries={documents[0].id: "About Marie Curie.",
                                  chunks[0].id: "Early life."})
    n = len(chunks)
    assert same.stats()["edges"]["similar"] == n * (n - 1) // 2
    assert all(d["score"] == pytest.approx(1.0) for _, _, d in same.edges("similar"))
    assert same.node(documents[0].id)["summary"] == "About Marie Curie."
    assert same.node(chunks[0].id)["summary"] == "Early life."
    assert "summary" not in same.node(chunks[1].id)
    plain = build_graph(documents, chunks, embed=False)
    assert plain.stats()["edges"]["similar"] == 0 and not plain.stats()["embedded"]
    assert all("embedding" not in plain.node(c) for c in plain.chunk_ids())


def test_bad_input_is_refused(docs_and_chunks):
    documents, chunks = docs_and_chunks
    with pytest.raises(ValueError, match="documents that were not given"):
        build_graph(documents[1:], chunks, embed=False)
    with pytest.raises(ValueError, match="similarity_threshold"):
        build_graph(documents, chunks, similarity_threshold=1.5, embed=False)
    with pytest.raises(ValueError, match="min_shared"):
        build_graph(documents, chunks, min_shared=0, embed=False)
    stricter = build_graph(documents, chunks, embed=False, min_shared=2)
    assert all(len(d["shared"]) >= 2 for _, _, d in stricter.edges("shared_entity"))
    assert 0 < stricter.stats()["edges"]["shared_entity"] < \
        build_graph(documents, chunks, embed=False).stats()["edges"]["shared_entity"]


def test_adjectives_and_corpus_wide_names_do_not_link_chunks():
    """"American" in two chunks, or a name in most chunks of a corpus, is not a bridge."""
    from testset_gen.documents.document import Chunk, Document

    texts = [f"The American author Jane Doe{i} wrote novel number {i} in Boston." for i in range(24)]
    texts.append("Gustave Eiffel was an American-trained engineer who designed a tower in Paris.")
    texts.append("Gustave Eiffel also designed the frame of the Statue of Liberty.")
    doc = Document.make("\n".join(texts), "many.md")
    chunks, offset = [], 0
    for i, t in enumerate(texts):
        chunks.append(Chunk.make(doc, t, i, offset, offset + len(t), tokens=len(t.split())))
        offset += len(t) + 1
    g = build_graph([doc], chunks, embed=False)
    shared = {n for _, _, d in g.edges("shared_entity") for n in d["shared"]}
    assert "gustave eiffel" in shared  # a real link survives
    assert "american" not in shared  # an adjective never links
    assert "boston" not in shared  # named in 24 of 26 chunks: the corpus's topic, not a link
