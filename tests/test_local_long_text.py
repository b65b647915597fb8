"""A text over spaCy's 1,000,000-character limit is read in pieces and touches no other sample."""

from __future__ import annotations

import pytest

pytest.importorskip("spacy")

from ragmeter import evaluate  # noqa: E402
from ragmeter.text import nlp  # noqa: E402

EINSTEIN = ("Albert Einstein (born 14 March 1879) was a German-born theoretical physicist, widely "
            "held to be one of the greatest scientists of all time.")
SENTENCE = "The committee met again and discussed the budget of the regional library network. "
# over spaCy's limit, on one line (a line break would already split it); one sentence
# repeated, so its pieces are the same text and spaCy reads only a couple of them
LONG = (SENTENCE * (1_050_000 // len(SENTENCE) + 1))[:1_050_000]
METRICS = ["faithfulness", "context_recall"]


def record(i: int, context: str = EINSTEIN) -> dict:
    return {"question": "When and where was Einstein born?",
            "answer": "Einstein was born in Germany on 14 March 1879.",
            "contexts": [context, f"Paris is the capital of France. Note {i}."],
            "ground_truth": "Einstein was born in Germany on 14 March 1879."}


def test_pieces_cut_at_sentence_ends_and_lose_nothing():
    text = " ".join(f"Sentence number {k} ends here." for k in range(400))
    parts = nlp.pieces(text, limit=1_000)
    assert len(parts) > 10 and all(len(p) <= 1_000 for p in parts)
    assert all(p.endswith("ends here.") for p in parts)
    assert " ".join(parts) == text
    assert nlp.pieces("x" * 2_500, limit=1_000) == ["x" * 1_000, "x" * 1_000, "x" * 500]
    assert nlp.pieces("short", limit=1_000) == ["short"]


def test_a_text_over_the_parser_limit_is_analysed_whole():
    assert len(LONG) > nlp.load_nlp().max_length
    analysis = nlp.analyse([LONG], entities=False)[0]
    assert len(analysis.sentences) == LONG.count(". ") + 1
    assert analysis.sentences[0].text == SENTENCE.strip()


def test_a_text_over_the_parser_limit_is_parsed_in_pieces_joined_into_one_doc(monkeypatch):
    # the same path at a small scale: a 3,000-character limit, pieces of 1,000
    text = " ".join(f"Marie Curie won prize number {k} in Paris." for k in range(120))
    monkeypatch.setattr(nlp.load_nlp(), "max_length", 3_000)
    monkeypatch.setattr(nlp, "PIECE_CHARS", 1_000)
    assert len(text) > 3_000
    doc = nlp.parse([text])[0]
    assert len(list(doc.sents)) == 120
    assert [e.text for e in doc.ents if e.label_ == "PERSON"].count("Marie Curie") == 120
    assert doc.text.split() == text.split()


def test_the_long_sample_leaves_its_40_neighbours_scored_also_on_resume(minilm, tmp_path, monkeypatch):
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))
    records = [record(i) for i in range(20)] + [record(99, LONG)] + [record(i) for i in range(20, 40)]
    journal = tmp_path / "run.jsonl"
    runs = [evaluate(records, METRICS, judge="local", cache=False, journal=journal, show_progress=False)
            for _ in range(2)]
    for result in runs:
        assert len(result.samples) == 41
        for k, sample in enumerate(result.samples):
            for metric in METRICS:
                score = sample.scores[metric]
                assert score.error is None and score.value is not None, (k, metric, score)
        neighbours = [s for k, s in enumerate(result.samples) if k != 20]
        assert {s.scores["faithfulness"].value for s in neighbours} == {1.0}
        assert {s.scores["context_recall"].value for s in neighbours} == {1.0}
    first, second = ([s.scores[m].value for s in r.samples for m in METRICS] for r in runs)
    assert first == second
