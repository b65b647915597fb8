"""The synthesizer path (LLM-enriched knowledge graph, personas, query styles, single- and
multi-hop synthesizers, critic) end to end, through a scripted OpenAI server on 127.0.0.1."""

from __future__ import annotations

import json
import warnings
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from ragmeter.cli.app import app
from ragmeter.testing import OpenAIMockServer
from ragmeter.testing.openai_server import hashed_embedding
from testset_gen import testing as scripted
from testset_gen.distribution import plan_counts
from testset_gen.graph.enrichment import batches
from testset_gen.generator import MIN_SEED_TOKENS, generate
from testset_gen.llm.personas import load_personas
from testset_gen.llm.query_style import QUERY_LENGTHS, QUERY_STYLES, parse_styles
from testset_gen.llm.scenarios import SYNTHESIZERS, Scenario, linked
from testset_corpus import LINKED_FILES

DOCS = LINKED_FILES

SHARES = "single_hop_specific=0.5,multi_hop_specific=0.25,multi_hop_abstract=0.25"


def write_docs(root: Path, docs: dict[str, str]) -> Path:
    for name, text in docs.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def docs(tmp_path_factory) -> Path:
    return write_docs(tmp_path_factory.mktemp("synth"), DOCS)


@pytest.fixture()
def server():
    with OpenAIMockServer(chat_responder=scripted.respond) as srv:
        yield srv


def run(docs, server, tmp_path, size=8, **options):
    options.setdefault("cache", False)
    options.setdefault("journal", tmp_path / "journal.jsonl")
    options.setdefault("judge_options", {"timeout": 5.0})
    options.setdefault("chunk_tokens", 48)
    options.setdefault("synthesizers", SHARES)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = generate(docs, size, judge=f"openai:mock-writer@{server.base_url}", **options)
    return result, [str(w.message) for w in caught]


def sent(server) -> list[dict]:
    return [r.json for r in server.calls("/chat/completions")]


KINDS = {"You index documents": "enrich", "You design user personas": "personas",
         "You write test queries": "write", "You review test records": "critic"}


def by_kind(calls: list[dict]) -> Counter:
    return Counter(next(v for k, v in KINDS.items() if c["messages"][0]["content"].startswith(k)) for c in calls)


def test_records_carry_persona_style_synthesizer_and_cite_linked_chunks(docs, server, tmp_path):
    result, _ = run(docs, server, tmp_path, size=8)
    records = result.testset.records
    assert result.written() == {"single_hop_specific": 4, "multi_hop_specific": 2, "multi_hop_abstract": 2}
    assert result.shortfall == {} and result.rejected == []
    names = {p.name for p in result.personas}
    assert len(result.personas) == 3 and all(n.startswith("Reader of ") for n in names)
    graph = result.graph
    for r in records:
        m = r.metadata
        assert m["synthesizer"] in SYNTHESIZERS
        assert m["persona"] in names and m["query_style"] in QUERY_STYLES and m["query_length"] in QUERY_LENGTHS
        # the writer's prompt carried them: the scripted writer echoes persona, style, length, topic
        assert r.question.startswith(f"{m['persona']} asks ({m['query_style']}, {m['query_length']}) about {m['topic']}:")
        assert m["chunk_ids"] == r.reference_context_ids
        assert r.reference_contexts == [graph.chunk(c).text for c in r.reference_context_ids]
        assert m["document_ids"] == list(dict.fromkeys(graph.chunk(c).document_id for c in m["chunk_ids"]))
        assert r.evolution_type == ("simple" if m["synthesizer"] == "single_hop_specific" else "multi_context")
        if m["synthesizer"] == "single_hop_specific":
            assert len(r.reference_context_ids) == 1 and m["link"] == ""
            node = graph.node(r.reference_context_ids[0])
            assert m["topic"] in node["llm_entities"] + node["themes"]
        else:
            assert len(set(r.reference_context_ids)) >= 2
            assert m["link"] == {"multi_hop_specific": "entity_overlap", "multi_hop_abstract": "theme_overlap"}[m["synthesizer"]]
            assert linked(graph, Scenario(m["synthesizer"], tuple(r.reference_context_ids), m["topic"], m["link"]))
            # the topic is what the link shares
            for u in r.reference_context_ids:
                for v in r.reference_context_ids:
                    if u < v:
                        data = graph.graph.get_edge_data(u, v, m["link"]) or graph.graph.get_edge_data(v, u, m["link"])
                        assert data is not None
    # styles and lengths in their exact shares (equal by default: 8 over 4 styles, 8 over 3 lengths)
    assert Counter(r.metadata["query_style"] for r in records) == Counter(plan_counts(8, parse_styles(None)))
    assert sorted(Counter(r.metadata["query_length"] for r in records).values()) == [2, 3, 3]
    # the graph holds the LLM profile of every chunk that was a seed
    for c in graph.chunk_ids():
        node = graph.node(c)
        if node["tokens"] >= MIN_SEED_TOKENS:
            assert node["headline"] and node["summary"] and node["themes"] and "llm_entities" in node
    assert graph.stats()["edges"]["entity_overlap"] > 0 and graph.stats()["edges"]["theme_overlap"] > 0


