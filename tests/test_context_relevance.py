"""context_relevance: the formula, one LLM call per sample for all chunks (scripted judge
behind the OpenAI mock server), empty and missing contexts, and the local judge telling a
passage that answers from one that only shares the question's topic."""

from __future__ import annotations

import pytest

from ragmeter import evaluate
from ragmeter.metrics import context_relevance_score
from ragmeter.testing import OpenAIMockServer, scripted_judge

ACKLEY_Q = "What county is Ackley, Iowa in?"
ACKLEY = "Ackley is a city in Franklin and Hardin Counties in the U.S. state of Iowa."
HOCKLEY = "Hockley County is in northwestern Texas, bordered on the east by Lubbock County."
FRANCE_Q = "Where is France and what is its capital?"
PARIS = "France is in Western Europe and its capital is Paris."
WINES = "France is famous for its wines and its long history."


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def server():
    with OpenAIMockServer(chat_responder=scripted_judge.make_responder()) as srv:
        yield srv


def run(records, metrics, judge):
    return evaluate(records, metrics, judge=judge, show_progress=False, journal=False)


def test_formula_is_the_mean_chunk_relevance():
    assert context_relevance_score([1.0, 0.0]) == 0.5
    assert context_relevance_score([1.0, 0.5, 0.0, 0.5]) == 0.5
    assert context_relevance_score([]) == 0.0


def test_llm_judge_rates_every_chunk_in_the_samples_one_call(server):
    judge = f"openai:mock-judge@{server.base_url}"
    result = run([{"question": ACKLEY_Q, "contexts": [ACKLEY, HOCKLEY]}], ["context_relevance"], judge)
    score = result.samples[0].scores["context_relevance"]
    assert score.value == 0.5
    assert [c["relevant"] for c in score.verdicts["chunks"]] == [True, False]
    assert [c["relevance"] for c in score.verdicts["chunks"]] == [1.0, 0.0]
    assert score.reason.startswith("1 of 2 chunks help answer the question")
    assert len(server.calls("/chat/completions")) == 1


def test_it_adds_no_call_beside_the_other_metrics(server):
    judge = f"openai:mock-judge@{server.base_url}"
    record = {"question": FRANCE_Q, "answer": "France is in Western Europe. Its capital is Paris.",
              "contexts": [WINES, PARIS], "ground_truth": PARIS}
    metrics = ["faithfulness", "context_precision", "context_recall", "context_relevancy"]
    run([record], metrics, judge)
    before = len(server.calls("/chat/completions"))
    result = run([record], [*metrics, "context_relevance"], f"openai:mock-judge-2@{server.base_url}")
    calls = server.calls("/chat/completions")[before:]
    assert len(calls) == before == 2
    assert "Task chunk_relevance:" in calls[0].json["messages"][-1]["content"]
    assert result.samples[0].scores["context_relevance"].value == 0.5


def test_empty_contexts_score_zero_and_missing_contexts_are_missing_input(server):
    judge = f"openai:mock-judge@{server.base_url}"
    result = run([{"question": ACKLEY_Q, "contexts": []}, {"question": ACKLEY_Q, "answer": "Franklin County."}],
                 ["context_relevance"], judge)
    empty, missing = (s.scores["context_relevance"] for s in result.samples)
    assert empty.value == 0.0 and "no chunks were retrieved" in empty.reason
    assert missing.value is None and missing.error.kind == "MissingInput"
    assert server.calls("/chat/completions") == []


