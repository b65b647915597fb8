"""tool_call_accuracy and tool_call_f1 on the 8 hand-made agent runs of the bench, each value
worked out by hand below (the bench checks the same cases against Ragas 0.4.3 itself)."""

from __future__ import annotations

import pytest

from bench.tool_call_cases import CASES
from ragmeter import evaluate
from ragmeter.conversations import ToolCall, load_conversations
from ragmeter.metrics import ToolCallAccuracy, ToolCallF1, tool_call_accuracy_score, tool_call_f1_score

# case: (accuracy in order, accuracy in any order, f1)
EXPECTED = {
    # one call, same name and argument: share 1/1, names aligned
    "exact": (1.0, 1.0, 1.0),
    # `town` instead of `city`: the reference argument is absent, share 0/1; no (name, args) in common
    "wrong_argument": (0.0, 0.0, 0.0),
    # two calls, both exact, same order: (1 + 1) / 2
    "two_in_order": (1.0, 1.0, 1.0),
    # [book, search] against [search, book]: names not aligned in order -> 0; sorted they are -> (1+1)/2;
    # the sets of calls are equal -> f1 1
    "two_swapped": (0.0, 1.0, 1.0),
    # [search] against [search, book]: name sequences differ in length -> 0 in both modes;
    # precision 1/1, recall 1/2 -> f1 2 * 1 * 0.5 / 1.5 = 2/3
    "missing_call": (0.0, 0.0, 2 / 3),
    # [search, book] against [search]: sequences differ -> 0; precision 1/2, recall 1/1 -> f1 2/3
    "extra_call": (0.0, 0.0, 2 / 3),
    # weather(Tokyo, Paris, London) against (Paris, London, Tokyo): names all equal, so aligned, but
    # paired by position every city differs -> 0/3; sorted by arguments they pair up -> 3/3; same set -> 1
    "three_parallel": (0.0, 1.0, 1.0),
    # limit 10 instead of 5: one of two reference arguments equal -> share 1/2; the call differs -> f1 0
    "wrong_value": (0.5, 0.5, 0.0),
}


def calls_of(case_id: str) -> tuple[list[ToolCall], list[ToolCall]]:
    sample = next(s for s in load_conversations(CASES) if s.id == case_id)
    return sample.tool_calls, sample.reference_tool_calls


@pytest.mark.parametrize("case_id", list(EXPECTED))
def test_the_formulas_give_the_hand_computed_values(case_id):
    predicted, reference = calls_of(case_id)
    strict, unordered, f1 = EXPECTED[case_id]
    assert tool_call_accuracy_score(predicted, reference) == pytest.approx(strict)
    assert tool_call_accuracy_score(predicted, reference, strict_order=False) == pytest.approx(unordered)
    assert tool_call_f1_score(predicted, reference) == pytest.approx(f1)


def test_evaluate_scores_every_case_with_its_reason_and_calls():
    data = load_conversations(CASES)
    kw = dict(journal=False, cache=False, record=False, show_progress=False)
    strict = evaluate(data, [ToolCallAccuracy(), ToolCallF1()], **kw)
    unordered = evaluate(data, [ToolCallAccuracy(strict_order=False)], **kw)
    assert [s.id for s in strict.samples] == list(EXPECTED)
    assert strict["tool_call_accuracy"] == pytest.approx([v[0] for v in EXPECTED.values()])
    assert unordered["tool_call_accuracy"] == pytest.approx([v[1] for v in EXPECTED.values()])
    assert strict["tool_call_f1"] == pytest.approx([v[2] for v in EXPECTED.values()])
    swapped = strict.samples[3].scores["tool_call_accuracy"]
    assert swapped.reason == ("called book_hotel(hotel_id='h42'), search_hotels(city='Paris', limit=5); "
                              "expected search_hotels(city='Paris', limit=5), book_hotel(hotel_id='h42') (in order)")
    assert swapped.verdicts["reference"][0] == {"name": "search_hotels", "arguments": {"city": "Paris", "limit": 5}}
    assert strict.info.judge is None  # judge-free: no judge was even built


def test_edges_both_empty_one_empty_and_values_compared_as_text():
    call = ToolCall(name="f", arguments={"n": 3})
    assert tool_call_accuracy_score([], []) == 1.0
    assert tool_call_accuracy_score([call], []) == 0.0 and tool_call_accuracy_score([], [call]) == 0.0
    assert tool_call_f1_score([], []) == 0.0  # Ragas' definition: no true positive, no F1
    as_text = ToolCall(name="f", arguments={"n": "3"})
    assert tool_call_accuracy_score([as_text], [call]) == 1.0  # str(3) == "3", as Ragas compares
    assert tool_call_f1_score([as_text], [call]) == 0.0  # but the sets of calls hold different values
    no_args = ToolCall(name="f")
    assert tool_call_accuracy_score([call], [no_args]) == 0.0  # arguments given where none were expected
    assert tool_call_accuracy_score([no_args], [no_args]) == 1.0


def test_a_single_turn_sample_is_missing_the_conversation_not_an_error():
    result = evaluate([{"question": "q", "answer": "a"}], ["tool_call_accuracy"], journal=False, cache=False,
                      record=False, show_progress=False)
    score = result.samples[0].scores["tool_call_accuracy"]
    assert score.value is None and score.error.kind == "MissingInput"
    assert "'messages', 'reference_tool_calls'" in score.reason


def test_conversation_runs_are_recorded_and_gated_like_any_other(tmp_path):
    from typer.testing import CliRunner

    from ragmeter import EvaluationResult, evaluate_conversations
    from ragmeter.cli.app import app
    from ragmeter.conversations import ConversationSample
    from ragmeter.runs import Record, RunStore

    store = str(tmp_path / "runs.db")
    kw = dict(journal=False, cache=False, show_progress=False)
    good = [c for c in CASES if c["id"] in ("exact", "two_in_order")]
    worse = [c for c in CASES if c["id"] in ("wrong_argument", "two_swapped")]
    record = Record(store=store, tags=["agent"])
    base = evaluate_conversations(good, ["tool_call_accuracy", "tool_call_f1"], record=record,
                                  out=tmp_path / "base.json", **kw)
    loaded = RunStore(store).load(record.run)
    assert loaded == EvaluationResult.load(tmp_path / "base.json") and loaded["tool_call_accuracy"] == [1.0, 1.0]
    assert isinstance(loaded.samples[1].sample, ConversationSample) and len(loaded.samples[1].sample.tool_calls) == 2
    assert base.info.recorded_as == record.run
    evaluate_conversations(worse, ["tool_call_accuracy", "tool_call_f1"], record=False, out=tmp_path / "new.json", **kw)
    gate = CliRunner().invoke(app, ["gate", str(tmp_path / "new.json"), "--min", "tool_call_accuracy=0.9"],
                              env={"COLUMNS": "200"})
    assert gate.exit_code == 1 and "tool_call_accuracy" in gate.output
    passed = CliRunner().invoke(app, ["gate", str(tmp_path / "base.json"), "--min", "tool_call_accuracy=0.9"])
    assert passed.exit_code == 0, passed.output
