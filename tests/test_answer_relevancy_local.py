"""Local answer relevancy (no generation): the complete, on-point answer ranks above an
incomplete, evasive, off-point or padded one for the same question, also when the poorer
answer is longer; an evasive answer that only fills with generic words is noncommittal."""

from __future__ import annotations

import pytest

from ragmeter import evaluate
from ragmeter.judges.local.hedges import noncommittal

# question, complete answer, poorer answers (each longer than the complete one)
CASES = [
    ("When did the Apollo 11 mission land on the Moon?",
     "Apollo 11 landed on the Moon on 20 July 1969.",
     ["Apollo 11 was one of the most famous missions in the history of space exploration, carrying "
      "Neil Armstrong, Buzz Aldrin and Michael Collins, and millions watched it on television.",
      "Landing dates are recorded in many places, so it is hard to say which one you mean."]),
    ("What is the capital of Kenya and what currency does it use?",
     "The capital of Kenya is Nairobi, and the country uses the Kenyan shilling.",
     ["The capital of Kenya is Nairobi, a large and fast-growing city in East Africa that hosts many "
      "international organisations."]),
    ("Where do kangaroos live?",
     "Kangaroos live in Australia.",
     ["Kangaroos carry their young in a pouch and can hop at speeds of over 50 kilometres an hour."]),
]


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


def test_complete_answer_ranks_above_every_poorer_one(minilm):
    records = [{"question": q, "answer": a} for q, good, poor in CASES for a in (good, *poor)]
    result = evaluate(records, ["answer_relevancy"], judge="local", show_progress=False, journal=False)
    scores = [s.scores["answer_relevancy"].value for s in result.samples]
    k = 0
    for question, good, poor in CASES:
        complete, poorer = scores[k], scores[k + 1 : k + 1 + len(poor)]
        k += 1 + len(poor)
        assert all(complete > p for p in poorer), (question, complete, poorer)
        assert all(len(p) > len(good) for p in poor)
    # the evasive Apollo answer ranks below the padded one too: it covers no part of the
    # question and carries a hedge ("hard to say"), though "recorded in many places" keeps
    # it from being called noncommittal outright
    padded, evasive = (result.samples[i].scores["answer_relevancy"] for i in (1, 2))
    assert evasive.value < padded.value and evasive.reason.startswith("the answer covers 0 of 1 parts")


def test_generic_filler_beside_a_hedge_is_not_content():
    answers = [
        "Everyone learns differently, so it is hard to say what the best way is; it depends on you.",
        "There are many programming languages and each has its strengths and weaknesses, so the choice is really up to you.",
        "It depends on your budget, but Python is the easiest first language.",
        "Python is a good first language.",
    ]
    questions = ["What is the best way to learn a new language?"] + ["Which programming language should I learn first?"] * 3
    assert noncommittal(answers, questions) == [0.85, 0.85, 0.1, 0.02]
