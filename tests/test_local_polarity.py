"""Negation read from the dependency parse (``ragmeter.judges.local.polarity``), on hand-written
pairs: a faithful restatement that shares words with a denial keeps support; a claim that
denies what its evidence asserts (or asserts what it denies) loses it."""

from __future__ import annotations

import pytest

from ragmeter.text import syntax
from ragmeter.judges.local.polarity import denied, polarity_conflict
from ragmeter.judges.local.verifier import AlignmentVerifier


def _denied_words(text: str) -> list[str]:
    [doc] = syntax.parse([text], entities=False)
    return sorted(doc[i].lower_ for i in denied(doc))


def _conflict(claim: str, evidence: str) -> bool:
    claim_doc, evidence_doc = syntax.parse([claim, evidence], entities=False)
    return polarity_conflict(claim_doc, evidence_doc)


@pytest.mark.parametrize("text, words", [
    ("Do not take the tablets with milk.", ["take"]),                  # the verb, not its object
    ("The lake has no outlet.", ["outlet"]),                           # what "no" denies
    ("No ticket is needed for children.", ["needed", "ticket"]),       # "no" on the subject
    ("The airline owes nothing in that case.", ["owes"]),
    ("The guests are not allowed into the kitchen.", ["allowed"]),     # past the auxiliary
    ("Prices did not become cheaper or faster.", ["become", "cheaper", "faster"]),
    ("Swallow it whole rather than chewing it.", ["chewing"]),
    ("She left without telling anyone.", ["telling"]),
    # a bound, a requirement and a superlative deny nothing
    ("Never take more than three tablets in a day.", []),
    ("Do not take it for longer than 14 days without asking a doctor.", []),
    ("No river in Europe is longer.", []),
])
def test_what_a_cue_denies(text, words):
    assert _denied_words(text) == words


@pytest.mark.parametrize("claim, evidence", [
    # the claim denies another predicate about a shared argument
    ("Don't store the bread in the fridge, because the cold makes it stale.",
     "Bread goes stale much faster in the refrigerator."),
    # the same verb about other things
    ("Prices do not include VAT.", "The price includes delivery to your door."),
    # a denial said only under a condition
    ("If you have no receipt, the shop can give you store credit.",
     "The shop gives a receipt with every purchase."),
    # the evidence's denial said positively, with another verb
    ("Keep the cream away from your eyes.", "Do not apply the cream near the eyes."),
    # a bound
    ("Never take more than three tablets in a day.",
     "Take two tablets, then one more tablet six hours later."),
    # "not have to" denies the obligation, not the act
    ("You don't have to register again for each election.",
     "You must register again if you move house."),
])
def test_a_faithful_restatement_is_no_conflict(claim, evidence):
    assert _conflict(claim, evidence) is False


@pytest.mark.parametrize("claim, evidence", [
    ("The museum does not open on Sundays.", "The museum opens on Sundays from 10 am."),
    ("The lake drains through an outlet to the sea.", "The lake has no outlet."),
    # another verb for the same statement about the same things
    ("The guild never controlled trade on the river.",
     "The guild dominated trade on the river for two centuries."),
    ("Don't let the dough rest before baking.", "Let the dough rest for an hour before baking."),
    # a denied complement, compared by its subject
    ("Lubeck was not the chief city of the League.",
     "Lubeck, founded in 1143, served as the League's leading city."),
    # not needed, against an instruction to do it
    ("You don't need to run a rinse cycle afterwards.",
     "Rinse the tank and then run a rinse cycle before making coffee."),
])
def test_a_denial_of_what_the_evidence_asserts_conflicts(claim, evidence):
    assert _conflict(claim, evidence) is True


@pytest.fixture(scope="module")
def verifier(minilm):
    return AlignmentVerifier()


def test_the_verifier_keeps_restatements_and_breaks_denials(verifier):
    premise = ("Fresh basil is sensitive to cold and its leaves turn black in the refrigerator. "
               "Store it at room temperature in a glass of water.\n"
               "The museum opens on Sundays from 10 am to 4 pm.")
    kept = ["Don't put basil in the fridge, because the cold blackens its leaves.",
            "Basil is best kept at room temperature in a glass of water."]
    broken = ["The museum does not open on Sundays.",
              "Basil does not turn black in the refrigerator."]
    alignments = verifier.align([(premise, c) for c in kept + broken])
    assert [a.negation for a in alignments] == [1.0, 1.0, 0.0, 0.0]
