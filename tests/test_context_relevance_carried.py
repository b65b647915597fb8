"""The local context_relevance, seventh round: what a chunk says of a subject it never names,
and what a same-topic chunk's answer-like words are not. Exact behaviour of each rule on
hand-written sentences, then on hand-written pairs (none of them from the bench sets):

* a reference the chunk gives nothing to stand for ("the river", "of them", "its") carries
  the question's unspelled names, where the chunk holds an answer of the expected kind;
* a count is of what was asked, said otherwise ("130 vessels" for ships), never a year;
* "who V" is answered by the one who does V, not a name beside it;
* "from" and "by" give a cause only after a verb of origin, "by" after a passive or with a
  gerund; ", so" explains what it is followed by;
* a rare adjective of the focus is a property, which a passage may say in other words.
"""

from __future__ import annotations

import pytest

from ragmeter.text import nlp
from ragmeter.judges.local.chunk_relevance import (ChunkRelevanceScorer, dangling, does_it, explanations, holds_answer,
                                            measured)
from ragmeter.judges.local.question_focus import question_focus


def _sentence(text):
    return nlp.analyse([text])[0].sentences[0]


@pytest.mark.parametrize(("text", "pronoun", "descriptions"), [
    # no noun of its number before it: the pronoun stands for what came before the cut
    ("Each cell of the body carries 46 of them, in 23 pairs.", True, ("body",)),
    ("You'll find it under the battery cover.", True, ("cover",)),  # the head ends the compound
    ("From its source in the Alps, the river flows north.", True, ("river",)),
    # a noun of the same number comes first: the pronoun may stand for it
    ("Soak the beans overnight and rinse them well.", False, ("beans",)),
    ("Stir the milk and leave it for ten minutes.", False, ("milk",)),
    # "the N of ..." says which one; a noun already used is not a first mention
    ("The capital of the province lies on the coast.", False, ("province", "coast")),
    ("A ferry crosses the strait every hour, and the ferry carries cars.", False, ("strait",)),
])
def test_a_dangling_reference_is_a_pronoun_or_a_first_definite_description(text, pronoun, descriptions):
    refs = dangling(_sentence(text))
    assert refs.pronoun is pronoun
    assert refs.descriptions == descriptions


@pytest.mark.parametrize(("measure", "text", "counted", "gives"), [
    ("ships", "The fleet numbered about 130 vessels and 8,000 sailors.", frozenset({"vessels"}), True),
    ("ships", "The fleet numbered about 130 vessels and 8,000 sailors.", frozenset(), False),
    ("ships", "In 1588 when English fireships scattered it, the fleet broke up.", frozenset(), False),  # a year
    ("moons", "Astronomers know of 95 of them so far.", frozenset(), True),  # a count of the thing referred to
    ("chromosomes", "Each cell carries 23 pairs of chromosomes.", frozenset(), True),
])
def test_a_count_is_of_the_thing_asked_said_otherwise_or_referred_to_never_a_year(measure, text, counted, gives):
    assert measured(measure, text, counted) is gives


PERSON = ("PERSON", "ORG", "NORP")


def test_who_is_answered_by_the_one_who_does_it_not_a_name_beside_it():
    focus = ("founded", "body", "shop")
    assert does_it("founded", _sentence("Anita Roddick founded the Body Shop in Brighton in 1976."), PERSON, focus)
    # a passive agent after "by", the predicate said otherwise ("opened" for "founded")
    assert does_it("founded", _sentence("The chain was opened in 1976 by Anita Roddick."), PERSON, focus,
                   frozenset({"opened"}))
    # a person in another role: the subject of another verb, far from "founded"
    assert not does_it("founded", _sentence("The Body Shop was founded in 1976, and later Elton John opened "
                                            "its flagship store."), PERSON, focus)


@pytest.mark.parametrize(("sentence", "explains"), [
    ("Most charging faults come from the cable or the plug.", True),  # a verb of origin
    ("The tremor was brought on by a sudden drop in pressure.", True),
    ("By cutting the number of shares, a buyback lifts earnings per share.", True),  # a means
    ("Lakes freeze from the top down.", False),
    ("The buyback is then put to shareholders by the board.", False),  # "by" after a noun: who, not why
    ("The light turns from amber to green.", False),
])
def test_from_and_by_explain_only_after_a_verb_of_origin_a_passive_or_with_a_gerund(sentence, explains):
    asks = question_focus("Why does it happen?")
    steps = explanations([sentence], asks.focus)
    assert (sentence in steps) is explains
    assert holds_answer(asks, _sentence(sentence), asks.focus, steps) is explains


@pytest.fixture(scope="module")
def scorer(minilm):
    return ChunkRelevanceScorer()


