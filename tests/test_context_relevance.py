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
    # two known limits: "The word ephemeral is often used..." passes for a definition (the
    # focus followed by "is"), and a passage naming Criss's mother in another role is close
    # to the question by cosine; both negatives stay below their answer but above 0.5
    negatives = [s.scores["context_relevance"].verdicts["chunks"][1]["relevant"] for s in result.samples]
    assert negatives == [False, False, False, True, False, True]


@pytest.mark.parametrize(("question", "kind", "head", "focus"), [
    ("What county is Ackley, Iowa in?", "place", "county", ("ackley", "iowa")),
    ("what causes gall bladder infections?", "reason", "", ("gall", "bladder", "infections")),
    ("elegxo meaning", "definition", "", ("elegxo",)),
    ("how much does a ballet dancer make", "money", "", ("ballet", "dancer")),
    ("when did the berlin wall fall", "date", "", ("berlin", "wall", "fall")),
    ("which protein structure is an alpha helix?", "category", "structure", ("protein", "alpha", "helix")),
    ("is frida kahlo mexican", "yesno", "", ("frida", "kahlo", "mexican")),
])
def test_question_focus_names_the_expected_answer_and_the_topic(question, kind, head, focus):
    from ragmeter.local.question_focus import question_focus

    asks = question_focus(question)
    assert (asks.kind, asks.head, asks.focus) == (kind, head, focus)


def test_cascade_sends_only_the_uncertain_chunk_to_the_llm(server):
    question, good, bad = HARD_NEGATIVES[5]  # the negative's local relevance is 0.75
    result = evaluate([{"question": question, "contexts": [good, bad]}], ["context_relevance"],
                      judge=f"local+openai:mock-judge@{server.base_url}", judge_options={"band": (0.25, 0.8)},
                      show_progress=False, journal=False)
    chunks = result.samples[0].scores["context_relevance"].verdicts["chunks"]
    assert chunks[0]["reason"].startswith("local relevance")  # sure: kept local
    assert chunks[1] == {"rank": 2, "relevance": 1.0, "relevant": True, "reason": "holds 75% of the question's words"}
    calls = server.calls("/chat/completions")
    assert len(calls) == 1
    sent = calls[0].json["messages"][-1]["content"]
    assert bad in sent and good not in sent
