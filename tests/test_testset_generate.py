"""The whole generator: a folder of documents -> a test set, through a scripted LLM server
(real HTTP on 127.0.0.1) and through the offline generator."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from document_files import make_docx, make_pdf
from ragmeter.cli.app import app
from ragmeter.testing import OpenAIMockServer
from testset_gen import testing as scripted
from testset_gen.distribution import parse_distribution, plan_counts
from testset_gen.llm.evolutions import rule_problems
from testset_gen.generator import generate
from testset_gen.graph.knowledge_graph import KnowledgeGraph

DOCS = {
    "curie.md": """# Marie Curie

Marie Curie was a physicist and chemist who was born in Warsaw in 1867. She moved to Paris in 1891 to study at the University of Paris.

Marie Curie discovered polonium and radium together with Pierre Curie in 1898. She named polonium after Poland, her native country.

In 1903 Marie Curie shared the Nobel Prize in Physics with Pierre Curie and Henri Becquerel. In 1911 she won the Nobel Prize in Chemistry alone.
""",
    "notes/warsaw.txt": """Warsaw is the capital and largest city of Poland. The city stands on the Vistula River in east-central Poland.

Warsaw was almost completely destroyed during the Second World War. The old town was rebuilt after the war and became a UNESCO World Heritage Site in 1980.

Marie Curie was born in Warsaw, and a museum in the New Town is devoted to her life and work.
""",
    "tower.html": """<html><head><title>The Eiffel Tower</title></head><body>
<h1>The Eiffel Tower</h1>
<p>The Eiffel Tower is a wrought-iron lattice tower in Paris. It was designed by the company of Gustave Eiffel and completed in 1889 for the World's Fair.</p>
<p>The tower is 330 metres tall. It was the tallest man-made structure in the world until the Chrysler Building in New York was finished in 1930.</p>
<p>About seven million people visit the Eiffel Tower every year, which makes it one of the most visited monuments in Paris.</p>
</body></html>
""",
    "odd/according.md": """# Rules of thumb

SAY-ACCORDING The writer of this chunk always refers to its source, which the rule check must drop. The Danube flows through Vienna and Budapest before it reaches the Black Sea.
""",
    "odd/rejected.md": """# Rejected

