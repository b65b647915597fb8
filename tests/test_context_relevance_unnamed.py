"""The local context_relevance, fifth round: a chunk cut from a longer text may never name
its topic ("The gas giant turns once in 9 hours 56 minutes", "Take the tablet in the
morning"), and a number question is answered by a number of what it asks about, not by any
number. Exact behaviour of each rule, then the pairs they were made for."""

from __future__ import annotations

import pytest

from ragmeter.text import nlp
from ragmeter.judges.local.chunk_relevance import ChunkRelevanceScorer, defines_unnamed, measured, unnamed_subject
from ragmeter.judges.local.question_focus import question_focus


@pytest.mark.parametrize(("sentence", "refers_back"), [
    ("It is a simplified contact language.", True),  # a pronoun
    ("Its next return is predicted for 2061.", True),
    ("The gas giant turns once on its axis in roughly 9 hours.", True),  # a short definite description
    ("The clipper was launched in 1869 at Dumbarton.", True),
    ("The Dubai tower rises 828 metres.", True),
    ("Henry VIII's flagship heeled over and went down.", True),  # a possessive name, then the description
    ("Take the tablet once a day.", True),  # an instruction: the reader is the subject
    ("Do not drink alcohol during the course.", True),
    ("Once opened, keep the bottle tightly closed.", True),
    ("The average age of college hockey freshmen is 20.", False),  # the "of" phrase says which
    ("Proxima Centauri is a small red dwarf.", False),  # a name
    ("Halley's Comet was last visible from Earth in 1986.", False),
    ("For most individuals the return is due on 15 April.", False),
    ("Bright ice reflects most of the sunlight.", False),  # no determiner: not a reference
])
def test_a_sentence_refers_back_by_pronoun_short_description_or_instruction(sentence, refers_back):
    assert nlp.analyse([sentence])[0].sentences[0].refers_back is refers_back


def _weights(asks):
    return [nlp.word_weight(t) for t in asks.focus]


def test_a_chunk_opening_by_reference_stands_for_the_questions_names_only():
    asks = question_focus("how many light years away is proxima centauri")
    assert asks.focus == ("light", "years", "proxima", "centauri")
    assert asks.nouns == {"light", "years", "proxima", "centauri"}
    unnamed = nlp.analyse(["The red dwarf lies about 4.24 light-years from the Sun."])[0].sentences
    # "light" and "years" are common words: they must still be said (here they are spelled)
    assert unnamed_subject(asks, unnamed, _weights(asks)) == {"proxima", "centauri"}
    named = nlp.analyse(["Proxima Centauri is a small red dwarf."])[0].sentences
    assert unnamed_subject(asks, named, _weights(asks)) == frozenset()
    # a proper-name phrase is the subject whatever its words' rarity ("mary" 0.67, "rose" 0.69)
    rose = question_focus("When did the Mary Rose sink?")
    flagship = nlp.analyse(["Henry VIII's flagship went down in the Solent on 19 July 1545."])[0].sentences
    assert {"mary", "rose"} <= unnamed_subject(rose, flagship, _weights(rose))
    # a verb of the question is what it asks, not its subject
    visible = question_focus("When will Halley's Comet next be visible from Earth?")
    its = nlp.analyse(["Its next return is predicted for mid-2061."])[0].sentences
    assert unnamed_subject(visible, its, _weights(visible)) == {"halley", "comet"}


def test_a_pronoun_opening_says_what_the_unnamed_topic_is_but_not_a_pronoun_for_a_clause():
    def opening(text):
        return nlp.analyse([text])[0].sentences

    assert defines_unnamed(opening("It is a simplified contact language that grows up between traders."))
    assert defines_unnamed(opening("It is interest paid on both the sum and the interest already added."))
    assert not defines_unnamed(opening("It is important to declare every condition."))
    assert not defines_unnamed(opening("It is said that the word comes from business."))
    assert not defines_unnamed(opening("Pidgin is a simplified language."))  # named: the usual rule reads it


@pytest.mark.parametrize(("question", "measure"), [
    ("how many light years away is proxima centauri", "years"),
    ("How many minutes does an NBA game last?", "minutes"),
    ("How many native speakers does Basque have?", "speakers"),
    ("How long can cooked rice be left out at room temperature?", "duration length"),
    ("How tall is the Burj Khalifa?", "length"),
    ("What temperature should I wash the Alder merino base layer at?", "temperature"),
    ("How old do you have to be to rent a car?", ""),
    ("average age of nhl teams", ""),
    ("When did the Mary Rose sink?", ""),  # not a number question
])
def test_a_number_question_says_what_its_number_counts_or_measures(question, measure):
    assert question_focus(question).measure == measure