# question, a passage that answers it, a passage on the same topic that does not
HARD_NEGATIVES = [
    (ACKLEY_Q, ACKLEY, HOCKLEY),
    ("What causes gall bladder infections?",
     "Most gallbladder infections are caused by gallstones blocking the duct that drains the gallbladder.",
     "A bladder infection causes pain and burning when passing urine and is common in women."),
    ("When was the Golden Gate Bridge opened?",
     "The Golden Gate Bridge opened to traffic on 27 May 1937 after four years of construction.",
     "The Golden Gate Bridge is painted in a colour called International Orange to stand out in the fog."),
    ("What does the word ephemeral mean?",
     "Ephemeral means lasting for a very short time.",
     "The word ephemeral is often used by poets and appears in many song titles."),
    ("How much does a plumber charge per hour?",
     "Most plumbers charge between $45 and $150 per hour, depending on the job and the region.",
     "A plumber installs and repairs the pipes that carry water and gas through a building."),
    ("What ethnicity is Darren Criss's mother?",
     "Darren Criss's mother is Filipino, from Cebu, with Chinese and Spanish ancestry.",
     "Darren Criss's mother raised him in San Francisco, where he was born in 1987."),
]


def test_local_judge_puts_the_answering_passage_above_its_same_topic_negative():
    contexts = [[good, bad] for _, good, bad in HARD_NEGATIVES]
    records = [{"question": q, "contexts": c} for (q, _, _), c in zip(HARD_NEGATIVES, contexts)]
    result = run(records, ["context_relevance"], "local")
    for sample, (question, _, _) in zip(result.samples, HARD_NEGATIVES):
        chunks = sample.scores["context_relevance"].verdicts["chunks"]
        assert chunks[0]["relevance"] > chunks[1]["relevance"], (question, chunks)
        assert chunks[0]["relevant"], (question, chunks)
        assert all(c["reason"].startswith("local relevance") for c in chunks)
    # "The word ephemeral is often used..." says how often the word is used, not what it
    # means (a copula then a participle or "often" does not define). Criss's mother named in
    # another role is not relevant: no sentence names an ethnicity (the answer-type gate)
    negatives = [s.scores["context_relevance"].verdicts["chunks"][1]["relevant"] for s in result.samples]
    assert negatives == [False, False, False, False, False, False]


# question, a passage that answers it, a passage that shares its topic and words and answers
# another question about them (what the thing is, what causes it, who watched it)
ANSWER_TYPE_PAIRS = [
    ("How do I remove a stripped screw?",
     "To remove a stripped screw, press a wide rubber band between the screwdriver and the screw head, "
     "then turn it slowly while pushing down hard.",
     "A stripped screw is a screw whose head has been worn smooth, so the screwdriver slips and cannot "
     "remove it."),
    ("What are the symptoms of scurvy?",
     "The symptoms of scurvy are tiredness, swollen and bleeding gums, easy bruising and slow wound healing.",
     "Scurvy is caused by a lack of vitamin C in the diet and was common among sailors on long voyages."),
    ("Who was the first person to walk on the Moon?",
     "Neil Armstrong was the first person to walk on the Moon, on 20 July 1969.",
     "Walking on the Moon was hard for the first person to try it, because the lunar dust was slippery."),
    ("What does it mean when your ears ring?",
     "Ringing in the ears is often caused by exposure to loud noise, an ear infection or age-related hearing loss.",
     "Ears ring in different ways: some people hear a buzz, others a hiss or a high whistle in one or both ears."),
]


@pytest.mark.parametrize(("question", "good", "bad"), ANSWER_TYPE_PAIRS)
def test_a_passage_answering_another_question_about_the_same_terms_loses(question, good, bad):
    from ragmeter.judges.local.chunk_relevance import ChunkRelevanceScorer

    answer, topical = ChunkRelevanceScorer(embeddings=False).relevance(question, [good, bad])
    assert answer.relevance >= 0.5 > topical.relevance, (answer.reason, topical.reason)
    assert answer.signals.answer_type and not topical.signals.answer_type
    assert "no sentence about the focus holds" in topical.reason


def test_instructions_are_clauses_opening_on_a_base_form_verb_or_you_with_a_modal():
    from ragmeter.judges.local.chunk_relevance import instructions

    sentences = ["Soak the bolt in oil for an hour.", "The bolt rusts when it is wet.", "You can renew it by mail.",
                 "Loosen the nuts, then jack the car up.", "A jack lifts the car."]
    assert instructions(sentences) == {"Soak the bolt in oil for an hour.", "You can renew it by mail.",
                                       "Loosen the nuts, then jack the car up."}


