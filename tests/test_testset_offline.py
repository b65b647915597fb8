"""The offline generator: questions from the knowledge graph by rules, no LLM, seeded."""

from __future__ import annotations

import re
import warnings

import pytest

from testset_corpus import corpus, one_chunk_each
from ragmeter.text.syntax import parse
from testset_gen.distribution import plan_counts
from testset_gen.documents.document import Chunk, Document
from testset_gen.graph.knowledge_graph import KnowledgeGraph, build_graph
from testset_gen.offline.generator import OfflineResult, ShortfallWarning, generate_offline
from testset_gen.offline.questions import questions_from_sentence

ALL_THREE = {"simple": 0.5, "reasoning": 0.25, "multi_context": 0.25}
OPENINGS = re.compile(
    r"^(?:By whom|For how many|Who|Whom|What|When|Where|Which|Why|How|Is|Are|Was|Were|Do|Does|Did|Has|"
    r"Have|Had|Can|Could|Will|Would|Should)\b")


@pytest.fixture(scope="module")
def graph() -> KnowledgeGraph:
    documents, chunks = corpus(named=True)
    return build_graph(documents, chunks, embed=False)


@pytest.fixture(scope="module")
def result(graph) -> OfflineResult:
    with warnings.catch_warnings():
        warnings.simplefilter("error", ShortfallWarning)  # this corpus fills every type
        return generate_offline(graph, 12, ALL_THREE, seed=0)


def _asked(sentence: str) -> dict[str, str]:
    doc = parse([sentence])[0]
    return {q.text: q.answer for s in doc.sents for q in questions_from_sentence(s)}


def test_statements_become_grammatical_questions():
    # no "What was completed in 1889?": a question must name something
    assert _asked("The Eiffel Tower was completed in 1889.") == {
        "When was the Eiffel Tower completed?": "1889"}
    assert _asked("Marie Curie discovered polonium.") == {
        "What did Marie Curie discover?": "polonium"}
    assert _asked("Marie Curie won two Nobel Prizes.") == {
        "Who won two Nobel Prizes?": "Marie Curie",
        "How many Nobel Prizes did Marie Curie win?": "two"}
    assert _asked("Albert Einstein was born in Ulm on 14 March 1879.") == {
        "Who was born in Ulm on 14 March 1879?": "Albert Einstein",
        "Where was Albert Einstein born on 14 March 1879?": "Ulm",
        "When was Albert Einstein born in Ulm?": "14 March 1879"}
    assert "How many inhabitants does Paris have?" in _asked("Paris has 2.1 million inhabitants.")
    assert "When did Marie Curie win the Nobel Prize?" in _asked(
        "In 1903, Marie Curie won the Nobel Prize.")
    assert "How tall is the Louvre?" in _asked("The Louvre is 30 metres tall.")
    # asides and the other of two places are left out of the question
    assert _asked("Mars has two small moons, Phobos and Deimos, discovered by Asaph Hall in "
                  "1877.") == {"How many small moons does Mars have?": "two"}
    assert "Where was Albert Einstein born in Ulm?" not in _asked(
        "Albert Einstein was born in Ulm, in the Kingdom of Württemberg.")


def test_a_span_of_years_is_asked_as_a_duration():
    assert _asked("John Smith served as governor of Texas from 1990 to 1995.") == {
        "Who served as governor of Texas from 1990 to 1995?": "John Smith",
        "For how many years did John Smith serve as governor of Texas?": "5 years"}


def test_a_named_subject_defined_by_a_copula_is_asked_what_or_who_it_is():
    assert _asked("The Oberoi Group is a hotel company with its head office in Delhi.") == {
        "What is the Oberoi Group?": "a hotel company"}
    assert _asked("Warsaw is the capital of Poland.")["What is Warsaw?"] == "the capital of Poland"
    assert _asked("Yasir Hussain is a Pakistani actor and writer from Islamabad.")[
        "Who is Yasir Hussain?"] == "a Pakistani actor"
    # a town the small model tags PERSON: no "Who is Hemel Hempstead?", and no "What" either
    assert not any(q.startswith(("Who is", "What is")) for q in _asked(
        "Hemel Hempstead is a new town in Hertfordshire, England."))
    # a title with a capitalised "Is": "Who is Jonny Greenwood?" -> "the Controller"
    assert "Who is Jonny Greenwood?" not in _asked(
        "Jonny Greenwood Is the Controller is a compilation album created by Jonny Greenwood.")


