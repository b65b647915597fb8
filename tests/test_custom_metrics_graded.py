"""Rubric and G-Eval through the OpenAI mock server: hand-written judge replies give
hand-computed scores (the G-Eval level weighted by the reply's log-probabilities), both ride
the sample's bundled call (the G-Eval steps are one call per run), per-sample rubrics
reach the judge, and the local judge says it needs an LLM judge."""

from __future__ import annotations

import json
import math

import pytest

import ragmeter
from ragmeter.judgements.level_probabilities import level_probabilities
from ragmeter.metrics import GEval, InstanceRubrics, Rubric, expected_level, rubric_score
from ragmeter.testing import OpenAIMockServer, scripted_judge
from ragmeter.testing.openai_server import Reply

ROWS = [
    {"question": "Where is Paris?", "answer": "Paris is in France.", "contexts": ["Paris is the capital of France."]},
    {"question": "What is the Seine?", "answer": "The Seine is a river in Paris.", "contexts": ["The Seine flows through Paris."]},
    {"question": "How tall is the tower?", "answer": "It is 330 metres tall.", "contexts": ["The tower is 330 metres tall."]},
]
TONE = Rubric("tone", "Is the tone friendly?", {1: "rude", 2: "curt", 3: "neutral", 4: "warm"})


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


def run(server, rows, metrics, **options):
    options.setdefault("cache", False)
    return ragmeter.evaluate(rows, metrics, judge=f"openai:mock@{server.base_url}",
                             embedder=f"openai:emb@{server.base_url}", journal=False, record=False,
                             show_progress=False, **options)


def chat_calls(server):
    return server.calls("/chat/completions")


def test_formulas_by_hand():
    assert rubric_score(2, 1, 4) == pytest.approx(1 / 3)
    assert rubric_score(7, 0, 10) == pytest.approx(0.7)
    assert expected_level(4, {4: 0.6, 3: 0.3, 5: 0.05}, 1, 5) == pytest.approx(3.55 / 0.95)
    assert expected_level(4, {}, 1, 5) == 4.0  # no log-probabilities: the level as given
    assert expected_level(4, {9: 1.0}, 1, 5) == 4.0  # nothing on the scale


def test_rubric_levels_from_hand_written_replies():
    wide = Rubric("detail", "How detailed is the answer?", {0: "none", 10: "exhaustive"})
    responder = scripted_judge.make_responder(levels={"rubric_tone": 2, "rubric_detail": 7})
    with OpenAIMockServer(chat_responder=responder) as server:
        result = run(server, ROWS[:1], [TONE, wide])
        user = chat_calls(server)[0].json["messages"][-1]["content"]
    score = result.samples[0].scores["tone"]
    assert score.value == pytest.approx(1 / 3)
    assert score.verdicts == {"level": 2, "scale": [1, 4], "reason": "fixed by the test"}
    assert score.reason == "level 2 of 1-4: fixed by the test"
    assert result["detail"] == [pytest.approx(0.7)]
    assert "Criterion: Is the tone friendly?\nScale (an integer from 1 to 4):\n1: rude\n2: curt\n3: neutral\n4: warm" in user


def test_a_level_off_the_scale_is_repaired_once_then_a_typed_error():
    with OpenAIMockServer(chat_responder=scripted_judge.make_responder(levels={"rubric_tone": 9})) as server:
        result = run(server, ROWS[:1], [TONE])
    assert result.samples[0].scores["tone"].error.kind == "JudgeOutputInvalid"
    assert len(chat_calls(server)) == 2  # the reply and its repair


def g_eval_responder(level_token: str, alternatives: list[tuple[str, float]] | None, fail_logprobs: bool = False):
    """The scripted judge, but G-Eval's level is ``level_token`` with the given
    (token, probability) alternatives at its position in the reply."""

    def respond(request):
        if fail_logprobs and request.get("logprobs"):
            return Reply(status=400, body={"error": {"message": "logprobs is not supported by this model"}})
        text = scripted_judge.respond(request)
        if "g_eval_helpful" not in text:
            return text
        reply = json.loads(text)
        reply["g_eval_helpful"] = {"reason": "mostly helpful", "level": int(level_token)}
        content = json.dumps(reply)
        at = content.index('"level": ', content.index('"g_eval_helpful"')) + len('"level": ')
        tokens = None
        if alternatives is not None and request.get("logprobs"):
            tokens = [[content[:at], []], [level_token, [[t, math.log(p)] for t, p in alternatives]],
                      [content[at + len(level_token):], []]]
        return Reply(content=content, logprobs=tokens)

    return respond


