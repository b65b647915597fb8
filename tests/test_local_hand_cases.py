"""Hand cases of the local judge's faithfulness, each with its mirror: a role given to the
wrong person of the same passage (``roles`` title frames), a comparison the passages' years
decide (``comparisons``, the other band named only by the question: ``claims``), a figure
restated with a hedge and another unit (``quantities``), a denial that is a claim and is
decided by its passage. Exact outcomes through ``evaluate``, and the verifier's own reading
where the mechanism lives."""

from __future__ import annotations

import pytest

from ragmeter import evaluate
from ragmeter.judges.local.claims import extract_claims
from ragmeter.judges.local.comparisons import comparison
from ragmeter.judges.local.roles import AGREES, CONFLICTS, UNKNOWN, frames, role_agreement
from ragmeter.judges.local.verifier import AlignmentVerifier
from ragmeter.text import syntax

FOOD = ("FoodFutureCo was founded in 2015 by Shen Tong. Its Managing Director is Priya Raman, "
        "who joined in 2019.")
FOUNDED = "FoodFutureCo was founded in 2015 by Shen Tong."
BANDS_Q = "Which band was formed earlier, Hinder or Alice in Chains?"
BANDS = ["Hinder is an American rock band formed in 2001 in Oklahoma City.",
         "Alice in Chains is an American rock band formed in Seattle in 1987."]
FILTER = "Replace the filter every ten to fourteen days."
HOAX = ("Police confirmed that no shots were fired at the festival; reports of a shooting "
        "were a hoax.")
SHOOTING = "Two people were injured in a mass shooting at the festival on Saturday."
NO_SHOOTING = "There was no mass shooting at the festival."

CASES = [
    # (question, contexts, answer, faithfulness)
    ("Who is the Managing Director of FoodFutureCo?", [FOOD],
     "The Managing Director of FoodFutureCo is Shen Tong.", 0.0),
    ("Who is the Managing Director of FoodFutureCo?", [FOOD],
     "The Managing Director of FoodFutureCo is Priya Raman.", 1.0),
    ("Who founded FoodFutureCo?", [FOOD], "Shen Tong founded FoodFutureCo.", 1.0),
    ("Who is the Managing Director of FoodFutureCo?", [FOUNDED],
     "The Managing Director of FoodFutureCo is Shen Tong.", 0.0),
    (BANDS_Q, BANDS, "Hinder was formed earlier.", 0.0),
    (BANDS_Q, BANDS, "Alice in Chains was formed earlier.", 1.0),
    (BANDS_Q, BANDS, "Hinder was formed first.", 0.0),
    (BANDS_Q, BANDS, "Alice in Chains was formed first.", 1.0),
    (BANDS_Q, BANDS[:1], "Alice in Chains was formed earlier.", 0.0),
    ("How often should the filter be replaced?", [FILTER],
     "The filter should be replaced about every two weeks.", 1.0),
    ("How often should the filter be replaced?", [FILTER],
     "The filter should be replaced about every two months.", 0.0),
    ("Was there a mass shooting at the festival?", [HOAX], NO_SHOOTING, 1.0),
    ("Was there a mass shooting at the festival?", [SHOOTING], NO_SHOOTING, 0.0),
]


def _run(cases):
    records = [{"question": q, "contexts": c, "answer": a} for q, c, a, _ in cases]
    return evaluate(records, ["faithfulness"], judge="local", cache=False, journal=False,
                    show_progress=False)


@pytest.fixture(scope="module")
def result(minilm):
    return _run(CASES)


@pytest.mark.parametrize("n", range(len(CASES)), ids=[c[2] + f" [{i}]" for i, c in enumerate(CASES)])
def test_faithfulness_of_each_case_and_its_mirror(result, n):
    score = result.samples[n].scores["faithfulness"]
    assert score.error is None, score.error
    assert score.value == CASES[n][3], score.verdicts


def test_two_runs_give_identical_scores(result):
    again = _run(CASES)
    first = [(s.scores["faithfulness"].value, s.scores["faithfulness"].verdicts)
             for s in result.samples]
    second = [(s.scores["faithfulness"].value, s.scores["faithfulness"].verdicts)
              for s in again.samples]
    assert first == second


def _frames(text: str):
    [doc] = syntax.parse([text], entities=False)
    return frames(doc)


