"""The offline generator on encyclopaedic prose: the misses hand ratings of the HaluEval
folder kept finding, each with a sentence of that folder that used to produce it, and the
good question the same kind of sentence still gives."""

from __future__ import annotations

import re
import warnings

import pytest

from testset_corpus import one_chunk_each
from ragmeter.text.syntax import parse
from testset_gen.offline.generator import ShortfallWarning, generate_offline
from testset_gen.offline.recipes.encyclopaedic import birth_questions, shared_title
from testset_gen.offline.questions import date_preposition, questions_from_sentence
from testset_gen.offline.record_filter import FilterInput, rule_reasons


def _asked(sentence: str) -> dict[str, str]:
    doc = parse([sentence])[0]
    return {q.text: q.answer for s in doc.sents for q in questions_from_sentence(s)}


def _reasons(question: str, answer: str = "Someone") -> list[str]:
    return rule_reasons(FilterInput(question, "X.", answer, ("X.",), ("X.",)))


def test_a_bare_date_gets_its_preposition_and_is_asked_when():
    assert date_preposition("September 28, 1937") == "on"
    assert date_preposition("23 May 1965") == "on"
    assert date_preposition("April 1983") == date_preposition("1937") == "in"
    asked = _asked("Timberline Lodge was dedicated September 28, 1937, by President Franklin "
                   "D. Roosevelt.")
    # was: "By whom was Timberline Lodge dedicated September 28, 1937?"
    assert asked == {
        "Who dedicated Timberline Lodge on September 28, 1937?": "President Franklin D. Roosevelt",
        "When was Timberline Lodge dedicated by President Franklin D. Roosevelt?":
            "September 28, 1937"}
    asked = _asked("The 55th Academy Awards were presented April 11, 1983, at the Dorothy "
                   "Chandler Pavilion, Los Angeles.")
    # was: "Where were the 55th Academy Awards presented April 11, 1983?"
    assert asked["Where were the 55th Academy Awards presented on April 11, 1983?"] == (
        "the Dorothy Chandler Pavilion")
    assert asked["When were the 55th Academy Awards presented at the Dorothy Chandler "
                 "Pavilion, Los Angeles?"] == "April 11, 1983"
    assert not any(re.search(r"\b(?:presented|dedicated) (?:April|September)", q) for q in asked)


def test_the_agent_of_a_passive_is_asked_as_the_active_subject():
    # was: "By whom is Hong Kong Human Rights and Democracy Act proposed?" (no article, a
    # present passive for a past act)
    assert _asked("Hong Kong Human Rights and Democracy Act is proposed by Chris Smith.") == {
        "Who proposed the Hong Kong Human Rights and Democracy Act?": "Chris Smith"}
    # a lasting relation stays in the present
    assert "Who owns Bal Harbour Shops?" in _asked(
        "Bal Harbour Shops is owned by Whitman Family Development.")
    assert _asked("CNN was founded in 1980 by Ted Turner.")["Who founded CNN in 1980?"] == (
        "Ted Turner")
    # an irregular participle takes its past form; "founded" and "dedicated" after "Who"
    # ask for a person, and the filter lets them through
    assert "Who designed the Eiffel Tower?" in _asked(
        "The Eiffel Tower was designed by Gustave Eiffel.")
    for question in ("Who founded CNN in 1980?",
                     "Who dedicated Timberline Lodge on September 28, 1937?",
                     "Who proposed the Hong Kong Human Rights and Democracy Act?"):
        assert _reasons(question, "Ted Turner") == [], question
    # a thing the small model tags PERSON is still caught by the rest of the question
    assert "ambiguous" in _reasons("Who released the album Thriller in 1982?")


def test_a_who_question_many_people_answer_is_not_asked():
    # was written and rated a miss: many players left to sign with the Phillies
    assert "ambiguous" in _reasons(
        "Who left to sign with the Philadelphia Phillies for the 1979 season?")
    assert "ambiguous" in _reasons("Who joined the Royal Navy in 1914?")
    # an ordinal or a unique act anchors the answer
    assert _reasons("Who was the first woman to join the Royal Navy?") == []
    assert _reasons("Who discovered polonium in Paris?") == []
    assert _reasons("Who did Sylvester Stallone replace in the 1979 season?") == []