def test_g_eval_weighs_the_level_by_its_token_probabilities():
    helpful = GEval("helpful", "Does the answer help the user?")
    alternatives = [("4", 0.6), ("3", 0.3), ("5", 0.05), ("x", 0.05)]
    with OpenAIMockServer(chat_responder=g_eval_responder("4", alternatives)) as server:
        result = run(server, ROWS[:1], [helpful])
        calls = chat_calls(server)
    # sum_k k p(k) / sum_k p(k) = (4*.6 + 3*.3 + 5*.05) / .95 = 71/19; (71/19 - 1) / 4 = 13/19
    score = result.samples[0].scores["helpful"]
    assert score.value == pytest.approx(13 / 19)
    assert score.verdicts["level"] == 4 and score.verdicts["expected_level"] == pytest.approx(71 / 19)
    assert score.reason.startswith("expected level 3.74 of 1-5")
    steps_call, sample_call = calls
    assert "logprobs" not in steps_call.json  # asked for the level only
    assert sample_call.json["logprobs"] is True and sample_call.json["top_logprobs"] == 20
    user = sample_call.json["messages"][-1]["content"]
    assert "Evaluation steps:\n1. Read the answer against: Does the answer help the user?\n2. List where it falls short." in user
    assert helpful.config()["steps"][2] == "Pick the level."


def test_g_eval_without_log_probabilities_uses_the_level():
    helpful = GEval("helpful", "Does the answer help the user?")
    with OpenAIMockServer(chat_responder=g_eval_responder("4", None)) as server:
        result = run(server, ROWS[:1], [helpful])
    assert result["helpful"] == [pytest.approx(0.75)]
    assert result.samples[0].scores["helpful"].reason.startswith("level 4 of 1-5")


def test_a_server_that_rejects_log_probabilities_gets_the_plain_request():
    helpful = GEval("helpful", "Does the answer help the user?", steps=["Check it answers."])
    with OpenAIMockServer(chat_responder=g_eval_responder("2", [("2", 0.5), ("3", 0.5)], fail_logprobs=True)) as server:
        result = run(server, ROWS[:2], [helpful], concurrency=1)
        calls = chat_calls(server)
    assert result["helpful"] == [pytest.approx(0.25), pytest.approx(0.25)]
    # one rejected request, then plain ones: the judge stops asking
    assert [bool(c.json.get("logprobs")) for c in calls] == [True, False, False]


def test_the_level_position_is_found_in_a_bundled_reply():
    content = '{"rubric_tone": {"reason": "r", "level": 2}, "g_eval_helpful": {"reason": "r", "level": 3}}'
    at = content.rindex("3")
    tokens = [[content[:at], []], ["3", [["3", math.log(0.5)], ["2", math.log(0.25)], [" 4", math.log(0.25)]]],
              [content[at + 1:], []]]
    assert level_probabilities(content, tokens, "g_eval_helpful", (1, 5)) == pytest.approx({3: 0.5, 2: 0.25, 4: 0.25})
    assert level_probabilities(content, tokens, "g_eval_other", (1, 5)) == {}


def test_rubric_and_g_eval_add_one_call_per_run_not_per_sample():
    base_metrics = ["faithfulness", "answer_relevancy"]
    helpful = GEval("helpful", "Does the answer help the user?")
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as server:
        run(server, ROWS, base_metrics)
        before = len(chat_calls(server))
        server.reset()
        result = run(server, ROWS, [*base_metrics, TONE, helpful], cache=True)
        after = len(chat_calls(server))
        server.reset()
        run(server, ROWS, [*base_metrics, TONE, helpful], cache=True)
        rerun = len(chat_calls(server))
    assert before == 2 * len(ROWS)  # claims, then their verdicts
    assert after == before + 1  # the G-Eval steps, once for the run; rubric and G-Eval ride the bundles
    assert rerun == 0  # the steps and the bundles come from the cache
    assert result["tone"] == [1.0, 1.0, 1.0] and result["helpful"] == [1.0, 1.0, 1.0]


