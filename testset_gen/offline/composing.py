"""Helpers the recipes share: whether two statements are distinct, whether a question gives
its answer away, the subject a statement is about, and a page's name added to a question."""

from __future__ import annotations

import re
from typing import Any
from ragmeter.text.nlp import normalise_text
from testset_gen.offline.doc_questions import names_page
from testset_gen.offline.questions import Question
from testset_gen.offline.chunk_reading import ChunkQuestions, source_sentence


def distinct(a: Question, b: Question) -> bool:
    """Two questions from different statements, neither giving the other's answer away."""
    if normalise_text(a.statement) == normalise_text(b.statement):
        return False
    wa, wb = set(normalise_text(a.statement).split()), set(normalise_text(b.statement).split())
    if wa <= wb or wb <= wa:
        return False
    return a.answer_norm != b.answer_norm


def gives_away(question: str, *answers: str) -> bool:
    low = question.lower()
    return any(a and re.search(r"\b" + re.escape(a.lower()) + r"\b", low) for a in answers)


def subject_of(q: Question) -> str:
    """The name a question's statement is about, as the source sentence must write it."""
    return q.topic if q.role == "object" else q.answer


def written_in(q: Question, cq: ChunkQuestions) -> bool:
    """The statement's subject is written in its source sentence (not a resolved "he")."""
    subject = subject_of(q)
    return bool(subject) and subject.lower() in source_sentence(q.statement, cq.sentences).lower()


def on_page(cq: ChunkQuestions, q: Question, text: str) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """"What do Beta WebSockets always reject ...?" on the OpenAI library's README asks about
    that library's WebSockets: on a page with a name (``page_subject``), a question about
    something the page's name is not part of says which page ("... in the OpenAI Python API
    library?"), and the page goes into the metadata. Only a plural of several words: a kind
    of thing the page has ("Beta WebSockets", "X.509 API requests"); a single name stands
    alone ("What is MessagePack licensed under?" on the msgpack page), as do definitions and
    people. A name after "the" is a part of the page too ("the Developer Interface" of the
    HTTPX README, "the SSLAdapter" of requests-toolbelt's: "What does the Developer Interface
    provide?" was rated not standalone)."""
    words = q.topic.split()
    part = len(words) >= 2 and words[0].lower() == "the" and words[1][:1].isupper()
    if (not cq.page or q.role != "object" or q.wh == "define" or q.topic_label == "PERSON"
            or (not part and (len(words) < 2 or not words[-1].endswith("s") or words[-1].endswith("ss")))
            or names_page(text, cq.page) or not text.endswith("?")):
        return text, ()
    return f"{text[:-1]} in {cq.page}?", (("page", cq.page),)


def topic_of(cq: ChunkQuestions, q: Question) -> str:
    return cq.names.get(q.topic_norm, q.topic_norm) if q.topic_norm else ""


def dated_questions(cq: ChunkQuestions) -> list[Question]:
    """Statements that date one event to one year, with a clause to name the event by."""
    return [q for q in [*cq.questions, *cq.births] if q.role == "object" and q.year is not None
            and q.remainder and q.inverted and q.topic]


def same_subject(a: Question, ca: ChunkQuestions, b: Question, cb: ChunkQuestions) -> bool:
    """Both statements are about one named thing (the graph's canonical name for each)."""
    ta, tb = topic_of(ca, a), topic_of(cb, b)
    return bool(ta) and ta == tb


def comparable(a: Question, b: Question) -> bool:
    """Like things dated by the same passive verb ("X was founded in 1990", "Y was founded
    in 1962"): a comparison a reader would ask ("Which was founded first: X or Y?").
    Things of different kinds, or events of different verbs, make contrived questions
    ("Which happened first: Lagunov was born or the Highlanders were renamed?")."""
    return (bool(a.passive) and a.passive == b.passive and bool(a.topic_label)
            and a.topic_label == b.topic_label and a.kind == b.kind and a.topic_norm != b.topic_norm
            and a.topic.lower() not in b.topic.lower() and b.topic.lower() not in a.topic.lower())