@pytest.mark.parametrize(("question", "answer", "topical", "carried"), [
    # "the river" (a first definite description, close to "Danube" in MiniLM's context) carries the name
    ("How long is the Danube?",
     "Rising in the Black Forest, the river flows some 2,850 km before it reaches the Black Sea.",
     "The Danube passes through Vienna, Budapest and Belgrade, and its delta in Romania is a haven for "
     "pelicans and other birds.",
     ("danube",)),
    # "of them", with no plural noun before it, carries "moons"
    ("How many moons does Jupiter have?",
     "95 of them have been confirmed so far, the four largest found by Galileo in 1610.",
     "Jupiter's moons are named after lovers and favourites of Zeus, and its largest moon, Ganymede, is "
     "bigger than the planet Mercury.",
     ("moons", "jupiter")),
])
def test_a_chunk_carrying_the_subject_by_a_reference_beats_the_one_naming_it_without_an_answer(
        scorer, question, answer, topical, carried):
    good, bad = scorer.relevance(question, [answer, topical])
    assert good.relevance > bad.relevance, (good.reason, bad.reason)
    assert set(good.signals.unnamed) == set(carried)
    assert "its opening refers to a topic it does not name" in good.reason
    assert not bad.signals.answer_type


def test_a_description_far_from_the_name_carries_nothing(scorer):
    # "the morning" is no name for the Danube: the chunk keeps its own, missing, subject
    (chunk,) = scorer.relevance("How long is the Danube?", ["In the morning the boats sail about 40 km."])
    assert chunk.signals.unnamed == ()
    assert chunk.relevance < 0.05


def test_who_founded_prefers_the_founder_to_the_place_it_was_founded(scorer):
    good, bad = scorer.relevance("Who founded Patagonia?", [
        "The outdoor clothing company was started in 1973 by Yvon Chouinard, a climber who had been "
        "making pitons for his friends.",
        "Patagonia was founded in Ventura, California, and Bill Gates later praised it as a model of "
        "a business run for the planet.",
    ])
    assert good.relevance > bad.relevance, (good.reason, bad.reason)
    assert bad.signals.unsaid == "founded" and not bad.signals.answer_type


def test_a_rare_adjective_of_the_focus_may_be_said_otherwise(scorer):
    good, bad = scorer.relevance("How long is someone with chickenpox contagious?", [
        "Chickenpox stays infectious until every blister has crusted over, usually about five days after the "
        "rash appears.",
        "Chickenpox is contagious and spreads through coughs and sneezes; a vaccine is offered to children "
        "at higher risk.",
    ])
    assert good.relevance > bad.relevance, (good.reason, bad.reason)
    # "infectious" says "contagious": credited by meaning (a name would have to be spelled)
    assert good.signals.presence > good.signals.spelled


@pytest.mark.parametrize(("question", "subject"), [
    ("Who founded Patagonia?", True),
    ("who decides the verdict in a jury trial", True),
    ("Who was the first woman to win a Nobel Prize?", False),  # who *was* that: the copula's subject
    ("Who did Henry VIII marry first?", False),  # "who" is the object
])
def test_the_agent_rule_holds_where_who_is_the_subject_of_the_predicate(question, subject):
    from ragmeter.judges.local.chunk_relevance import asks_who_did

    assert asks_who_did(question, question_focus(question).predicate) is subject


@pytest.mark.parametrize(("question", "sentence", "explains"), [
    # ", so" explains what follows it: the sky's colour, said after it
    ("Why is the sky blue?", "Air scatters short wavelengths most, so blue light reaches us from all over the sky.",
     True),
    # the focus is the cause here, not the effect: it does not say why ice floats
    ("Why does ice float on water?", "Floating ice insulates the water below, so lakes freeze from the top down.",
     False),
    ("Why is the sky blue?", "Sunlight is scattered by the molecules of the air.", True),  # a passive's agent
])
def test_so_and_a_passive_agent_explain_the_question_when_it_is_the_effect(question, sentence, explains):
    asks = question_focus(question)
    assert (sentence in explanations([sentence], asks.focus, asks.predicate)) is explains


@pytest.mark.parametrize(("sentence", "gives"), [
    ("You'll find it on a sticker inside the lid.", True),
    ("The reset button is on the back, next to the power socket.", True),
    ("The gland sits behind the breastbone.", True),
    ("The model was launched last spring with a bigger screen.", False),
])
def test_where_is_answered_by_a_position_on_or_in_a_thing(sentence, gives):
    asks = question_focus("Where is the reset button on the Lumo K2 router?")
    assert holds_answer(asks, _sentence(sentence), asks.focus) is gives


def test_a_chunk_saying_where_the_part_is_beats_the_one_that_names_it_for_another_purpose(scorer):
    good, bad = scorer.relevance("Where is the reset button on the Lumo K2 router?", [
        "You'll find it in a small hole underneath, beside the rubber feet; press it with a paper clip.",
        "The Lumo K2 router's reset button restores the factory settings, so note your Wi-Fi password and "
        "admin login before you use it.",
    ])
    assert good.relevance > bad.relevance, (good.reason, bad.reason)
    assert good.signals.answer_type and not bad.signals.answer_type


def test_a_position_answers_only_a_where_question_that_places_its_subject_on_or_in_a_thing():
    asks = question_focus("Where is the Hagia Sophia?")
    sentence = _sentence("The church was built under the emperor Justinian.")
    assert not holds_answer(asks, sentence, asks.focus)