@pytest.mark.parametrize("claim, premise, verdict", [
    ("The Managing Director of FoodFutureCo is Shen Tong.", FOOD, CONFLICTS),
    ("The Managing Director of FoodFutureCo is Priya Raman.", FOOD, AGREES),
    ("The Managing Director of FoodFutureCo is Shen Tong.", FOUNDED, CONFLICTS),
    ("Shen Tong is the founder of FoodFutureCo.", FOOD, AGREES),
    ("Priya Raman is the founder of FoodFutureCo.", FOOD, CONFLICTS),
    ("Priya Raman, the Managing Director of FoodFutureCo, joined in 2019.", FOOD, AGREES),
    ("Shen Tong serves as managing director of FoodFutureCo.",
     "Managing Director Priya Raman joined FoodFutureCo in 2019. Shen Tong founded it.", CONFLICTS),
    ("Priya Raman serves as managing director of FoodFutureCo.",
     "Managing Director Priya Raman joined FoodFutureCo in 2019. Shen Tong founded it.", AGREES),
    # a class, not an office: no title frame
    ("Shen Tong is an entrepreneur.", FOOD, UNKNOWN),
    # the title worded otherwise by the passage is not held against the claim
    ("Ella Fitzgerald was known as the First Lady of Song.",
     "Ella Fitzgerald, often called the First Lady of Song, was born in 1917.", UNKNOWN),
])
def test_a_title_is_supported_only_where_the_premise_ties_it_to_its_holder(claim, premise, verdict):
    words = {w.lower().strip(".,") for w in premise.split()}
    assert role_agreement(_frames(claim), _frames(premise), words) == verdict


def test_the_question_names_the_other_compared_thing():
    assert extract_claims(["Hinder was formed earlier.", "Alice in Chains was formed first.",
                           "The Nile is longer."],
                          [BANDS_Q, BANDS_Q, "Which river is longer, the Nile or the Amazon?"]) == [
        ["Hinder was formed earlier than Alice in Chains."],
        ["Alice in Chains was formed first, before Hinder."],
        ["The Nile is longer than the Amazon."]]
    # no alternatives in the question, or the other already named: the claim as written
    assert extract_claims(["Hinder was formed earlier."], ["When was Hinder formed?"]) == [
        ["Hinder was formed earlier."]]
    assert extract_claims(["Alice in Chains was formed earlier than Hinder."], [BANDS_Q]) == [
        ["Alice in Chains was formed earlier than Hinder."]]


@pytest.mark.parametrize("claim, sentences, holds", [
    ("Hinder was formed earlier than Alice in Chains.", BANDS, 0.0),
    ("Alice in Chains was formed earlier than Hinder.", BANDS, 1.0),
    ("Hinder was formed later than Alice in Chains.", BANDS, 1.0),
    ("Alice in Chains was formed first, before Hinder.", BANDS, 1.0),
    ("Alice in Chains was formed earlier than Nirvana.", BANDS, 0.0),  # no year for Nirvana
    ("The Nile is longer than the Amazon.",
     ["The Amazon is about 6,400 km long.", "The Nile is 6,650 km long."], 1.0),
    ("The Amazon is longer than the Nile.",
     ["The Amazon is about 6,400 km long.", "The Nile is 6,650 km long."], 0.0),
    # stated in words by one sentence: for the other signals
    ("The Nile is longer than the Amazon.", ["The Nile is longer than the Amazon."], None),
    # no two names compared
    ("Manchester United have won more titles than any other club.", BANDS, None),
    ("Hinder is a rock band.", BANDS, None),
])
def test_a_comparison_is_decided_by_the_figures_of_each(claim, sentences, holds):
    assert comparison(claim, sentences) == holds


@pytest.fixture(scope="module")
def verifier(minilm):
    return AlignmentVerifier()


@pytest.mark.parametrize("premise, claim, supported", [
    (FILTER, "The filter should be replaced about every two weeks.", True),
    (FILTER, "The filter should be replaced roughly every two weeks.", True),
    (FILTER, "The filter should be replaced every 12 days.", True),
    (FILTER, "The filter should be replaced about every two months.", False),
    (FILTER, "The filter should be replaced every 3 weeks.", False),
    (HOAX, NO_SHOOTING, True),
    (SHOOTING, NO_SHOOTING, False),
])
def test_restated_figures_and_denials_through_the_verifier(verifier, premise, claim, supported):
    assert (verifier.support([(premise, claim)])[0] >= 0.5) is supported


def test_a_denial_is_a_claim_and_a_refusal_is_not():
    assert extract_claims([NO_SHOOTING, "I don't know.", "I cannot answer that."],
                          ["Was there a mass shooting at the festival?"] * 3) == [
        [NO_SHOOTING], [], []]
