"""The local judge reads each text once per model: spaCy docs shared by ``nlp.analyse`` and
``nlp.parse``, MiniLM sentence rows and word vectors from one forward pass."""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from ragmeter.text import nlp  # noqa: E402
from ragmeter.text import clear_caches  # noqa: E402

TEXT = "Marie Curie was born in Warsaw in 1867 and won two Nobel Prizes."


@pytest.fixture
def piped(monkeypatch):
    """The texts the shared spaCy pipeline is given, in order (a spy on its ``pipe``)."""
    pipeline = nlp.load_nlp()
    seen: list[str] = []
    original = pipeline.pipe

    def pipe(texts, **options):
        texts = list(texts)
        seen.extend(texts)
        return original(texts, **options)

    monkeypatch.setattr(pipeline, "pipe", pipe)
    clear_caches()
    yield seen
    clear_caches()


def test_a_parsed_text_is_analysed_from_its_doc(piped):
    doc = nlp.parse([TEXT])[0]
    analysis = nlp.analyse([TEXT])[0]
    assert piped == [TEXT]
    clear_caches()
    assert nlp.analyse([TEXT])[0] == analysis  # what a pipe of its own gives
    assert analysis.named and {"Marie Curie", "Warsaw"} <= {e.text for e in analysis.entities}
    assert {"Marie Curie", "Warsaw"} <= {e.text for e in doc.ents}


def test_an_analysed_text_is_parsed_from_its_doc(piped):
    analysis = nlp.analyse([TEXT])[0]
    doc = nlp.parse([TEXT])[0]
    assert piped == [TEXT]
    assert [t.lemma_ for t in doc] == [t.lemma_ for t in nlp.load_nlp()(TEXT)]
    assert analysis.named


def test_an_analysis_without_entities_leaves_the_parse_its_own_pipe(piped):
    nlp.analyse([TEXT], entities=False)
    doc = nlp.parse([TEXT])[0]
    assert piped == [TEXT, TEXT]  # the first pipe ran without the recogniser
    assert [e.text for e in doc.ents]


def test_sentence_rows_are_the_models_own_and_come_with_word_vectors(minilm):
    from ragmeter.judges.local.token_encoder import TokenEncoder
    from ragmeter.judges.local.verifier import SentenceEncoder

    tokens = TokenEncoder()
    encoder = SentenceEncoder(tokens=tokens)
    long = " ".join(["Warsaw was then part of the Russian Empire."] * 20)  # over 128 tokens
    texts = [TEXT, "Who discovered polonium?", long, "  "]
    rows = encoder.encode(texts)
    expected = minilm.encode(texts[:3], normalize_embeddings=True)
    assert np.abs(rows[:3] - expected).max() < 1e-6
    assert not rows[3].any()  # blank: a zero row
    # the short texts' rows are their word encodings' pooled rows: one pass gave both
    short = tokens.encode(texts[:2])
    assert all(np.array_equal(row, e.pooled) and e.whole for row, e in zip(rows, short))
    assert [len(e.words) for e in short] == [14, 4]  # the full stop and question mark are words
    # the long one was cut in the word encoder's window: its row came from the model's own
    assert tokens.fits(texts[:3]) == [True, True, False]
    assert not tokens.encode([long])[0].whole


def test_a_sentence_encoder_refuses_a_word_encoder_of_another_model():
    from ragmeter.judges.local.token_encoder import TokenEncoder
    from ragmeter.judges.local.verifier import SentenceEncoder

    with pytest.raises(ValueError, match="word encoder reads"):
        SentenceEncoder(model="/elsewhere", tokens=TokenEncoder())
