"""The local judge refuses, with a typed error, what its English models cannot read."""

from __future__ import annotations

import pytest

pytest.importorskip("py3langid")

from ragmeter import evaluate  # noqa: E402
from ragmeter.text.language import detect, unsupported_language  # noqa: E402

EINSTEIN = ("Albert Einstein (born 14 March 1879) was a German-born theoretical physicist, widely "
            "held to be one of the greatest scientists of all time.")
ENGLISH = {"question": "When and where was Einstein born?",
           "answer": "Einstein was born in Germany on 14 March 1879.",
           "contexts": [EINSTEIN, "Paris is the capital of France. It lies on the Seine."],
           "ground_truth": "Einstein was born in Germany on 14 March 1879."}
GERMAN = {"question": "Wann und wo wurde Albert Einstein geboren?",
          "answer": "Einstein wurde am 14. März 1879 in Ulm geboren, einer Stadt in Deutschland.",
          "contexts": ["Albert Einstein (geboren am 14. März 1879 in Ulm) war ein deutscher "
                       "theoretischer Physiker. Er gilt als einer der bedeutendsten Wissenschaftler."],
          "ground_truth": "Einstein wurde am 14. März 1879 in Ulm in Deutschland geboren."}
CHINESE = {"question": "爱因斯坦是什么时候出生的？",
           "answer": "爱因斯坦于1879年3月14日出生在德国乌尔姆。",
           "contexts": ["阿尔伯特·爱因斯坦（1879年3月14日出生于乌尔姆）是一位理论物理学家。"],
           "ground_truth": "爱因斯坦出生于1879年3月14日。"}
SUITE = ["faithfulness", "answer_relevancy", "context_precision", "context_recall",
         "context_relevancy", "context_entity_recall", "answer_correctness", "conciseness"]


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


def local(records, metrics=SUITE):
    return evaluate(records, metrics, judge="local", cache=False, journal=False, show_progress=False)


@pytest.mark.parametrize("text, name", [
    ("Einstein wurde am 14. März 1879 in Ulm geboren, einer Stadt in Deutschland.", "German"),
    ("Ich weiß es nicht.", "German"),
    ("Quelle est la capitale de la France ?", "French"),
    ("¿Cuál es la capital de Francia?", "Spanish"),
    ("我不知道", "Chinese"),
    ("爱因斯坦于1879年3月14日出生在德国乌尔姆。", "Chinese"),
    ("アインシュタインは1879年3月14日にウルムで生まれました。", "Japanese"),
    ("Альберт Эйнштейн родился 14 марта 1879 года в Ульме.", "Russian"),
])
def test_other_languages_are_detected(text, name):
    language = detect(text)
    assert (language.name, language.supported) == (name, False)


@pytest.mark.parametrize("text", [
    "Marie Curie", "Jürgen Klopp", "François Hollande", "São Paulo", "1879", "42%", "$3.5 million",
    "Paris.", "Yes.", "E = mc²", "def add(a, b):\n    return a + b", "SELECT name FROM users WHERE id = 42;",
    "https://example.org/docs/index.html", "Gilbert du Motier, Marquis de Lafayette",
    "The Place de la Concorde", "Die Zauberflöte was composed by Mozart in 1791.",
    'Angela Merkel said: "Wir schaffen das."', "Beijing (北京) is the capital of China.",
    "The dish is called pão de queijo.", "The answer is Kurt Gödel.", "Schadenfreude", "",
    EINSTEIN,
])
def test_short_or_mixed_english_is_never_refused(text):
    assert detect(text).supported, detect(text)


def test_a_long_text_is_judged_on_windows_of_it():
    german = "Der Eiffelturm ist ein Wahrzeichen und steht seit vielen Jahren in der Stadt. " * 200
    assert detect(german).name == "German"
    assert unsupported_language([EINSTEIN, german]).name == "German"
    assert unsupported_language([EINSTEIN, "1879", ""]) is None


def test_german_and_chinese_samples_get_unsupported_language_and_english_is_unaffected(minilm):
    alone = local([ENGLISH]).samples[0]
    english, german, chinese = local([ENGLISH, GERMAN, CHINESE]).samples
    assert SUITE and set(english.scores) == set(SUITE)
    for sample, name in ((german, "German"), (chinese, "Chinese")):
        for metric in SUITE:
            error = sample.scores[metric].error
            assert error is not None and error.kind == "UnsupportedLanguage", (metric, sample.scores[metric])
            assert name in error.message and "local+openai:MODEL" in error.message
            assert not error.transient
            assert sample.scores[metric].value is None
    for metric in SUITE:
        assert english.scores[metric].error is None, (metric, english.scores[metric])
        assert english.scores[metric].value == alone.scores[metric].value


def test_a_chinese_refusal_is_never_scored_relevant(minilm):
    refusals = [{"question": "爱因斯坦是什么时候出生的？", "answer": "我不知道"},
                {"question": "When was Einstein born?", "answer": "我不知道"}]
    samples = local(refusals, ["answer_relevancy"]).samples
    assert len(samples) == 2
    for sample in samples:
        score = sample.scores["answer_relevancy"]
        assert score.value is None and score.error.kind == "UnsupportedLanguage"
        assert "Chinese" in score.error.message


def test_names_numbers_and_code_in_english_samples_are_scored(minilm):
    short = [dict(ENGLISH, answer="14 March 1879, in Ulm."),
             dict(ENGLISH, question="Who developed the theory of relativity?", answer="Albert Einstein"),
             dict(ENGLISH, question="How do I add two numbers in Python?", answer="def add(a, b):\n    return a + b")]
    samples = local(short, ["faithfulness", "answer_relevancy", "context_recall"]).samples
    assert len(samples) == 3 and all(len(s.scores) == 3 for s in samples)
    for sample in samples:
        for metric, score in sample.scores.items():
            assert score.error is None or score.error.kind == "NoClaims", (metric, score)