def test_sports_page_idiom_and_code_names_are_not_asked():
    # "represented the United States Naval Academy": idiom, not a question people ask
    assert "ambiguous" in _reasons("What did the 1926 Navy Midshipmen football team represent "
                                   "in the 1926 college football season?")
    assert not any("represent" in q for q in _asked(
        "The Maine Black Bears represented the University of Maine in the 2013 season.")
        if not _reasons(q))
    # "What is the A1?": most countries have one
    assert "ambiguous" in _reasons("What is the A1?", "the longest numbered road in the UK")
    assert "ambiguous" in _reasons("What is M25?", "a motorway")
    assert _reasons("What is the Oberoi Group?", "a hotel company") == []


FILMS = {
    "a.md": "Ghostbusters (also known as Ghostbusters: Answer the Call) is a 2016 supernatural "
            "comedy film directed by Paul Feig.",
    "b.md": "Hollywood Ending is a 2002 American comedy film written and directed by Woody Allen.",
    "c.md": "The Big Lebowski is a 1998 crime comedy film written by the Coen brothers.",
    "d.md": "Harold Ramis starred in \"Ghostbusters\" (1984) and \"Stripes\" (1981).",
}


def test_a_title_that_names_more_than_one_work_is_not_compared():
    assert shared_title("Ghostbusters", 2016, "Ghostbusters is a 2016 film.", FILMS["d.md"])
    assert shared_title("Ghostbusters", 2016, FILMS["a.md"], "")  # "also known as"
    assert not shared_title("Hollywood Ending", 2002, FILMS["b.md"], " ".join(FILMS.values()))
    assert not shared_title("Ghostbusters II", 1989, "x", 'in "Ghostbusters II" (1989)')
    graph = one_chunk_each(FILMS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ShortfallWarning)
        out = generate_offline(graph, 4, {"multi_context": 1}, seed=0)
    # was: "Which film came out first: Ghostbusters or Hollywood Ending?" (the 1984 film
    # came first, not the 2016 one of the context)
    assert [r.question for r in out.records] == [
        "Which film came out first: Hollywood Ending or the Big Lebowski?"]
    # the ground truth writes the title as the work is called
    assert out.records[0].ground_truth.startswith("The Big Lebowski first (1998); Hollywood "
                                                  "Ending in 2002.")


PEOPLE = {
    # an actress and an actor are compared; a footballer with neither
    "a.md": "Annette Jones (born September 7, 1967), better known as Leslie Jones, is an "
            "American actress and comedian. Harris Yulin (born November 5, 1937) is an American "
            "actor. Bradley James Orr (born 1 November 1982) is an English retired footballer.",
    "b.md": "Pete Rose (born April 14, 1941) is a former baseball player. Pete Rose joined the "
            "Cincinnati Reds in 1963.",
}


def test_bracketed_birth_dates_give_checked_derived_questions():
    births = birth_questions(["Harris Yulin (born November 5, 1937) is an American actor.",
                              "Albert Einstein (14 March 1879 – 18 April 1955) was a physicist.",
                              "The Beatles (1960–1970) were a band.",
                              "Peter Horachek (born January 26, 1960) is currently a pro scout."])
    # dated, and with the kind of person each is; a band, or a person whose kind the
    # sentence does not say with a noun, is left out
    assert [(q.topic, q.answer, q.year, q.kind) for q in births] == [
        ("Harris Yulin", "November 5, 1937", 1937, "actor"),
        ("Albert Einstein", "14 March 1879", 1879, "physicist")]
    # the statement is the sentence as written: the ground truth quotes the context
    assert births[0].statement == "Harris Yulin (born November 5, 1937) is an American actor."
    graph = one_chunk_each(PEOPLE)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ShortfallWarning)
        out = generate_offline(graph, 6, {"reasoning": 1}, seed=0)
    asked = {r.question: r for r in out.records}
    assert set(asked) == {
        "Who was born first: Harris Yulin or Leslie Jones?",
        "How many years after Pete Rose was born did Pete Rose join the Cincinnati Reds?"}
    first = asked["Who was born first: Harris Yulin or Leslie Jones?"]
    assert first.evolution_type == "reasoning" and first.metadata["answer"] == "Harris Yulin"
    assert first.ground_truth.startswith(
        "Harris Yulin first (November 5, 1937); Leslie Jones on September 7, 1967. ")
    years = asked["How many years after Pete Rose was born did Pete Rose join the Cincinnati "
                  "Reds?"]
    assert years.ground_truth.startswith("22 years. Pete Rose (born April 14, 1941)")