CRITIC-REJECT The critic rejects every question written from this chunk, whatever it says. The Rhine rises in the Swiss Alps and flows into the North Sea near Rotterdam.
""",
    "broken.pdf": "%PDF-1.4 this is not really a PDF",
}


@pytest.fixture(scope="module")
def docs(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("docs")
    for name, text in DOCS.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "radium.pdf").write_bytes(make_pdf([
        ["Radium", "", "Radium was discovered by Marie Curie and Pierre Curie in Paris in 1898.",
         "Radium glows faintly blue in the dark."],
        ["Radium was once added to watch dials so that they glowed at night.",
         "The Radium Institute in Paris was founded by Marie Curie in 1914."],
    ]))
    make_docx(root / "odd" / "louvre.docx", "The Louvre", (
        "The Louvre is the most visited museum in the world and stands in Paris.",
        "The Louvre holds the Mona Lisa, which Leonardo da Vinci painted in the sixteenth century.",
    ))
    for path in root.rglob("*"):
        assert not path.is_file() or path.stat().st_size < 50_000, path
    return root


@pytest.fixture()
def server():
    with OpenAIMockServer(chat_responder=scripted.respond) as srv:
        yield srv


def llm(server) -> str:
    return f"openai:mock-writer@{server.base_url}"


def run(docs, server, tmp_path, size=8, **options):
    options.setdefault("cache", tmp_path / "cache.sqlite")
    options.setdefault("journal", tmp_path / "journal.jsonl")
    options.setdefault("judge_options", {"timeout": 5.0})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = generate(docs, size, judge=llm(server), **options)
    return result, [str(w.message) for w in caught]


def chat(server):
    return [r.json for r in server.calls("/chat/completions")]


def test_llm_generation_shares_contexts_and_filters(docs, server, tmp_path):
    result, warned = run(docs, server, tmp_path, size=8)
    records = result.testset.records
    assert len(records) == 8
    assert result.testset.counts() == {"simple": 4, "reasoning": 2, "multi_context": 2, "conditional": 0}
    chunk_ids = set(result.graph.chunk_ids())
    for r in records:
        assert r.reference_context_ids and set(r.reference_context_ids) <= chunk_ids
        assert r.reference_contexts == [result.graph.chunk(c).text for c in r.reference_context_ids]
        assert r.question.endswith("?") and not rule_problems(r.question, r.ground_truth)
        assert "according to" not in r.question.lower()
        assert not any("CRITIC-REJECT" in c or "SAY-ACCORDING" in c for c in r.reference_contexts)
        assert r.sources and all(s["source"] for s in r.sources)
    assert all(len(r.reference_context_ids) >= 2 for r in records if r.evolution_type == "multi_context")
    # the corrupt file is named, the run went on
    assert any("broken.pdf" in w for w in warned)
    assert any(p.endswith("broken.pdf") for p, _ in result.skipped)
    # what was dropped says why
    reasons = [reason for rej in result.rejected for reason in rej.reasons]
    assert all(isinstance(r, str) and r for r in reasons)
    # cost: one summary per document, then about one writing call per question plus a
    # critic call per batch (rejected attempts cost their own calls)
    calls = chat(server)
    summaries = sum(1 for c in calls if c["messages"][0]["content"].startswith("You summarise"))
    assert summaries == len(result.graph.document_ids())
    assert (len(calls) - summaries) / len(records) <= 2.0


def test_every_evolution_type_with_its_share_from_every_file_type(docs, server, tmp_path):
    result, _ = run(docs, server, tmp_path, size=8,
                    distribution="simple=0.25,reasoning=0.25,multi_context=0.25,conditional=0.25")
    assert result.testset.counts() == {"simple": 2, "reasoning": 2, "multi_context": 2, "conditional": 2}
    sources = {Path(d.source).suffix for d in result.graph.documents()}
    assert sources == {".md", ".txt", ".html", ".pdf", ".docx"}
    pdf = next(d for d in result.graph.documents() if d.source.endswith(".pdf"))
    assert [page for _, page in pdf.pages] == [1, 2]
    # the writer was asked for each type with that type's instruction
    asked = [c["messages"][1]["content"] for c in chat(server) if c["messages"][0]["content"].startswith("You write")]
    assert any("with a condition" in a for a in asked) and any("step of reasoning" in a for a in asked)
    assert any(a.startswith("The numbered contexts") for a in asked)


def test_same_seed_same_cache_same_testset_and_resume(docs, server, tmp_path):
    first, _ = run(docs, server, tmp_path, size=6, seed=3)
    sent = len(chat(server))
    again, _ = run(docs, server, tmp_path, size=6, seed=3, journal=False)
    assert [r.model_dump() for r in again.testset.records] == [r.model_dump() for r in first.testset.records]
    assert len(chat(server)) == sent  # every reply came from the cache

    # an interrupted run: keep the first two accepted records of the journal, no cache
    journal = tmp_path / "journal.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines()
    journal.write_text("\n".join(lines[:2]) + "\n", encoding="utf-8")
    resumed, _ = run(docs, server, tmp_path, size=6, seed=3, cache=False)
    assert [r.model_dump() for r in resumed.testset.records] == [r.model_dump() for r in first.testset.records]
    assert resumed.usage.calls < first.usage.calls  # the two kept questions were not redone

    other, _ = run(docs, server, tmp_path, size=6, seed=4, journal=False)
    assert [r.id for r in other.testset.records] != [r.id for r in first.testset.records]


def test_offline_generator_through_the_same_entry_point(docs, tmp_path):
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        result = generate(docs, 6, judge="local", cache=False, distribution="simple=0.5,multi_context=0.5")
    records = result.testset.records
    assert records and result.usage is None
    counts = result.testset.counts()
    for kind, asked in plan_counts(6, parse_distribution("simple=0.5,multi_context=0.5")).items():
        assert counts[kind] + result.shortfall.get(kind, 0) - result.filled.get(kind, 0) == asked
    # the short multi_context records were written as simple ones, from the simple pool
    assert result.shortfall == {"multi_context": 3} and result.filled == {"simple": 3}
    assert len(records) == 6
    chunk_ids = set(result.graph.chunk_ids())
    for r in records:
        assert set(r.reference_context_ids) <= chunk_ids
        assert r.question.endswith("?")
    assert all(len(r.reference_context_ids) >= 2 for r in records if r.evolution_type == "multi_context")


def test_exact_mix_keeps_the_shares_and_writes_fewer(docs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = generate(docs, 6, judge="local", cache=False, distribution="simple=0.5,multi_context=0.5",
                          exact_mix=True)
    assert result.filled == {} and result.shortfall == {"multi_context": 3}
    assert result.testset.counts()["simple"] == 3 and len(result.testset.records) == 3
    assert any("multi_context: 3 of 3" in str(w.message) for w in caught)


def test_distribution_parsing_errors_name_the_part():
    assert parse_distribution("simple=2,reasoning=1") == pytest.approx({"simple": 2 / 3, "reasoning": 1 / 3})
    with pytest.raises(ValueError, match="unknown evolution type 'complex'"):
        parse_distribution("complex=1")
    with pytest.raises(ValueError, match="not a number"):
        parse_distribution("simple=lots")
    with pytest.raises(ValueError, match="TYPE=SHARE"):
        parse_distribution("simple")
    assert plan_counts(7, {"simple": 0.5, "reasoning": 0.25, "multi_context": 0.25}) == {"simple": 3, "reasoning": 2, "multi_context": 2}


def test_cli_generate_and_graph_stats(docs, server, tmp_path):
    out = tmp_path / "testset.jsonl"
    graph = tmp_path / "graph.json"
    runner = CliRunner()
    done = runner.invoke(app, ["generate", str(docs), "--size", "4", "--out", str(out), "--judge", llm(server),
                               "--graph-out", str(graph), "--cache-dir", str(tmp_path / "c"), "-q"])
    assert done.exit_code == 0, done.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 4 and {"question", "ground_truth", "reference_contexts", "evolution_type"} <= set(rows[0])
    assert "broken.pdf" in done.output  # named in a warning on stderr (mixed into output by CliRunner)
    loaded = KnowledgeGraph.load(graph)
    assert len(loaded.chunk_ids()) > 0
    stats = runner.invoke(app, ["graph", "stats", str(graph)])
    assert stats.exit_code == 0 and "chunk" in stats.output


def test_cli_generate_reports_bad_distribution(docs, tmp_path):
    done = CliRunner().invoke(app, ["generate", str(docs), "--size", "2", "--out", str(tmp_path / "t.jsonl"),
                                    "--distribution", "simple=1,hard=1", "-q"])
    assert done.exit_code == 2
    assert "unknown evolution type 'hard'" in done.output


def test_the_shortfall_warning_points_at_the_callers_line(docs):
    # the warning's filename and line are the caller's, as for any library warning: a filter
    # on this module, or the "file:line: ShortfallWarning" a user reads, finds their own call
    import asyncio
    import inspect

    from testset_gen.generator import agenerate
    from testset_gen.offline.generator import ShortfallWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1
        result = generate(docs, 40, judge="local", cache=False)  # these documents cannot give 40
    assert result.shortfall
    (w,) = [w for w in caught if issubclass(w.category, ShortfallWarning)]
    assert (w.filename, w.lineno) == (__file__, line)
    assert "fewer questions than asked for" in str(w.message)

    async def caller():
        return await agenerate(docs, 40, judge="local", cache=False)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno - 4  # the await above
        asyncio.run(caller())
    (w,) = [w for w in caught if issubclass(w.category, ShortfallWarning)]
    assert (w.filename, w.lineno) == (__file__, line)