def test_definitions_fill_at_most_half_of_the_simple_records():
    text = " ".join(f"{name} is a {kind} in {place}." for name, kind, place in (
        ("Canty Bay", "coastal hamlet", "East Lothian"), ("New Paltz", "village", "Ulster County"),
        ("Emory University", "private research university", "Atlanta"),
        ("Dome Mine", "gold mine", "Timmins"), ("Wild Horse Creek", "tributary", "Wyoming"),
        ("Suffolk County", "suburban county", "New York"))) + (
        " Marie Curie discovered polonium in Paris in 1898.")
    doc = Document.make(text, "defs.md", title="defs")
    tiny = build_graph([doc], [Chunk.make(doc, text, 0, 0, len(text), len(text.split()))],
                       embed=False)
    with pytest.warns(ShortfallWarning, match="simple"):
        out = generate_offline(tiny, 6, {"simple": 1}, seed=0)
    defined = [r for r in out.records if r.metadata["wh"] == "define"]
    assert len(defined) == 3 and len(out.records) < 6  # the rest is a reported shortfall
    assert all(r.question.startswith("What is ") for r in defined)


def test_works_of_one_kind_are_compared_by_the_year_that_dates_them():
    paragraphs = {"a.md": "Crimson Peak is a 2015 American gothic romance film.",
                  "b.md": "White Nights is a 1985 American drama film directed by Taylor Hackford.",
                  "c.md": "Silver City is a 2013 Christmas album recorded by Falling Up."}
    graph = one_chunk_each(paragraphs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ShortfallWarning)
        out = generate_offline(graph, 4, {"multi_context": 1}, seed=0)
    assert [r.question for r in out.records] == [
        "Which film came out first: Crimson Peak or White Nights?"]  # never film vs album
    assert out.records[0].ground_truth.startswith("White Nights first (1985); Crimson Peak in 2015.")
    assert len(out.records[0].reference_context_ids) == 2


def test_each_work_is_compared_once():
    films = {"a.md": "Crimson Peak is a 2015 American gothic romance film.",
             "b.md": "White Nights is a 1985 American drama film.",
             "c.md": "Tyrannosaur is a 2011 British drama film.",
             "d.md": "Hollywood Ending is a 2002 American comedy film."}
    graph = one_chunk_each(films)
    with pytest.warns(ShortfallWarning, match="multi_context"):
        out = generate_offline(graph, 6, {"multi_context": 1}, seed=0)
    # six pairs of four films, but each film's date is tested once: two records
    named = [re.match(r"Which film came out first: (.+) or (.+)\?$", r.question).groups()
             for r in out.records]
    assert len(named) == 2 and len({n for pair in named for n in pair}) == 4


