"""The local context_relevance, sixth round: the answer must stand where the question's
predicate is said ("how often should I *water* a cactus": not a sentence on feeding it), and
a chunk naming its topic by a demonstrative description ("A fund of this kind ...") defines
it. Exact behaviour of each rule on hand-written sentences, then on pairs."""

from __future__ import annotations

import pytest

from ragmeter.text import nlp
from ragmeter.judges.local.chunk_relevance import (ChunkRelevanceScorer, defines_unnamed, opens_on_reference,
                                            predicate_words, states)
from ragmeter.judges.local.question_focus import question_focus
from ragmeter.judges.local.token_encoder import default_token_encoder


@pytest.mark.parametrize(("question", "predicate"), [
    ("How often should I repot a fern?", "repot"),
    ("Who painted the Night Watch?", "painted"),
    ("Does the gym refund unused classes?", "refund"),
    ("How long does the battery take to charge?", "charge"),  # "take" is a light verb
    ("What tyre size should I use?", ""),  # only a light verb
    ("What happens if I miss an arranged payment?", "miss"),  # "arranged" modifies "payment"
    ("what ethnicity is darren criss' mom?", ""),  # a name misread as a verb, before a possessive
    ("What is the boiling point of ethanol?", ""),
])
def test_the_predicate_is_the_first_content_verb_not_a_light_verb_or_a_modifier(question, predicate):
    assert question_focus(question).predicate == predicate


def _sentence(text):
    return nlp.analyse([text])[0].sentences[0]


def test_a_sentence_states_the_predicate_by_its_spelling_its_stem_or_a_counterpart():
    assert states("replaced", _sentence("Replace the filter once a year."))  # a prefix
    assert states("tow", _sentence("The car is rated for towing 1,500 kg."))  # the same stem
    assert not states("water", _sentence("Feed the plants once a week."))
    assert states("water", _sentence("Feed the plants once a week."), frozenset({"feed"}))


def test_a_counterpart_of_the_predicate_is_a_content_word_close_in_context(minilm):
    encoder = default_token_encoder()
    question = "How often should I lubricate my bike chain?"
    for passage, words in [("Add a few drops of lube to the chain every 200 km.", {"lube"}),
                           ("Check the chain for wear every month.", set())]:
        q, p = encoder.encode([question, passage])
        assert predicate_words("lubricate", q, p) == words


@pytest.mark.parametrize(("text", "refers", "defines"), [
    ("Under this rule, employers must pay staff for overtime.", True, True),  # a demonstrative, a modal
    ("A fund of this kind sets money aside every year.", True, True),  # "of this kind", the present
    ("It tells a device which part of an address is the network.", True, True),  # a pronoun, the present
    ("It is a fee paid on imports.", True, True),  # the "It is a ..." rule as before
    ("A tax of this kind is charged on goods at the border.", True, False),  # is + participle: done to it
    ("It was abolished in 1990.", True, False),  # the past tells an event, not what it is
    ("This is important.", False, False),  # "this" as the subject itself, not a description
    ("Proxima Centauri is a small red dwarf.", False, False),  # names its subject: the usual rule reads it
])
def test_a_demonstrative_opening_leaves_the_topic_unnamed_and_the_general_present_defines_it(text, refers, defines):
    sentences = nlp.analyse([text])[0].sentences
    assert opens_on_reference(sentences[0]) is refers
    assert defines_unnamed(sentences) is defines


@pytest.fixture(scope="module")
def scorer(minilm):
    return ChunkRelevanceScorer()


def test_a_value_of_the_asked_kind_about_another_predicate_does_not_answer(scorer):
    good, bad = scorer.relevance("How often should I water a cactus?", [
        "A cactus needs watering only every three weeks in summer, and hardly at all in winter.",
        "A cactus in a pot should be fed with a cactus fertiliser once a month in spring."])
    assert good.signals.answer_type and good.signals.unsaid == ""
    assert not bad.signals.answer_type and bad.signals.unsaid == "water"
    assert "no sentence says 'water', what the question asks about, beside the number asked for" in bad.reason
    assert good.relevance > 0.9 > 0.1 > bad.relevance


def test_a_yes_no_question_needs_its_predicate_said(scorer):
    good, bad = scorer.relevance("Does the gym refund unused classes?", [
        "Unused class credits are refunded to your card within 14 days if you cancel your membership.",
        "The gym runs 40 classes a week, from spin to yoga, and members can book unused class slots a day ahead."])
    assert good.signals.answer_type and not bad.signals.answer_type
    assert bad.reason.startswith("local relevance 0.00: no sentence says 'refund', what the question asks about (")
    assert good.relevance > 0.5 > bad.relevance


def test_a_chunk_defining_its_topic_by_description_beats_one_naming_it_without_defining(scorer):
    good, bad = scorer.relevance("What is a sinking fund?", [
        "A fund of this kind sets money aside regularly so that a debt or a large cost can be paid off when it "
        "falls due.",
        "Sinking fund payments appear as a separate line on the annual accounts of the company."])
    assert good.signals.answer_type and "its opening refers to a topic it does not name" in good.reason
    assert not bad.signals.answer_type
    assert good.relevance > 0.5 > bad.relevance


@pytest.mark.parametrize(("question", "kind", "measure"), [
    ("What pressure should my bicycle tyres be at?", "number", "pressure"),
    ("How much cash can I take out at the post office?", "money", ""),
])
def test_pressure_is_a_measured_quantity_and_cash_is_money(question, kind, measure):
    asks = question_focus(question)
    assert (asks.kind, asks.measure) == (kind, measure)


@pytest.mark.parametrize(("text", "gives"), [
    ("Road tyres run at 6 to 7 bar.", True),
    ("Inflate them to 90 psi.", True),
    ("The gauge should show 1.5 bar when cold.", True),
    ("Check the pressure every two weeks.", False),  # a number of something else
])
def test_a_pressure_is_a_number_with_a_pressure_unit(text, gives):
    from ragmeter.judges.local.chunk_relevance import measured

    assert measured("pressure", text) is gives


def test_without_the_encoder_the_predicate_is_not_required():
    # spelling alone cannot tell a predicate said otherwise, so no chunk is held to it
    good, bad = ChunkRelevanceScorer(embeddings=False).relevance("How often should I water a cactus?", [
        "A cactus needs watering only every three weeks in summer, and hardly at all in winter.",
        "A cactus in a pot should be fed with a cactus fertiliser once a month in spring."])
    assert good.signals.unsaid == bad.signals.unsaid == ""
    assert good.signals.answer_type and bad.signals.answer_type