@pytest.mark.parametrize("sentence", [
    "Annette Jones (born September 7, 1967), better known as Leslie Jones, is an American "
    "comedian.",
])
def test_a_birth_date_alone_asks_no_simple_question(sentence):
    graph = one_chunk_each({"a.md": sentence})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ShortfallWarning)
        out = generate_offline(graph, 4, {"simple": 1}, seed=0)
    assert not any("born" in r.question for r in out.records)


def test_birth_comparisons_fill_at_most_half_of_a_derived_type():
    actors = [("Harris Yulin", "November 5, 1937"), ("William James Murray", "September 21, 1950"),
              ("Randall Park", "March 23, 1974"), ("Scott Lowell", "February 22, 1965"),
              ("Sarah Wayne Callies", "June 1, 1977"),
              ("Alden Caleb Ehrenreich", "November 22, 1989"),
              ("Cindy Williams", "August 22, 1947"), ("Wallace Michael Shawn", "November 12, 1943")]
    text = " ".join(f"{name} (born {date}) is an American actor." for name, date in actors)
    graph = one_chunk_each({"actors.md": text})
    with pytest.warns(ShortfallWarning, match="reasoning 2 of 4 missing"):
        out = generate_offline(graph, 4, {"reasoning": 1}, seed=0)
    # four pairs of eight actors were there to take; two are written, the rest is reported
    assert len(out.records) == 2
    assert all(r.question.startswith("Who was born first: ") for r in out.records)
    assert all(r.metadata["compared"] == "birth" for r in out.records)


def test_a_comma_is_not_left_between_the_verb_and_its_agent():
    sentence = ("The Inter-American Peace Force was established, by the Organization of American "
                "States, on 23 May 1965, after the United States's intervention in the Dominican "
                "Republic.")
    asked = _asked(sentence)
    # was: "When was the Inter-American Peace Force established, by the Organization ...?"
    assert ("When was the Inter-American Peace Force established by the Organization of "
            "American States after the United States's intervention in the Dominican "
            "Republic?") in asked
    assert not any("established," in q for q in asked)
    # a standing relation keeps the source's present tense
    assert "Who lists the Lancashire Heeler as a vulnerable breed?" in _asked(
        "The Lancashire Heeler is listed by the Kennel Club as a vulnerable breed.")


def test_an_answer_cut_from_a_list_of_names_is_rejected():
    sentence = ("Hong Kong Human Rights and Democracy Act is proposed by Chris Smith, who is the "
                "chairman of Congressional-Executive Commission on China, and Marco Rubio, the "
                "co-chairman of the Congressional-Executive Commission on China.")
    question = "Who proposed the Hong Kong Human Rights and Democracy Act?"
    statement = "Hong Kong Human Rights and Democracy Act is proposed by Chris Smith."
    # was written with "Chris Smith" alone as the answer: the ground truth left Rubio out
    assert "rewritten_statement" in rule_reasons(FilterInput(
        question, statement, "Chris Smith", (sentence,), (sentence,)))
    alone = "Hong Kong Human Rights and Democracy Act is proposed by Chris Smith."
    assert rule_reasons(FilterInput(question, statement, "Chris Smith", (alone,), (alone,))) == []


def test_people_are_compared_by_the_name_they_are_known_by_and_by_kind():
    lil_jon = birth_questions(["Jonathan Smith (born January 17, 1971), better known by his stage "
                               "name Lil Jon, is an American rapper, record producer, and DJ."])
    # was: "Who was born first: Bret Michael Sychak or Jonathan Smith?" (a name thousands share)
    assert [(q.topic, q.kind) for q in lil_jon] == [("Lil Jon", "singer")]
    assert lil_jon[0].statement.startswith("Jonathan Smith (born January 17, 1971)")
    kinds = [q.kind for q in birth_questions([
        "James Rooney (born 10 December 1945) is a former association football player.",
        "Virginia Ruano Pascual (born 21 September 1973) is a Spanish former professional "
        "tennis player."])]
    assert kinds == ["football player", "tennis player"]  # not compared with each other