def test_derived_questions_compare_only_things_that_belong_together():
    """Years between two events of one subject, and which of two like things came first by
    the same verb; never two unrelated events ("How many years after the Highlanders were
    renamed the Yankees was Vladimir Lagunov born?")."""
    paragraphs = {
        "a.md": "Hotcourses Ltd was founded in London in 1996. Hotcourses Ltd moved to Fulham in "
                "2005. Hotcourses Ltd was sold in 2017.",
        "b.md": "The Oberoi Group was founded in Delhi in 1934.",
        "c.md": "The Highlanders were renamed the Yankees in 1913.",
        "d.md": "Vladimir Lagunov was born in Moscow in 1942.",
        "e.md": "John Smith served as governor of Texas from 1990 to 1995.",
    }
    small = one_chunk_each(paragraphs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ShortfallWarning)
        out = generate_offline(small, 20, {"reasoning": 1, "multi_context": 1}, seed=0)
    asked = {r.question: r for r in out.records}
    assert "Which was founded first: Hotcourses Ltd or the Oberoi Group?" in asked
    compared = asked["Which was founded first: Hotcourses Ltd or the Oberoi Group?"]
    assert compared.evolution_type == "multi_context"
    assert compared.metadata["answer"] == "the Oberoi Group"
    assert compared.ground_truth.startswith("The Oberoi Group first (1934); Hotcourses Ltd in 1996.")
    duration = asked["For how many years did John Smith serve as governor of Texas?"]
    assert duration.evolution_type == "reasoning" and duration.ground_truth.startswith("5 years. ")
    # each statement serves one derived question: "founded in 1996" went to the comparison
    assert asked["How many years after Hotcourses Ltd moved to Fulham was Hotcourses Ltd "
                 "sold?"].ground_truth.startswith("12 years. ")
    for q in asked:
        assert not ("Highlanders" in q and ("Lagunov" in q or "Oberoi" in q or "Smith" in q)), q
        assert "happened first" not in q


@pytest.mark.parametrize("sentence", [
    "Marie Curie did not win the Nobel Prize in 1911.",  # a negation
    "It has three levels for visitors.",  # a pronoun subject
    "The tower is 330 metres tall.",  # names nothing: needs its chunk to make sense
    "There are three levels.",  # an expletive
    "Was Marie Curie born in Warsaw?",  # already a question
    # two verbs: "What does chlorophyll absorb and reflects green light?"
    "Chlorophyll, the main pigment of photosynthesis, absorbs blue light and reflects green.",
    "Too Many Requests tells a client to slow down.",  # "What does it tell to slow down?"
    # an object moved behind a phrase: "What does Macau elect on national level?"
    "Macau elects on national level a legislature.",
    # a qualifier after the counted noun: "How many races did Rodger Ward win?" (18 is the
    # races driving Watson cars, not all of them)
    "Rodger Ward won 18 races driving Watson cars.",
    # half of a relation: "What did the 2011 Census list as 26,121?"
    "The 2011 Census listed Richmond's population as 26,121.",
    # an apposition in front, read as a time: "When was the pageant held at the Miss Perú 2010?"
    "Miss Perú 2010, the 58th Miss Perú pageant was held at the on May 22, 2010.",
])
def test_unclean_statements_are_skipped(sentence):
    assert _asked(sentence) == {}


def test_records_cite_chunks_of_the_graph(result, graph):
    chunk_ids = set(graph.chunk_ids())
    assert result.records
    for r in result.records:
        assert r.reference_context_ids and set(r.reference_context_ids) <= chunk_ids
        assert r.reference_contexts == [graph.chunk(c).text for c in r.reference_context_ids]
        assert r.sources == [graph.chunk(c).source_metadata() for c in r.reference_context_ids]
        assert r.metadata["generator"] == "offline" and r.metadata["seed"] == 0
        assert r.ground_truth.strip()
        for part in r.metadata["answer"].split("; "):
            assert part in r.ground_truth  # the answer is stated by the ground truth
        for sentence in r.metadata["source_sentences"]:
            assert any(sentence in ctx for ctx in r.reference_contexts)
    assert len({r.id for r in result.records}) == len(result.records)
    assert all(r.id.startswith("q-") for r in result.records)


def test_multi_context_records_cite_two_chunks(result):
    multi = [r for r in result.records if r.evolution_type == "multi_context"]
    assert multi
    for r in multi:
        assert len(set(r.reference_context_ids)) >= 2
        assert r.metadata.get("bridge_entity") or r.metadata["template"] == "which_first"
        assert len(r.metadata["source_sentences"]) == 2


