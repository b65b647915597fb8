"""The bench's separate rubric checker (bench/check_testset.py): word forms and whole words.

Each record below is one the checker failed although it is right (seed 53 of the docs
folder), with a variant that must still fail.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def check():
    spec = importlib.util.spec_from_file_location("check_testset", ROOT / "bench" / "check_testset.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_testset"] = module
    spec.loader.exec_module(module)
    return module.check


def _record(question: str, ground_truth: str, context: str, answer: str, kind: str = "simple",
            **meta) -> dict:
    return {"question": question, "ground_truth": ground_truth, "reference_contexts": [context],
            "reference_context_ids": ["c1"], "evolution_type": kind,
            "metadata": {"answer": answer, **meta}}


def test_a_base_form_in_the_question_matches_the_inflected_context(check):
    context = "FastAPI stands on the shoulders of giants. FastAPI depends on Pydantic and Starlette."
    assert check(_record("What does FastAPI depend on?", "FastAPI depends on Pydantic and Starlette.",
                         context, "Pydantic and Starlette")) == []
    assert check(_record("Which Python version does Rich require?", "Rich requires Python 3.8 or later.",
                         "Rich requires Python 3.8 or later.", "3.8 or later")) == []
    # words the contexts do not write in any form still fail
    assert check(_record("What does FastAPI borrow from Django templates?",
                         "FastAPI depends on Pydantic and Starlette.", context,
                         "Pydantic and Starlette")) == ["answerable"]


def test_the_answer_is_looked_for_as_whole_words(check):
    sentence = "The LangSmith SDK is licensed under the MIT License."
    assert check(_record("Which license does the LangSmith Client SDK use?", sentence, sentence,
                         "MIT")) == []
    assert check(_record("Which MIT license does the LangSmith Client SDK use?", sentence, sentence,
                         "MIT")) == ["no_giveaway"]


def test_documentation_reasoning_is_checked_from_its_text(check):
    sentence = "Rich requires Python 3.8 or later."
    no = _record("Can you use Rich with Python 3.7?", "No. " + sentence, sentence, "No", "reasoning",
                 template="doc:python_support")
    assert check(no) == []
    wrong = _record("Can you use Rich with Python 3.9?", "No. " + sentence, sentence, "No", "reasoning",
                    template="doc:python_support")
    assert check(wrong) == ["type"]
    cause = "The context manager is required so that the response will reliably be closed."
    why = _record("Why is the context manager required in the OpenAI Python API library?", cause,
                  "The OpenAI library is fast. " + cause, "so that the response will reliably be closed",
                  "reasoning", template="doc:cause")
    assert check(why) == []
    told = _record("Why is the context manager required so that the response is closed?", cause, cause,
                   "so that the response will reliably be closed", "reasoning", template="doc:cause")
    assert "type" in check(told)


def test_a_statement_without_the_contexts_bracketed_aside_is_stated(check):
    context = "The Lancashire Heeler is listed by the Kennel Club (UK) as a vulnerable breed."
    gt = "The Lancashire Heeler is listed by the Kennel Club as a vulnerable breed."
    assert check(_record("Who lists the Lancashire Heeler as a vulnerable breed?", gt, context,
                         "the Kennel Club")) == []
    assert check(_record("Who lists the Lancashire Heeler as a vulnerable breed?",
                         "The Lancashire Heeler is listed by the Kennel Club as a rare breed.",
                         context, "the Kennel Club")) == ["answerable"]


def test_the_oldest_python_two_pages_work_with_is_recomputed(check):
    idna, rich = "This library supports Python 3.9 and higher.", "Rich requires Python 3.8 or later."
    question = "What is the oldest Python version that works with both IDNA and Rich?"

    def record(ground_truth: str) -> dict:
        return {"question": question, "ground_truth": ground_truth,
                "reference_contexts": ["IDNA is strict. " + idna, "Rich is fast. " + rich],
                "reference_context_ids": ["c1", "c2"], "evolution_type": "multi_context",
                "metadata": {"answer": ground_truth.split(". ")[0], "template": "doc:oldest_python"}}

    assert check(record(f"Python 3.9. {idna} {rich}")) == []
    assert check(record(f"Python 3.8. {idna} {rich}")) == ["type"]


def test_a_cause_before_so_is_checked_from_its_text(check):
    sentence = "The bins are the same in every report, so two reports can be compared by eye."
    why = _record("Why can two reports be compared by eye in ragmeter?", sentence,
                  "Charts are binned. " + sentence, "The bins are the same in every report",
                  "reasoning", template="doc:consequence")
    assert check(why) == []
    effect = _record("Why can two reports be compared by eye in ragmeter?", sentence, sentence,
                     "two reports can be compared by eye", "reasoning", template="doc:consequence")
    assert "type" in check(effect)