def test_steps_on_separate_lines_answer_a_how_to_question():
    from ragmeter.judges.local.chunk_relevance import ChunkRelevanceScorer

    steps = ("Removing a stripped screw:\n1. Press a wide rubber band over the stripped screw head.\n"
             "2. Push the screwdriver into it and turn slowly.")
    about = "A stripped screw has a worn head.\nRemoving a stripped screw is hard because the screwdriver slips."
    answer, topical = ChunkRelevanceScorer(embeddings=False).relevance("How do I remove a stripped screw?", [steps, about])
    assert answer.signals.answer_type and not topical.signals.answer_type
    assert answer.relevance > topical.relevance


@pytest.mark.parametrize(("question", "kind", "head", "focus"), [
    ("What county is Ackley, Iowa in?", "place", "county", ("ackley", "iowa")),
    ("what causes gall bladder infections?", "reason", "", ("gall", "bladder", "infections")),
    ("elegxo meaning", "definition", "", ("elegxo",)),
    ("how much does a ballet dancer make", "money", "", ("ballet", "dancer")),
    ("when did the berlin wall fall", "date", "", ("berlin", "wall", "fall")),
    ("which protein structure is an alpha helix?", "category", "structure", ("protein", "alpha", "helix")),
    ("is frida kahlo mexican", "yesno", "", ("frida", "kahlo", "mexican")),
    ("How do I reset a forgotten password?", "procedure", "", ("reset", "forgotten", "password")),
    ("how to become a class b cdl driver", "procedure", "", ("class", "b", "cdl", "driver")),
    ("What are the symptoms of type 2 diabetes?", "attribute", "symptom", ("symptoms", "2", "diabetes")),
    ("What is the boiling point of water?", "attribute", "point", ("boiling", "point", "water")),
    ("What is a tariff?", "definition", "", ("tariff",)),
    ("Who was the first woman to win a Nobel Prize?", "person", "", ("woman", "win", "nobel", "prize")),
    ("Who is Ada Lovelace?", "definition", "", ("ada", "lovelace")),
    ("what does it mean when the bottom of your foot is hot", "reason", "", ("foot", "hot")),
])
def test_question_focus_names_the_expected_answer_and_the_topic(question, kind, head, focus):
    from ragmeter.judges.local.question_focus import question_focus

    asks = question_focus(question)
    assert (asks.kind, asks.head, asks.focus) == (kind, head, focus)


def test_cascade_sends_only_the_uncertain_chunk_to_the_llm(server):
    from ragmeter.judges.local.calibration import CHUNK_RELEVANCE, calibrations

    question, _, bad = HARD_NEGATIVES[1]  # the negative's local relevance is 0.31
    unrelated = "The recipe calls for two eggs, a cup of flour and a pinch of salt."  # relevance 0
    calibration = calibrations("alignment")[CHUNK_RELEVANCE]
    sure_no, unsure = calibration.probability([0.0, 0.31])
    assert sure_no < unsure  # the band below is set between the two calibrated probabilities
    result = evaluate([{"question": question, "contexts": [unrelated, bad]}], ["context_relevance"],
                      judge=f"local+openai:mock-judge@{server.base_url}",
                      judge_options={"band": (sure_no + 0.001, 0.99)}, show_progress=False, journal=False)
    chunks = result.samples[0].scores["context_relevance"].verdicts["chunks"]
    assert chunks[0]["reason"].startswith("local relevance")  # sure: kept local
    assert chunks[0]["reason"].endswith(f"P(yes) {sure_no:.2f} calibrated")
    assert chunks[1] == {"rank": 2, "relevance": 1.0, "relevant": True, "reason": "holds 75% of the question's words"}
    calls = server.calls("/chat/completions")
    assert len(calls) == 1
    sent = calls[0].json["messages"][-1]["content"]
    assert bad in sent and unrelated not in sent