def test_questions_look_like_questions(result):
    assert result.records
    for r in result.records:
        assert r.question.endswith("?") and r.question.count("?") == 1, r.question
        assert OPENINGS.match(r.question), r.question
        assert "context" not in r.question.lower() and "according to" not in r.question.lower()
        pronoun = re.search(r"\b(?:he|she|it|they)\b", r.question)
        if pronoun:  # only for a second mention, after the name
            assert re.search(r"\b[A-Z][a-z]+", r.question[1:pronoun.start()]), r.question


def test_each_type_is_within_one_record_of_its_share(result):
    assert result.shortfall == {}
    assert sum(result.planned.values()) == 12 == len(result.records)
    counts = {t: sum(1 for r in result.records if r.evolution_type == t) for t in ALL_THREE}
    assert counts == result.planned
    for t, share in ALL_THREE.items():
        assert abs(counts[t] - 12 * share) <= 1
    default = {"simple": 0.5, "reasoning": 0.25, "multi_context": 0.25}
    for size in (1, 7, 10, 13):
        planned = plan_counts(size, default)
        assert sum(planned.values()) == size
        assert all(abs(planned[t] - size * share) <= 1 for t, share in default.items())


def test_the_seed_decides_everything(graph, result):
    again = generate_offline(graph, 12, ALL_THREE, seed=0)
    assert [r.model_dump() for r in again.records] == [r.model_dump() for r in result.records]
    others = [generate_offline(graph, 12, ALL_THREE, seed=s).records for s in (1, 2, 3)]
    assert any([r.question for r in o] != [r.question for r in result.records] for o in others)


def test_harder_types_read_as_intended(graph):
    with pytest.warns(ShortfallWarning, match="reasoning"):  # 7 chunks cannot give 30
        big = generate_offline(graph, 60, {"reasoning": 1, "multi_context": 1}, seed=0)
    # one record per statement: a type is short by what its pool cannot give without reuse
    assert "reasoning" in big.shortfall
    assert len(big.records) == 60 - sum(big.shortfall.values())
    templates = {r.metadata["template"] for r in big.records}
    assert {"years_between", "span_years", "descriptor"} <= templates
    assert not templates & {"two_facts", "shared_mention", "given_that"}  # no "X, and Y?"
    for r in big.records:
        if r.metadata["template"] == "years_between":
            years = [int(y) for y in re.findall(r"\b1[89]\d\d\b", r.ground_truth)]
            assert r.question.startswith("How many years after ")
            assert r.ground_truth.startswith(f"{max(years) - min(years)} years.")
        if r.metadata["template"] == "span_years":
            assert r.question.startswith("For how many years ")
            assert r.ground_truth.startswith("41 years. ")  # 1889 to 1930
        if r.metadata["template"] == "which_first":
            first, second = re.match(r"(?:Which|Who) was \w+ first: (.+) or (.+)\?$", r.question).groups()
            assert r.metadata["answer"] in (first, second)
            assert r.ground_truth.startswith(r.metadata["answer"][:1].upper() + r.metadata["answer"][1:])
        if r.metadata["template"] == "descriptor":
            assert "the person who" in r.question or " that " in r.question
            assert r.metadata["bridge_entity"] in {"marie curie", "pierre curie", "paris",
                                                   "warsaw", "eiffel tower"}


def test_a_shortfall_is_reported_never_padded():
    doc = Document.make("Marie Curie discovered polonium. Marie Curie was born in Warsaw.",
                        "one.md", title="One")
    chunk = Chunk.make(doc, doc.text, 0, 0, len(doc.text), 11)
    tiny = build_graph([doc], [chunk], embed=False)
    with pytest.warns(ShortfallWarning, match="multi_context 2 of 2 missing"):
        out = generate_offline(tiny, 4, {"simple": 0.5, "multi_context": 0.5}, seed=3)
    assert out.shortfall == {"multi_context": 2}
    assert [r.evolution_type for r in out.records] == ["simple", "simple"]
    assert out.available["multi_context"] == 0


def test_bad_distributions_are_refused(graph):
    with pytest.raises(ValueError, match="unknown evolution type"):
        generate_offline(graph, 4, {"tricky": 1.0})
    assert generate_offline(graph, 0).records == []
