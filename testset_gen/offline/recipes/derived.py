"""reasoning and multi_context by derivation: a span's length, the years between two dated
statements about one subject, which of two like things came first."""

from __future__ import annotations

import random
from typing import Any, Sequence
from testset_gen.offline.questions import MEDIA_NOUNS, Question, date_preposition
from testset_gen.offline.record_filter import two_clauses
from testset_gen.offline.candidate import BIRTH, Candidate
from testset_gen.offline.chunk_reading import ChunkQuestions, source_sentence
from testset_gen.offline.composing import comparable, dated_questions, distinct, gives_away, same_subject, subject_of
from testset_gen.offline.recipes.encyclopaedic import shared_title, work_title


def derived_questions(evolution: str, a: Question, ca: ChunkQuestions, b: Question,
             cb: ChunkQuestions) -> list[Candidate]:
    """Questions whose answer is computed from two dated statements, never stated. ``a``
    and ``b`` may come from one chunk (reasoning) or from two (multi_context: neither chunk
    alone answers). Two kinds, and only these, so the compared things always belong
    together: the years between two events of ONE subject ("How many years after Marie
    Curie was born in Warsaw did Marie Curie move to Paris?"), and which of two like things
    came first by the same verb ("Which was founded first: X or Y?")."""
    if a.year == b.year or not distinct(a, b):
        return []
    same = same_subject(a, ca, b, cb)
    if not same and not comparable(a, b):
        return []
    for q, cq in ((a, ca), (b, cb)):  # each statement whole and as its sentence says it
        sentence = source_sentence(q.statement, cq.sentences)
        if q.topic.lower() not in sentence.lower() or two_clauses(q.remainder, q.statement):
            return []
    pairs = sorted(((a, ca), (b, cb)), key=lambda p: p[0].year)  # type: ignore[arg-type, return-value]
    (early, ce), (late, cl) = pairs
    ids = tuple(dict.fromkeys((ce.chunk_id, cl.chunk_id)))
    sources = [source_sentence(early.statement, ce.sentences),
               source_sentence(late.statement, cl.sentences)]
    diff = late.year - early.year  # type: ignore[operator]
    if same:
        question = f"How many years after {early.remainder} {late.inverted}?"
        if gives_away(question, early.answer, late.answer):
            return []
        return [Candidate(evolution, question,
                           f"{diff} years. {early.statement} {late.statement}", ids, (
            ("answer", f"{diff} years"), ("template", "years_between"),
            ("source_sentences", sources)), subject=early.topic, derived="years_between")]
    # the options in alphabetical order, so their order says nothing
    first, second = sorted((early.topic, late.topic), key=str.lower)
    wh = "Who" if early.topic_label == "PERSON" else "Which"
    question = f"{wh} {early.passive} first: {first} or {second}?"
    question = question[:1] + question[1:].replace(" The ", " the ")
    if gives_away(question, early.answer, late.answer):
        return []
    answer = early.topic[:1].upper() + early.topic[1:]
    return [Candidate(evolution, question,
                       f"{answer} first ({early.answer}); {late.topic} "
                       f"{date_preposition(late.answer)} {late.answer}. "
                       f"{early.statement} {late.statement}", ids, (
        ("answer", early.topic), ("template", "which_first"),
        *((("compared", BIRTH),) if early.kind else ()),
        ("source_sentences", sources)), rank=1, subject=early.topic, derived="first")]


def span_questions(cq: ChunkQuestions) -> list[Candidate]:
    """"For how many years did John Smith serve as governor?" from "... from 1990 to 1995":
    a duration computed from the two years of one statement."""
    out = []
    for q in cq.questions:
        if q.span_years is None:
            continue
        text = q.text
        if q.topic:
            text = text.replace(q.topic, cq.full_name(q.topic), 1)
        out.append(Candidate("reasoning", text, f"{q.answer}. {q.statement}", (cq.chunk_id,), (
            ("answer", q.answer), ("template", "span_years"),
            ("source_sentences", [source_sentence(q.statement, cq.sentences)])),
            subject=subject_of(q), derived="span", subject_label=cq.subject_label(q)))
    return out


def reasoning_questions(cq: ChunkQuestions) -> list[Candidate]:
    """Derived questions of one chunk: a duration of one statement, or the years between
    two dated statements about one subject."""
    dated = dated_questions(cq)
    out: list[Candidate] = span_questions(cq)
    for i, a in enumerate(dated):
        for b in dated[i + 1:]:
            if same_subject(a, cq, b, cq):
                out += derived_questions("reasoning", a, cq, b, cq)
    return out


