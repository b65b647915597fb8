"""The local judge on short answers, refusals and answers said in other words, through
``evaluate`` as a user runs it:

* a one-phrase answer of the expected kind to a one-part question addresses it as the full
  sentence does ("The Seine." to "What river runs through Paris?"); a bare phrase of another
  kind ("Yes.", "In 1989." to "Who wrote Hamlet?") does not;
* a refusal addresses nothing, and never outscores an answer to the same question;
* a passage saying the question's predicate with another verb ("flows" for "runs") and naming
  an instance of the class asked for ("the Seine" for "what river") is relevant; for why and
  what-causes questions, a passage stating a cause beats one that only shares the topic.
"""

from __future__ import annotations

import pytest

from ragmeter import evaluate
from ragmeter.judges.local.question_focus import question_focus
from ragmeter.judges.local.question_parts import question_parts

REFUSALS = ["I'm sorry, I can't help with that.", "I don't have enough information to answer that."]

# question, the full sentence, the one-phrase answer, bare phrases of another kind
SHORT = [
    ("What river runs through Paris?", "The Seine runs through Paris.", "The Seine.", ["Yes.", "In 1989."]),
    ("Who wrote Hamlet?", "William Shakespeare wrote Hamlet.", "Shakespeare.", ["In 1989.", "Yes."]),
    ("When did the Berlin Wall fall?", "The Berlin Wall fell in 1989.", "In 1989.", ["Shakespeare.", "Yes."]),
    ("How tall is Mount Everest?", "Mount Everest is 8,849 metres tall.", "8,849 metres.", ["The Seine.", "Yes."]),
]

# question, the passage that answers it, the passage that only shares its topic
PASSAGES = [
    ("What river runs through Paris?", "The Seine flows through the heart of Paris.",
     "Paris is famous for its cafes and museums."),
    ("What causes the northern lights?",
     "Auroras occur when charged particles from the solar wind collide with gases in the upper atmosphere.",
     "The northern lights are a popular tourist attraction in Norway, Finland and Iceland during winter."),
    ("Why did the Titanic sink?",
     "The Titanic sank after striking an iceberg, which tore open several of its watertight compartments.",
     "The Titanic was famous for its luxury, with a grand staircase, a swimming pool and elegant first-class cabins."),
]


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


def _rows():
    rows = []
    for question, full, phrase, wrong in SHORT:
        rows += [{"question": question, "answer": a, "contexts": ["-"]} for a in (full, phrase, *wrong, *REFUSALS)]
    for question, relevant, negative in PASSAGES:
        rows += [{"question": question, "answer": "-", "contexts": [c]} for c in (relevant, negative)]
    return rows


def _scores(rows):
    result = evaluate(rows, ["answer_relevancy", "context_relevance"], judge="local", show_progress=False,
                      journal=False)
    return [(s.scores["answer_relevancy"].value, s.scores["context_relevance"].value) for s in result.samples]


@pytest.fixture(scope="module")
def scored(minilm):
    return _scores(_rows())


def _answers(scored):
    per = 2 + 2 + len(REFUSALS)
    k = 0
    for question, full, phrase, wrong in SHORT:
        values = [a for a, _ in scored[k : k + per]]
        k += per
        yield question, values[0], values[1], values[2:4], values[4:]


def test_a_one_phrase_answer_of_the_expected_kind_addresses_the_question_as_the_sentence_does(scored):
    answers = list(_answers(scored))
    assert len(answers) == len(SHORT) >= 4
    for question, full, phrase, wrong, refusals in answers:
        assert phrase >= 0.8 and full >= 0.8, (question, phrase, full)
        assert abs(phrase - full) <= 0.1, (question, phrase, full)


def test_a_bare_phrase_of_another_kind_does_not_address_it(scored):
    answers = list(_answers(scored))
    assert sum(len(wrong) for _, _, _, wrong, _ in answers) == 2 * len(SHORT)
    for question, full, phrase, wrong, refusals in answers:
        assert all(w <= 0.05 for w in wrong), (question, wrong)


def test_a_refusal_addresses_nothing_and_never_outscores_an_answer(scored):
    answers = list(_answers(scored))
    assert [len(refusals) for *_, refusals in answers] == [len(REFUSALS)] * len(SHORT)
    for question, full, phrase, wrong, refusals in answers:
        assert refusals == [0.0, 0.0], (question, refusals)
        assert all(r < min(full, phrase) for r in refusals)


def test_a_passage_saying_the_answer_in_other_words_beats_one_sharing_the_topic(scored):
    k = len(SHORT) * (2 + 2 + len(REFUSALS))
    relevance = [c for _, c in scored[k:]]
    (seine, cafes), (auroras, tourists), (iceberg, luxury) = zip(relevance[::2], relevance[1::2])
    # "flows" says "runs", and the Seine is the river asked for
    assert seine >= 0.8 and cafes <= 0.05
    # a cause of the focus ("occur when", "sank after striking") against the topic alone
    assert auroras > tourists and tourists <= 0.01
    assert iceberg >= 0.5 and luxury <= 0.05


def test_the_class_noun_and_a_verb_the_tagger_reads_as_a_noun():
    assert [p.head for p in question_parts(["What river runs through Paris?", "Who wrote Hamlet?"])[0]] == ["river"]
    assert question_parts(["Who wrote Hamlet?"])[0][0].head == ""
    titanic = question_focus("Why did the Titanic sink?")
    assert titanic.predicate == "" and titanic.kind == "reason"
    assert "titanic" in titanic.nouns and "sink" not in titanic.nouns
    # a noun ending a question with no "do" before it stays a noun
    assert question_focus("What is the capital of France?").predicate == ""


def test_two_runs_give_identical_scores(scored):
    assert _scores(_rows()) == scored