def test_calls_within_budget(docs, server, tmp_path):
    result, _ = run(docs, server, tmp_path, size=8, journal=False)
    kept = len(result.testset.records)
    counted = by_kind(sent(server))
    seeds = [c for c in result.graph.chunks() if c.tokens >= MIN_SEED_TOKENS]
    # fixed: one enrichment call per batch of a document's chunks, one persona call
    assert counted["enrich"] == len(batches(seeds)) == len(result.graph.document_ids())
    assert counted["personas"] == 1
    # per kept question: one writing call, one critic call per 8
    assert kept == 8 and counted["write"] == 8 and counted["critic"] == 1
    assert (counted["write"] + counted["critic"]) / kept <= 2
    assert result.usage.calls == sum(counted.values())


def test_user_given_personas_are_used_and_bad_files_are_named(docs, server, tmp_path):
    path = tmp_path / "personas.jsonl"
    path.write_text('{"name": "Oncology nurse", "role_description": "Explains radium treatment history to patients."}\n'
                    '{"name": "Tour guide", "role_description": "Shows visitors around Warsaw and Paris."}\n',
                    encoding="utf-8")
    result, _ = run(docs, server, tmp_path, size=6, personas=path)
    assert [p.name for p in result.personas] == ["Oncology nurse", "Tour guide"]
    assert {r.metadata["persona"] for r in result.testset.records} <= {"Oncology nurse", "Tour guide"}
    assert all(r.question.startswith(r.metadata["persona"] + " asks") for r in result.testset.records)
    assert by_kind(sent(server))["personas"] == 0  # no persona call when the user gives them

    bad = tmp_path / "bad.json"
    bad.write_text('[{"name": "Nurse", "role_description": "x"}, {"name": "Guide"}]', encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.json: row 2, field 'role_description'"):
        load_personas(bad)
    with pytest.raises(ValueError, match="repeated: Nurse"):
        load_personas([{"name": "Nurse", "role_description": "a"}, {"name": "Nurse", "role_description": "b"}])


def test_same_seed_same_set_other_seed_other_set(docs, server, tmp_path):
    first, _ = run(docs, server, tmp_path, size=6, seed=5, journal=False)
    again, _ = run(docs, server, tmp_path, size=6, seed=5, journal=False)
    assert [r.model_dump() for r in again.testset.records] == [r.model_dump() for r in first.testset.records]
    other, _ = run(docs, server, tmp_path, size=6, seed=6, journal=False)
    assert [r.model_dump() for r in other.testset.records] != [r.model_dump() for r in first.testset.records]


def test_resume_sends_no_call_for_finished_work(docs, server, tmp_path):
    first, _ = run(docs, server, tmp_path, size=6, seed=2)
    first_calls = sent(server)
    journal = tmp_path / "journal.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines()
    assert ["profiles" in lines[0], "personas" in lines[1]] == [True, True]
    assert len(lines) == 2 + 6
    # interrupted after two records were kept
    journal.write_text("\n".join(lines[:4]) + "\n", encoding="utf-8")
    server.reset()
    resumed, _ = run(docs, server, tmp_path, size=6, seed=2)
    assert [r.model_dump() for r in resumed.testset.records] == [r.model_dump() for r in first.testset.records]
    again = sent(server)
    assert by_kind(again) == Counter({"write": 4, "critic": 1})  # no enrichment, no personas
    kept_prompts = {json.dumps(c["messages"]) for c in first_calls
                    if c["messages"][0]["content"].startswith("You write")}
    redone = [c for c in again if c["messages"][0]["content"].startswith("You write")]
    assert all(json.dumps(c["messages"]) in kept_prompts for c in redone)  # the same prompts, ...
    finished = {json.loads(line)["record"]["question"] for line in lines[2:4]}
    assert not finished & {json.loads(scripted.respond(c))["question"] for c in redone}  # ... not for kept records


def test_invalid_json_twice_is_a_named_rejection_and_a_failed_run(tmp_path, server):
    # one seed, and the judge answers it with prose twice per attempt: no question, and the
    # run fails naming the judge (it used to return an empty set blamed on the documents)
    from ragmeter.errors import JudgeFailedThroughout

    root = write_docs(tmp_path, {"bad.md": "# Bad\n\nBAD-JSON Gustave Eiffel designed the Eiffel Tower in Paris, which was completed in 1889 for the World's Fair and is 330 metres tall."})
    with pytest.raises(JudgeFailedThroughout, match=r"no question was kept, and the judge .* is the whole "
                       r"reason: 2 of its 4 calls failed, and every draft was lost to it \(refusal 2\)"):
        run(root, server, tmp_path, size=1, synthesizers="single_hop_specific=1", max_attempts=2)
    assert by_kind(sent(server))["write"] == 4  # each attempt: the call and its one repair re-ask


TOWER = "Gustave Eiffel designed the Eiffel Tower in Paris, completed in 1889 for the World's Fair."
LOUVRE = "The Louvre in Paris holds the Mona Lisa, which Leonardo da Vinci painted in the sixteenth century."


@pytest.mark.parametrize("docs_, synthesizer, reason", [
    ({"a.md": f"# A\n\nSAY-ACCORDING {TOWER}"}, "single_hop_specific",
     "refers to its source: 'according to the context' or the like"),
    ({"b.md": f"# B\n\nCRITIC-REJECT {LOUVRE}"}, "single_hop_specific", "not answerable: rejected by rule"),
    ({"e.md": f"# E\n\nLONG-QUERY {TOWER}"}, "single_hop_specific", "wrong length: 42 words for short"),
    ({"c.md": f"# C\n\nONE-CONTEXT {LOUVRE} It was a royal palace before it became a museum in 1793.",
      "d.md": f"# D\n\n{TOWER} From the tower, visitors walk along the river to the Louvre in an hour."},
     "multi_hop_specific", "uses one context: the writer drew on contexts [1]"),
])
def test_rule_check_and_critic_drop_bad_records_with_named_reasons(tmp_path, server, docs_, synthesizer, reason):
    root = write_docs(tmp_path, docs_)
    result, _ = run(root, server, tmp_path, size=1, synthesizers={synthesizer: 1}, max_attempts=1,
                    query_lengths="short=1")
    assert result.testset.records == [] and result.shortfall == {synthesizer: 1}
    assert [rej.reasons for rej in result.rejected] == [[reason]]
    assert list(result.rejections_by_type()) == [synthesizer]


def test_no_linked_chunks_is_a_named_shortfall(tmp_path, server):
    root = write_docs(tmp_path, {"one.md": "# One\n\nGustave Eiffel designed the Eiffel Tower in Paris, completed in 1889 for the World's Fair."})
    result, _ = run(root, server, tmp_path, size=2, synthesizers="single_hop_specific=1,multi_hop_specific=1")
    assert result.written() == {"single_hop_specific": 1, "multi_hop_specific": 0}
    assert result.shortfall == {"multi_hop_specific": 1}
    assert result.rejections_by_type()["multi_hop_specific"] == {"no scenario": 1}


def test_embedder_links_chunks_with_similar_summaries(docs, server, tmp_path):
    result, _ = run(docs, server, tmp_path, size=4, journal=False,
                    embedder=f"openai:mock-embed@{server.base_url}")
    embedded = [t for r in server.calls("/embeddings") for t in r.json["input"]]
    graph = result.graph
    summaries = {c: graph.node(c)["summary"] for c in graph.chunk_ids() if "summary" in graph.node(c)}
    documents = [graph.node(d)["summary"] for d in graph.document_ids()]
    assert sorted(embedded) == sorted([*summaries.values(), *documents])  # one embedding of each
    edges = graph.edges("summary_similar")
    assert edges
    for u, v, data in edges:
        cosine = float(np.dot(hashed_embedding(summaries[u]), hashed_embedding(summaries[v])))
        assert data["score"] == pytest.approx(cosine, abs=1e-5) and cosine >= 0.8


def test_synthesizers_need_an_llm_and_bad_shares_are_named(docs):
    with pytest.raises(ValueError, match="need an LLM judge"):
        generate(docs, 2, judge="local", synthesizers=SHARES, cache=False)
    with pytest.raises(ValueError, match="unknown query style 'shouty'"):
        generate(docs, 2, judge="local", query_styles="shouty=1", cache=False)
    with pytest.raises(ValueError, match="unknown synthesizer 'deep'"):
        generate(docs, 2, judge="local", synthesizers="deep=1", cache=False)
    with pytest.raises(ValueError, match="embedder is used by the synthesizer path only"):
        generate(docs, 2, judge="local", embedder="local", cache=False)


def test_cli_generate_with_synthesizers(docs, server, tmp_path):
    personas = tmp_path / "personas.json"
    personas.write_text(json.dumps([{"name": "Tour guide", "role_description": "Shows visitors around Paris."}]),
                        encoding="utf-8")
    out = tmp_path / "testset.jsonl"
    done = CliRunner().invoke(app, [
        "generate", str(docs), "--size", "4", "--out", str(out), "--judge", f"openai:mock-writer@{server.base_url}",
        "--synthesizers", "single_hop_specific=0.5,multi_hop_abstract=0.5", "--personas", str(personas),
        "--query-styles", "web_search=1", "--query-lengths", "short=1,long=1", "--chunk-tokens", "48",
        "--cache-dir", str(tmp_path / "c"), "-q"])
    assert done.exit_code == 0, done.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 4
    assert {r["metadata"]["query_style"] for r in rows} == {"web_search"}
    assert Counter(r["metadata"]["query_length"] for r in rows) == {"short": 2, "long": 2}
    assert {r["metadata"]["persona"] for r in rows} == {"Tour guide"}
    assert Counter(r["metadata"]["synthesizer"] for r in rows) == {"single_hop_specific": 2, "multi_hop_abstract": 2}
    assert "synthesizer" in done.output and "multi_hop_abstract" in done.output and "personas: Tour guide" in done.output


def test_a_saved_enriched_graph_is_reused_without_enrichment_calls(docs, server, tmp_path):
    from testset_gen.graph.knowledge_graph import KnowledgeGraph

    first, _ = run(docs, server, tmp_path, size=4, journal=False)
    saved = KnowledgeGraph.load(first.graph.save(tmp_path / "graph.json"))
    server.reset()
    again, _ = run(None, server, tmp_path, size=4, journal=False, graph=saved)
    assert by_kind(sent(server)) == Counter({"write": 4, "critic": 1, "personas": 1})
    assert [r.model_dump() for r in again.testset.records] == [r.model_dump() for r in first.testset.records]


def test_links_compare_normalised_names_and_skip_the_corpus_subject():
    import networkx as nx

    from testset_gen.graph.knowledge_graph import KnowledgeGraph
    from testset_gen.graph.relationships import link_chunks, normalise

    assert normalise("The Louvre,") == normalise("louvre") == "louvre"
    assert normalise("Paris Hilton") != normalise("Paris")
    g = nx.MultiDiGraph()
    for i in range(40):  # "Marie Curie" on every chunk is the corpus's subject, not a link
        g.add_node(f"c{i:02}", kind="chunk", themes=["physics"] if i < 2 else [f"topic {i}"],
                   llm_entities=["Marie Curie"] + (["Warsaw", "the Louvre"] if i in (3, 7) else [])
                   + (["Louvre,"] if i == 9 else []))
    graph = KnowledgeGraph(g)
    assert link_chunks(graph) == {"entity_overlap": 3, "theme_overlap": 1, "summary_similar": 0}
    assert {(u, v): d["shared"] for u, v, d in graph.edges("entity_overlap")} == {
        ("c03", "c07"): ["Warsaw", "the Louvre"], ("c03", "c09"): ["the Louvre"], ("c07", "c09"): ["the Louvre"]}
    assert [(u, v, d["shared"]) for u, v, d in graph.edges("theme_overlap")] == [("c00", "c01", ["physics"])]


def test_representative_summaries_are_spread_apart_and_styles_get_exact_shares():
    from testset_gen.llm.personas import representative
    from testset_gen.llm.query_style import assign

    vectors = np.array([[1, 0], [0.99, 0.14], [0, 1], [0.14, 0.99], [-1, 0]], dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    picked = representative(["a", "b", "c", "d", "e"], 3, seed=0, vectors=vectors)
    # one from each direction: never both of a near-identical pair
    assert len(picked) == 3 and not ({0, 1} <= set(picked) or {2, 3} <= set(picked))
    names = assign(10, {"web_search": 0.5, "formal": 0.3, "misspelled": 0.2}, seed=1, salt="style")
    assert Counter(names) == {"web_search": 5, "formal": 3, "misspelled": 2}
    assert names == assign(10, {"web_search": 0.5, "formal": 0.3, "misspelled": 0.2}, seed=1, salt="style")
    assert names != assign(10, {"web_search": 0.5, "formal": 0.3, "misspelled": 0.2}, seed=2, salt="style")


def test_failed_enrichment_and_persona_calls_are_named_and_the_run_goes_on(docs, tmp_path):
    def responder(request):
        system, user = request["messages"][0]["content"], " ".join(m["content"] for m in request["messages"])
        if system.startswith("You design user personas") or (
                system.startswith("You index documents") and "Eiffel" in user):
            return "not JSON at all"
        return scripted.respond(request)

    with OpenAIMockServer(chat_responder=responder) as srv:
        result, warned = run(docs, srv, tmp_path, size=4, journal=False)
    assert any("1 of" in w and "could not be profiled" in w and "JudgeOutputInvalid" in w for w in warned)
    assert any("persona call failed (JudgeOutputInvalid" in w and "'Curious reader'" in w for w in warned)
    assert [p.name for p in result.personas] == ["Curious reader"]
    assert len(result.testset.records) == 4
    tower = next(c for c in result.graph.chunk_ids() if "Eiffel" in result.graph.node(c)["text"])
    assert "themes" not in result.graph.node(tower)
    assert all(tower not in r.reference_context_ids for r in result.testset.records)
    assert {r.metadata["persona"] for r in result.testset.records} == {"Curious reader"}
