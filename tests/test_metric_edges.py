"""Metric edge cases (issue 15, items 9-12): blank generated questions, empty id lists, an
empty retrieval, an app that failed, punctuation. Each asserts the exact score or error."""

from __future__ import annotations

import json

import pytest

from ragmeter import evaluate
from ragmeter.testing import scripted_judge
from ragmeter.testing.openai_server import OpenAIMockServer

SECRET = "sk-test-edges-SECRET-5"


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def server():
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as srv:
        yield srv


def run(server, records, metrics, **options):
    return evaluate(records, metrics, judge=f"openai:mock-judge@{server.base_url}",
                    embedder=f"openai:mock-embed@{server.base_url}", show_progress=False, journal=False,
                    judge_options={"timeout": 2.0}, **options)


def scores(result, metric):
    return [s.scores[metric] for s in result.samples]


# --- 9. blank generated questions are a validation failure ---------------------------------


def with_questions(questions):
    def respond(request):
        reply = json.loads(scripted_judge.respond(request))
        if "answer_questions" in reply:
            reply["answer_questions"]["questions"] = questions
        return json.dumps(reply)
    return respond


FRANCE = {"question": "Where is France?", "answer": "France is in Western Europe."}


@pytest.mark.parametrize("questions", [["", "", ""], [" ", "Where is France?", ""]])
def test_blank_generated_questions_are_repaired_then_invalid(server, questions):
    server.chat_responder = with_questions(questions)
    (score,) = scores(run(server, [FRANCE], ["answer_relevancy"]), "answer_relevancy")
    assert score.value is None and score.error.kind == "JudgeOutputInvalid"
    asked = [r.json["messages"] for r in server.calls("/chat/completions")]
    assert len(asked) == 2 and "blank" in asked[1][-1]["content"]  # the re-ask said what was wrong


def test_blank_questions_repaired_by_the_re_ask_are_scored(server):
    first = True

    def respond(request):
        nonlocal first
        if first:
            first = False
            return with_questions(["", "", ""])(request)
        return scripted_judge.respond(request)

    server.chat_responder = respond
    (score,) = scores(run(server, [FRANCE], ["answer_relevancy"]), "answer_relevancy")
    assert score.error is None and score.value > 0


# --- 10. a present, empty id list is data ---------------------------------------------------


def test_empty_retrieved_ids_score_zero_and_count_in_the_mean():
    records = [
        {"question": "q", "retrieved_context_ids": ["a"], "reference_context_ids": ["a"]},
        {"question": "q", "retrieved_context_ids": [], "reference_context_ids": ["b"]},
    ]
    result = evaluate(records, ["id_context_recall", "id_context_precision"], show_progress=False, journal=False)
    recall, precision = scores(result, "id_context_recall"), scores(result, "id_context_precision")
    assert [s.value for s in recall] == [1.0, 0.0] and [s.value for s in precision] == [1.0, 0.0]
    assert "nothing was retrieved" in recall[1].reason and "nothing was retrieved" in precision[1].reason
    assert result.summary()["id_context_recall"].mean == 0.5


def test_empty_reference_ids_leave_recall_undefined_and_precision_zero():
    records = [{"question": "q", "retrieved_context_ids": ["a"], "reference_context_ids": []}]
    result = evaluate(records, ["id_context_recall", "id_context_precision"], show_progress=False, journal=False)
    (recall,), (precision,) = scores(result, "id_context_recall"), scores(result, "id_context_precision")
    assert recall.value is None and recall.error.kind == "MissingInput"
    assert precision.value == 0.0


def test_absent_id_lists_stay_missing_input():
    result = evaluate([{"question": "q", "reference_context_ids": ["b"]}], ["id_context_recall"],
                      show_progress=False, journal=False)
    (recall,) = scores(result, "id_context_recall")
    assert recall.value is None and recall.error.kind == "MissingInput"


# --- 11. an empty retrieval scores 0; an app that failed is named --------------------------


RETRIEVAL = ["context_recall", "context_precision", "context_entity_recall"]


def test_a_present_empty_retrieval_scores_zero_without_asking_the_judge(server):
    record = {"question": "What is the capital of France?", "answer": "Paris.", "contexts": [],
              "ground_truth": "The capital of France is Paris."}
    result = run(server, [record], RETRIEVAL)
    for metric in RETRIEVAL:
        (score,) = scores(result, metric)
        assert score.value == 0.0 and "nothing was retrieved" in score.reason, (metric, score)
    assert server.calls("/chat/completions") == []


def test_an_absent_retrieval_stays_missing_input(server):
    record = {"question": "What is the capital of France?", "answer": "Paris.",
              "ground_truth": "The capital of France is Paris."}
    assert RETRIEVAL
    for metric in RETRIEVAL:
        (score,) = scores(run(server, [record], [metric]), metric)
        assert score.value is None and score.error.kind == "MissingInput", metric


def test_a_row_whose_app_failed_names_the_apps_failure(server):
    record = {"question": "What is the capital of France?", "ground_truth": "Paris.",
              "metadata": {"app_error": "TimeoutError: the app took longer than 30 s"}}
    metrics = ["faithfulness", "answer_relevancy", "context_recall", "answer_correctness", "token_f1"]
    result = run(server, [record], metrics)
    errors = {s.error.kind for s in result.samples[0].scores.values()}
    assert errors == {"AppFailed"}
    for score in result.samples[0].scores.values():
        assert "TimeoutError: the app took longer than 30 s" in score.error.message


# --- 12. punctuation: one normaliser for every judge-free metric ---------------------------


@pytest.mark.parametrize(
    "answer,truth",
    [("U.S.", "US"), ("e-mail", "email"), ("O'Brien", "OBrien"), ("1,631", "1631"),
     ("The U.S. sent an e-mail to O'Brien about 1,631 votes.", "the US sent an email to OBrien about 1631 votes")],
)
def test_punctuated_and_plain_forms_match_in_every_judge_free_metric(answer, truth):
    metrics = ["exact_match", "token_f1", "bleu", "rouge_l", "string_similarity"]
    result = evaluate([{"question": "q", "answer": answer, "ground_truth": truth}], metrics,
                      show_progress=False, journal=False)
    assert {m: s.value for m, s in result.samples[0].scores.items()} == {m: 1.0 for m in metrics}