def dated_comparisons(chunks: Sequence[ChunkQuestions], rng: random.Random,
                 limit: int, corpus: str = "") -> list[Candidate]:
    """Comparisons of like things ("Which was founded first: X or Y?", "Which film came
    out first: X or Y?"): dated statements grouped by verb and by the subject's entity
    label, dated definitions by the kind of work; pairs drawn at random (seeded), at most
    ``limit``. A pair from two chunks is multi_context, from one chunk reasoning."""
    groups: dict[tuple[str, str], list[tuple[Question, ChunkQuestions]]] = {}
    for cq in chunks:
        for q in dated_questions(cq):
            if q.passive and q.topic_label:
                # people by what they are ("actor"): "Who was born first: X or Y?" of two
                # actors, never of a footballer and a psychiatrist
                key = ("born", q.kind) if q.kind else (q.passive, q.topic_label)
                groups.setdefault(key, []).append((q, cq))
        for q in cq.questions:
            if q.wh == "define" and q.made_year is not None and q.kind in MEDIA_NOUNS:
                groups.setdefault(("made", q.kind), []).append((q, cq))
    pairs = interleaved([[(x, y) for i, x in enumerate(members) for y in members[i + 1:]]
                          for members in groups.values()], rng)
    out: list[Candidate] = []
    across = 0
    for (a, ca), (b, cb) in pairs:
        # both in one chunk: derived from one context, a reasoning question (few: all kept)
        kind = "reasoning" if ca.chunk_id == cb.chunk_id else "multi_context"
        if kind == "multi_context":
            if across >= limit:
                continue
            across += 1
        out += made_first(kind, a, ca, b, cb, corpus) if a.wh == "define" else derived_questions(
            kind, a, ca, b, cb)
    return out


def interleaved(groups: "list[list[Any]]", rng: random.Random) -> "list[Any]":
    """Each group shuffled, then one from each in turn: births give hundreds of pairs where
    films give a few, and drawn from one shuffled list they crowded every other kind of
    comparison out of the ``limit``."""
    for g in groups:
        rng.shuffle(g)
    rng.shuffle(groups)
    out: list[Any] = []
    for k in range(max((len(g) for g in groups), default=0)):
        out.extend(g[k] for g in groups if k < len(g))
    return out


def made_first(evolution: str, a: Question, ca: ChunkQuestions, b: Question,
                cb: ChunkQuestions, corpus: str = "") -> list[Candidate]:
    """"Which film came out first: Crimson Peak or White Nights?" from two definitions that
    date works of one kind ("a 2015 American gothic romance film", "a 1985 American drama
    film"): a comparison of like things that needs both chunks."""
    if a.made_year == b.made_year or a.topic_norm == b.topic_norm:
        return []
    (early, ce), (late, cl) = sorted(((a, ca), (b, cb)), key=lambda p: p[0].made_year)  # type: ignore[arg-type, return-value]
    sources = [source_sentence(early.statement, ce.sentences),
               source_sentence(late.statement, cl.sentences)]
    if any(q.topic.lower() not in s.lower() for q, s in ((early, sources[0]), (late, sources[1]))):
        return []
    if any(shared_title(q.topic, q.made_year, s, corpus)  # type: ignore[arg-type]
           for q, s in ((early, sources[0]), (late, sources[1]))):
        return []  # "Ghostbusters" (2016) against a film of 2002: the 1984 one came first
    first, second = sorted((early.topic, late.topic), key=str.lower)
    question = f"Which {early.kind} came out first: {first} or {second}?"
    question = question[:1] + question[1:].replace(" The ", " the ")
    name = work_title(early.topic)  # a work's title keeps its "The" ("The Big Lebowski")
    return [Candidate(evolution, question,
                       f"{name} first ({early.made_year}); {work_title(late.topic)} in "
                       f"{late.made_year}. "
                       f"{early.statement} {late.statement}",
                       tuple(dict.fromkeys((ce.chunk_id, cl.chunk_id))), (
        ("answer", early.topic), ("template", "which_first"), ("compared", early.kind),
        ("source_sentences", sources)), rank=1, subject=early.topic, derived="first")]
