"""context_relevance for a question that names no kind of answer (yes/no, open): the chunk
that says what the question asks of its topic, read from the sentence encoder as the part of
the question's vector its topic words do not carry (``asked_similarity``)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from ragmeter.judges.local.chunk_relevance import ChunkRelevanceScorer, ChunkSignals, asked_similarity

# an open question; a chunk that says what happens, and one that only restates the topic
ECLIPSE_Q = "What happens during a solar eclipse?"
ECLIPSE_ANSWER = ("During a solar eclipse the Moon passes between the Sun and the Earth and blocks the Sun's "
                  "light, so the sky goes dark for a few minutes.")
ECLIPSE_TOPIC = ("A solar eclipse is a rare sight, and many people travel across the world to watch a solar "
                 "eclipse from the best spot.")


def test_asked_similarity_removes_the_part_of_the_cosine_the_topic_explains():
    q = np.array([1.0, 0.0, 0.0])
    t = np.array([0.6, 0.8, 0.0])  # q . t = 0.6
    assert asked_similarity(q, t, q) == pytest.approx(1.0 - 0.6 * 0.6)  # the question itself: 0.64
    assert asked_similarity(q, t, t) == pytest.approx(0.0)  # the topic alone says nothing asked
    assert asked_similarity(q, t, np.array([0.0, 1.0, 0.0])) == pytest.approx(-0.48)  # 0 - 0.6 x 0.8
    assert asked_similarity(q, t, np.array([0.0, 0.0, 1.0])) == pytest.approx(0.0)  # unrelated
    # a question that is all topic gives every passage 0
    assert asked_similarity(t, t, q) == pytest.approx(0.0)


def test_the_asked_term_is_centred_and_left_out_when_not_measured():
    base = ChunkSignals(coverage=0.5, focus=0.6, presence=1.0, evidence=1.0, best_sentence="", cosine=0.5)
    unmeasured = ChunkRelevanceScorer.combine(base)
    at_mid = ChunkRelevanceScorer.combine(dataclasses.replace(base, asked=ChunkRelevanceScorer.ASKED_MID))
    above = ChunkRelevanceScorer.combine(dataclasses.replace(base, asked=ChunkRelevanceScorer.ASKED_MID + 0.1))
    assert at_mid == unmeasured
    # 0.1 above the median weighs 3.2 logits
    z = np.log(above / (1 - above)) - np.log(unmeasured / (1 - unmeasured))
    assert z == pytest.approx(3.2)


def test_an_open_question_prefers_the_chunk_that_says_what_is_asked(minilm):
    scorer = ChunkRelevanceScorer()
    answer, topic = scorer.relevance(ECLIPSE_Q, [ECLIPSE_ANSWER, ECLIPSE_TOPIC])
    assert answer.signals.asked is not None and topic.signals.asked is not None
    assert answer.signals.asked > ChunkRelevanceScorer.ASKED_MID > topic.signals.asked
    # both lack "happens" and neither holds a kind of answer: without the term both fall below
    # 0.5 (0.48 and 0.38); with it the chunk saying what happens is relevant and the other not
    assert answer.relevance > 0.5 > topic.relevance
    without = [scorer.combine(dataclasses.replace(j.signals, asked=None)) for j in (answer, topic)]
    assert 0.5 > without[0] > without[1]
    assert answer.reason.endswith(f"; it says what the question asks beyond its topic (asked "
                                  f"{answer.signals.asked:.2f})")
    assert "; it does not say what the question asks beyond its topic" in topic.reason


def test_asked_is_measured_only_for_untyped_questions_and_with_the_encoder(minilm):
    typed = ChunkRelevanceScorer().relevance("When did the Berlin Wall fall?", [
        "The Berlin Wall fell on the night of 9 November 1989."])
    assert typed[0].signals.asked is None  # its answer type (a date) says what is asked
    lexical = ChunkRelevanceScorer(embeddings=False).relevance(ECLIPSE_Q, [ECLIPSE_ANSWER])
    assert lexical[0].signals.asked is None