def test_a_name_is_referred_to_by_its_initials_or_its_head_but_not_by_the_word_who():
    from ragmeter.text import nlp
    from ragmeter.judges.local.chunk_relevance import referred
    from ragmeter.judges.local.question_focus import question_focus

    who = question_focus("Where are the headquarters of the World Health Organization?")
    assert who.phrases == (("world", "health", "organization"),)
    sentences = nlp.analyse(["The WHO is based in Geneva, Switzerland."])[0].sentences
    assert referred(who, sentences) == {"world", "health", "organization"}
    lowercase = nlp.analyse(["Doctors who work in Geneva are well paid."])[0].sentences
    assert referred(who, lowercase) == frozenset()
    reef = question_focus("Where is the Great Barrier Reef located?")
    assert referred(reef, nlp.analyse(["The reef lies in the Coral Sea off Queensland."])[0].sentences) == {
        "great", "barrier", "reef"}
    uk = question_focus("When does daylight saving time end in the UK?")
    assert uk.acronyms == {"uk"}
    assert referred(uk, nlp.analyse(["In the United Kingdom the clocks go back in October."])[0].sentences) == {"uk"}


@pytest.mark.parametrize(("sentence", "says_when"), [
    ("It was finished in March 1889 for the World's Fair.", True),
    ("The clocks go back on the last Sunday in October.", True),
    ("The tower is repainted every seven years.", False),
    ("Construction took two years.", False),
])
def test_a_date_question_is_answered_by_a_point_in_time_not_a_length_of_time(sentence, says_when):
    from ragmeter.text import nlp
    from ragmeter.judges.local.chunk_relevance import holds_answer
    from ragmeter.judges.local.question_focus import question_focus

    asks = question_focus("When was the Eiffel Tower completed?")
    assert holds_answer(asks, nlp.analyse([sentence])[0].sentences[0], asks.focus) is says_when


def test_explanations_are_causal_clauses_and_purposes_of_the_focus_verb():
    from ragmeter.judges.local.chunk_relevance import explanations

    sentences = ["As days shorten, trees stop producing chlorophyll.", "Cats purr to signal contentment.",
                 "Inflation happens when demand grows faster than supply.", "Cats purr at 25 to 150 hertz.",
                 "Lions roar instead of purring."]
    assert explanations(sentences, ["cats", "purr"]) == set(sentences[:3])


def test_meaning_credit_is_linear_between_the_floor_and_full_cosine():
    from ragmeter.judges.local.chunk_relevance import meaning_credit

    assert [meaning_credit(c) for c in (0.1, 0.25, 0.5, 0.75, 0.9)] == [0.0, 0.0, 0.5, 1.0, 1.0]


def test_focus_said_otherwise_counts_in_an_answering_sentence_but_a_missing_name_does_not():
    from ragmeter.judges.local.chunk_relevance import ChunkRelevanceScorer

    scorer = ChunkRelevanceScorer()
    light, about_light = scorer.relevance("How long does it take light from the Sun to reach Earth?", [
        "Sunlight travels about 150 million kilometres to our planet and arrives roughly 8 minutes and 20 "
        "seconds after leaving the solar surface.",
        "Light from the Sun reaches Earth as visible light, ultraviolet and infrared radiation."])
    assert light.signals.presence > light.signals.spelled
    assert "counting the words it says otherwise" in light.reason
    assert light.relevance > about_light.relevance
    # "nhl" is a name (word weight >= 0.8): college hockey does not stand in for it
    nhl, college = scorer.relevance("average age of nhl teams", [
        "The average NHL player is 27 years old.",
        "The average age of college hockey freshmen is 20 years old."])
    assert college.signals.presence < 1.0
    assert nhl.relevance > college.relevance
