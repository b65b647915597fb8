"""The LLM paths of the generator under a judge that fails: through the scripted OpenAI
server on 127.0.0.1, with faults injected at the network edge (``testset_gen.testing.FaultMix``:
seeded, so every count below is exact and the same on every run)."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragmeter.cli.app import app
from ragmeter.errors import JudgeFailedThroughout
from ragmeter.judges.structured import OutputParseError, parse_output
from ragmeter.testing import OpenAIMockServer
from testset_gen import testing as scripted
from testset_gen.generator import generate
from testset_gen.documents.language import detect_language
from testset_gen.llm.synthesizers import WrittenSample
from testset_corpus import LINKED_FILES

DOCS = LINKED_FILES

FIXED = ("You summarise documents", "You index documents", "You design user personas")
"""Calls made once per document or per run, whatever the size: counted apart."""


@pytest.fixture(scope="module")
def docs(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("faulty")
    for name, text in DOCS.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def run(docs, server, tmp_path, size, **options):
    options.setdefault("cache", tmp_path / "cache.sqlite")
    options.setdefault("journal", False)
    options.setdefault("concurrency", 1)  # one order of calls: the seeded faults land alike on every run
    options.setdefault("judge_options", {"timeout": 5.0})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = generate(docs, size, judge=f"openai:mock-writer@{server.base_url}", **options)
    return result, [str(w.message) for w in caught]


def per_kept(server, kept: int) -> tuple[float, int]:
    """(requests per kept question, fixed requests), as the server counted them."""
    sent = [c.json["messages"][0]["content"] for c in server.calls("/chat/completions")]
    fixed = sum(1 for s in sent if s.startswith(FIXED))
    return (len(sent) - fixed) / kept, fixed


def assert_valid(result, docs: Path) -> None:
    texts = {p.name: re.sub(r"\s+", " ", p.read_text(encoding="utf-8")) for p in docs.iterdir()}
    for r in result.testset.records:
        assert r.question.strip() and r.question.endswith("?"), r.question
        assert r.ground_truth.strip()
        assert detect_language(f"{r.question} {r.ground_truth}") == "en", r.question
        assert r.reference_contexts == [result.graph.chunk(c).text for c in r.reference_context_ids]
        for context in r.reference_contexts:  # words of a chunk are words of its file
            words = re.sub(r"\s+", " ", context).split(" ")[-8:]
            assert any(" ".join(words) in t for t in texts.values()), context


SYNTHESIZERS = "single_hop_specific=0.5,multi_hop_specific=0.25,multi_hop_abstract=0.25"


def imperfect_runs(docs, tmp_path, size, **options):
    """Eight runs, seeds 0-7 of the fault mix (20% malformed JSON, 10% refusals, 10% wrong
    language, 10% truncated): [(result, warnings, requests per kept question, fixed requests)]."""
    runs = []
    for seed in range(8):
        with OpenAIMockServer(chat_responder=scripted.FaultMix(seed=seed)) as server:
            result, warned = run(docs, server, tmp_path / str(seed), size, chunk_tokens=48, **options)
            runs.append((result, warned, *per_kept(server, len(result.testset))))
    return runs


def test_an_imperfect_model_on_the_evolutions_path(docs, tmp_path):
    runs = imperfect_runs(docs, tmp_path, 12)
    assert [len(r.testset) for r, *_ in runs] == [11] + [12] * 7
    for result, *_ in runs:
        assert_valid(result, docs)
    # seed 0: the German drafts were dropped by rule, and the shortfall is put down to the
    # judge, with its faults counted by kind
    result, warned, _, fixed = runs[0]
    assert result.shortfall == {"multi_context": 1}
    assert result.judge_faults == {"wrong language": 6, "malformed output": 1, "refusal": 1}
    (short,) = [w for w in warned if "fewer questions" in w]
    assert short.startswith("testset_gen: fewer questions than asked for (multi_context: 1 of 3 missing); "
                            "the judge failed or answered unusably 8 times (wrong language 6, "
                            "malformed output 1, refusal 1; 24 calls made)")
    assert [r.judge_faults for r, *_ in runs[1:4]] == [
        {"wrong language": 2, "truncated reply": 1, "malformed output": 1},
        {"refusal": 1, "wrong language": 1},
        {"wrong language": 3, "malformed output": 2, "truncated reply": 1}]
    # cost: the summaries (one per document, however many questions) apart, at most two
    # requests per kept question on average: 186 requests for 95 questions (1.96)
    assert [f for *_, f in runs] == [7, 4, 5, 4, 6, 5, 6, 5]
    spent = sum(ratio * len(r.testset) for r, _, ratio, _ in runs)
    assert round(spent) == 186 and spent / sum(len(r.testset) for r, *_ in runs) <= 2.0


def test_an_imperfect_model_on_the_synthesizer_path(docs, tmp_path):
    runs = imperfect_runs(docs, tmp_path, 16, synthesizers=SYNTHESIZERS)
    assert [len(r.testset) for r, *_ in runs] == [16, 15, 15, 16, 16, 16, 16, 16]
    for result, *_ in runs:
        assert_valid(result, docs)
        # personas, styles and the multi-hop synthesizers still at work
        assert len(result.personas) == 3 and all(p.name.startswith("Reader of ") for p in result.personas)
        assert all(n > 0 for n in result.written().values())
        for r in result.testset.records:
            m = r.metadata
            assert r.question.startswith(f"{m['persona']} asks ({m['query_style']}, {m['query_length']})")
            assert (len(set(r.reference_context_ids)) >= 2) == (m["synthesizer"] != "single_hop_specific")
    result, warned, _, _ = runs[1]
    assert result.shortfall == {"multi_hop_abstract": 1}
    assert result.judge_faults == {"wrong language": 7, "malformed output": 1}
    (short,) = [w for w in warned if "fewer questions" in w]
    assert "(multi_hop_abstract: 1 of 4 missing); the judge failed or answered unusably 8 times " \
           "(wrong language 7, malformed output 1; 30 calls made)" in short
    # the profiles and the persona call apart: 235 requests for 126 questions (1.87)
    assert [f for *_, f in runs] == [5, 5, 9, 7, 6, 5, 6, 6]
    spent = sum(ratio * len(r.testset) for r, _, ratio, _ in runs)
    assert round(spent) == 235 and spent / sum(len(r.testset) for r, *_ in runs) <= 2.0


def always_broken(request):
    return "I'm sorry, but I can't help with that request."


def test_a_judge_that_fails_every_call_stops_the_run_and_is_named(docs, tmp_path):
    with OpenAIMockServer(chat_responder=lambda request: "{not json") as server:
        with pytest.raises(JudgeFailedThroughout) as raised:
            run(docs, server, tmp_path, 6)
        requests = len(server.calls("/chat/completions"))
    # 4 summaries, then 3 rounds of 6 writing calls; each call is sent twice (one repair)
    assert requests == 2 * 22
    message = str(raised.value)
    assert re.match(r"every one of the 22 calls to the judge openai:mock-writer@\S+ failed: "
                    r"JudgeOutputInvalid x22 \(malformed output 22\)", message), message
    assert "documents were not the cause" in message


def test_cli_exits_1_and_blames_the_judge_not_the_documents(docs, tmp_path):
    out = tmp_path / "testset.jsonl"
    with OpenAIMockServer(chat_responder=always_broken) as server:
        done = CliRunner().invoke(app, ["generate", str(docs), "--size", "4", "--out", str(out),
                                        "--judge", f"openai:mock-writer@{server.base_url}",
                                        "--cache-dir", str(tmp_path / "c"), "-q"])
    assert done.exit_code == 1, done.output
    text = " ".join(done.output.split())
    assert re.search(r"error: every one of the 16 calls to the judge openai:mock-writer@\S+ failed: "
                     r"JudgeOutputInvalid x16 \(refusal 16\)", text), text
    assert "documents gave no more" not in text
    assert not out.exists()


def test_the_cli_puts_a_shortfall_down_to_the_judge_with_counts(docs, tmp_path):
    # the writer answers in German four times in five: some questions are kept, the
    # shortfall's cause is the judge's language, counted
    mix = scripted.FaultMix(seed=0, malformed=0, refusal=0, truncated=0, wrong_language=0.8)
    with OpenAIMockServer(chat_responder=mix) as server:
        done = CliRunner().invoke(app, ["generate", str(docs), "--size", "12", "--out", str(tmp_path / "t.jsonl"),
                                        "--judge", f"openai:mock-writer@{server.base_url}",
                                        "--cache-dir", str(tmp_path / "c"), "-q"])
    assert done.exit_code == 0, done.output
    text = " ".join(done.output.split())
    assert re.search(r"short by [^:]+: the judge failed or answered unusably \d+ times \(wrong language \d+;", text), text
    assert "documents gave no more" not in text


def test_a_failed_critic_call_does_not_cost_the_drafts_a_rewrite(docs, tmp_path):
    critic_calls = []

    def responder(request):
        if request["messages"][0]["content"].startswith("You review"):
            critic_calls.append(1)
            if len(critic_calls) <= 2:  # the first call and its repair re-ask
                return always_broken(request)
        return scripted.respond(request)

    with OpenAIMockServer(chat_responder=responder) as server:
        result, _ = run(docs, server, tmp_path, 4, summaries=False)
        sent = [c.json["messages"][0]["content"] for c in server.calls("/chat/completions")]
    assert len(result.testset) == 4 and result.rejected == []
    assert sum(1 for s in sent if s.startswith("You write")) == 4  # written once each
    assert len(critic_calls) == 3  # failed, repaired in vain, then reviewed next round
    assert result.judge_faults == {"refusal": 1}


def test_a_missing_or_trailing_comma_is_mended_without_a_call():
    good = WrittenSample(question="What?", ground_truth="That.", contexts_used=[1, 2])
    assert parse_output('{"question": "What?" "ground_truth": "That." "contexts_used": [1, 2]}', WrittenSample) == good
    assert parse_output('{"question": "What?", "ground_truth": "That.", "contexts_used": [1, 2,],}', WrittenSample) == good
    with pytest.raises(OutputParseError):  # a Python dict is not guessed at
        parse_output("{'question': 'What?', 'ground_truth': 'That.', 'contexts_used': [1, 2]}", WrittenSample)
    with pytest.raises(OutputParseError, match="not closed"):
        parse_output('Here you are: {"question": "What?", "ground_truth": "That."', WrittenSample)