def test_per_sample_rubrics_reach_the_judge_and_the_run_identity():
    rows = [dict(ROWS[0], rubrics={"score1_description": "wrong city", "score3_description": "right city"}),
            dict(ROWS[1], rubrics={"1": "no river", "2": "a river", "criterion": "Does it name the river?"}),
            dict(ROWS[2])]
    responder = scripted_judge.make_responder(levels={"rubric_instance_rubrics": 2})
    with OpenAIMockServer(chat_responder=responder) as server:
        result = run(server, rows, ["instance_rubrics"], concurrency=1)
        users = [c.json["messages"][-1]["content"] for c in chat_calls(server)]
    assert result["instance_rubrics"][:2] == [pytest.approx(0.5), pytest.approx(1.0)]
    assert result.samples[2].scores["instance_rubrics"].error.kind == "MissingInput"
    assert "Scale (an integer from 1 to 3):\n1: wrong city\n3: right city" in users[0]
    assert "Criterion: Does it name the river?\nScale (an integer from 1 to 2):\n1: no river\n2: a river" in users[1]
    assert len(users) == 2  # the sample without a rubric asks nothing
    metric = InstanceRubrics()
    edited = ragmeter.Sample(**dict(rows[0], rubrics={"1": "x", "2": "y"}))
    assert metric.sample_identity(ragmeter.Sample(**rows[0])) != metric.sample_identity(edited)


def test_the_local_judge_needs_an_llm_judge_and_the_cascade_sends_it_on():
    local = ragmeter.evaluate(ROWS[:1], [TONE, GEval("helpful", "Helpful?")], judge="local", journal=False,
                              record=False, show_progress=False, cache=False)
    assert {s.error.kind for s in local.samples[0].scores.values()} == {"NeedsLLMJudge"}
    with OpenAIMockServer(chat_responder=scripted_judge.make_responder(levels={"rubric_tone": 3})) as server:
        cascade = ragmeter.evaluate(ROWS[:1], [TONE], judge=f"local+openai:mock@{server.base_url}", journal=False,
                                    record=False, show_progress=False, cache=False)
    assert cascade["tone"] == [pytest.approx(2 / 3)]


def test_steps_the_judge_cannot_write_fail_each_sample_and_the_rest_goes_on():
    def no_steps(request):
        if "You write evaluation procedures" in request["messages"][0]["content"]:
            return '{"steps": []}'  # fails validation, and its repair too
        return scripted_judge.respond(request)

    with OpenAIMockServer(chat_responder=no_steps) as server:
        result = run(server, ROWS[:2], [TONE, GEval("helpful", "Helpful?")])
    assert [s.scores["helpful"].error.kind for s in result.samples] == ["JudgeOutputInvalid"] * 2
    assert result["tone"] == [1.0, 1.0]


def test_per_sample_rubrics_from_a_csv_cell_and_malformed_ones(tmp_path):
    import csv

    path = tmp_path / "data.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, ["question", "answer", "rubrics"])
        writer.writeheader()
        writer.writerow({"question": "Where is Paris?", "answer": "In France.",
                         "rubrics": json.dumps({"criterion": "Names the country?", "1": "no", "2": "yes"})})
        writer.writerow({"question": "Where is Rome?", "answer": "In Italy.", "rubrics": "{not json"})
        writer.writerow({"question": "Where is Oslo?", "answer": "In Norway.", "rubrics": json.dumps({"1": "only one"})})
    responder = scripted_judge.make_responder(levels={"rubric_instance_rubrics": 2})
    with OpenAIMockServer(chat_responder=responder) as server:
        result = run(server, str(path), ["instance_rubrics"], concurrency=1)
        users = [c.json["messages"][-1]["content"] for c in chat_calls(server)]
    scores = [s.scores["instance_rubrics"] for s in sorted(result.samples, key=lambda s: s.row)]
    assert scores[0].value == 1.0
    assert "Criterion: Names the country?\nScale (an integer from 1 to 2):\n1: no\n2: yes" in users[0]
    assert scores[1].error.kind == "InvalidInput" and "field 'rubrics' is not a JSON object" in scores[1].reason
    assert scores[2].error.kind == "InvalidInput" and "field 'rubrics': a scale needs at least two levels" in scores[2].reason
    assert len(users) == 1