@pytest.mark.parametrize(("measure", "text", "gives"), [
    ("years", "The red dwarf lies about 4.24 light-years from the Sun.", True),
    ("years", "In 2016 astronomers found a planet that orbits it every 11.2 days.", False),
    ("minutes", "Regulation play is four quarters of 12 minutes each.", True),
    ("minutes", "Each team plays 82 games, and the shot clock gives 24 seconds.", False),
    ("letters", "The Hawaiian writing system gets by with just thirteen: five vowels and eight consonants.", True),
    ("letters", "The Hawaiian alphabet was devised by missionaries in 1820.", False),  # a year stands alone
    ("duration length", "Put leftovers in the fridge within about an hour.", True),
    ("duration length", "Spores of Bacillus cereus survive cooking.", False),
    ("length", "The Dubai tower rises 828 metres to the tip of its spire.", True),
    ("length", "The tower has 163 floors.", False),
    ("temperature", "Machine wash it at 30 °C or below.", True),
    ("temperature", "Poultry is safe once it reaches 74 degrees.", True),
    ("temperature", "Each tablet holds 10 mg.", False),
])
def test_a_number_of_something_else_does_not_answer(measure, text, gives):
    assert measured(measure, text) is gives


@pytest.fixture(scope="module")
def scorer(minilm):
    return ChunkRelevanceScorer()


@pytest.mark.parametrize(("question", "answer", "topical"), [
    # the answer names its subject by a description; the negative names it and gives numbers
    # of other things (the number rule)
    ("how many light years away is proxima centauri",
     "The red dwarf lies about 4.24 light-years from the Sun, which makes it the nearest known star to our "
     "solar system.",
     "Proxima Centauri is a small red dwarf in the constellation Centaurus with about an eighth of the Sun's "
     "mass. In 2016 astronomers announced a planet, Proxima b, that orbits Proxima Centauri every 11.2 days."),
    # a leaflet's instruction never names the medicine; the negative names it and says what it is
    ("When should I take levothyroxine?",
     "Take the tablet once a day in the morning with a glass of water, 30 to 60 minutes before breakfast.",
     "Levothyroxine is a synthetic form of thyroxine and is taken to treat an underactive thyroid."),
])
def test_an_answering_chunk_that_never_names_its_subject_beats_the_one_that_does_not_answer(
        scorer, question, answer, topical):
    good, bad = scorer.relevance(question, [answer, topical])
    assert good.relevance > bad.relevance, (good.reason, bad.reason)
    assert good.signals.unnamed and "its opening refers to a topic it does not name" in good.reason


def test_a_description_opening_gives_no_name_to_a_chunk_without_an_answer(scorer):
    # "The tower" refers back, but no sentence gives a length: the names are not credited
    (chunk,) = scorer.relevance("How tall is the Burj Khalifa?",
                                ["The tower was designed by Adrian Smith of Skidmore, Owings & Merrill."])
    assert chunk.signals.unnamed == () and not chunk.signals.answer_type
    assert chunk.relevance < 0.05


def test_a_count_is_a_number_before_the_noun_or_inside_its_compound_not_an_article():
    assert measured("calories", "A medium banana provides roughly 105 kilocalories.")
    assert measured("players", "Each side has seven players in the water.")
    assert not measured("players", "Players cannot touch the bottom, and a team's players must tread water.")


@pytest.mark.parametrize(("question", "sentence", "defines"), [
    ("What is a flying buttress?", "Flying buttresses are found on many Gothic cathedrals.", False),
    ("What is a deductible in car insurance?", "Car insurance deductibles are chosen when you buy the policy.", False),
    ("What is compound interest?", "Compound interest is often contrasted with simple interest.", False),
    ("What does the word ephemeral mean?", "The word ephemeral is often used by poets.", False),
    ("What is compound interest?", "Compound interest is interest paid on both the sum and the interest.", True),
    ("What is a tariff?", "A tariff is defined as a tax on imports.", True),
    ("What is a tariff?", "In trade, a tariff is a tax on imports.", True),
    ("What does the word ephemeral mean?", "Ephemeral means lasting for a very short time.", True),
])
def test_what_is_done_to_a_thing_or_how_often_is_not_what_it_is(question, sentence, defines):
    from ragmeter.judges.local.chunk_relevance import holds_answer

    asks = question_focus(question)
    assert holds_answer(asks, nlp.analyse([sentence])[0].sentences[0], asks.focus) is defines


def test_names_the_chunk_spells_are_not_taken_as_unnamed_and_a_yes_no_question_anchors_none(scorer):
    asks = question_focus("What temperature should I wash the Alder merino base layer at?")
    spelled = nlp.analyse(["The Alder base layer is knitted from merino wool and keeps you warm down to -10 °C."])[0]
    assert spelled.sentences[0].refers_back
    assert unnamed_subject(asks, spelled.sentences, _weights(asks)) == frozenset()
    # a yes/no question expects no kind of answer: "The free plan..." gets no name from its opening
    (plan,) = scorer.relevance("Can I use Pixelry's free plan for commercial projects?",
                               ["The free plan includes 5 GB of storage and 1080p exports."])
    assert plan.signals.unnamed == () and plan.signals.presence < 0.8
