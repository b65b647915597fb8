"""simple: one statement of a chunk asked as written ("When was the Eiffel Tower completed?")."""

from __future__ import annotations

from testset_gen.offline.candidate import Candidate
from testset_gen.offline.chunk_reading import ChunkQuestions, source_sentence
from testset_gen.offline.composing import on_page, subject_of


def simple_questions(cq: ChunkQuestions) -> list[Candidate]:
    out = []
    for q in cq.questions:
        if q.span_years is not None:
            continue  # a computed duration: a reasoning question
        text = q.text
        if q.role == "object" and q.topic and q.topic in text:
            # a surname alone is not standalone: "How many songs has Harrison written?"
            text = text.replace(q.topic, cq.full_name(q.topic), 1)
        text, page = on_page(cq, q, text)
        out.append(Candidate("simple", text, q.statement, (cq.chunk_id,), (
            ("answer", q.answer), ("wh", q.wh), ("template", f"{q.role}:{q.wh}"),
            ("source_sentences", [source_sentence(q.statement, cq.sentences)])) + page,
            subject=subject_of(q), subject_label=cq.subject_label(q),
            rank=1 if q.wh == "define" else 0))  # a definition only when nothing else
    return out
