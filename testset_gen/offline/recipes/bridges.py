"""multi_context from a graph bridge: two chunks naming one entity, the entity described by
what one says and asked about with what the other says."""

from __future__ import annotations

import re
from dataclasses import replace
from testset_gen.offline.questions import descriptor
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.chunk_reading import ChunkQuestions, source_sentence
from testset_gen.offline.composing import dated_questions, distinct, gives_away, subject_of, topic_of, written_in
from testset_gen.offline.recipes.derived import derived_questions


def bridged_questions(a: ChunkQuestions, b: ChunkQuestions, entity: str) -> list[Candidate]:
    """Questions that need both chunks: the entity described by one and asked about by the
    other (a bridge, both ways round), or a derived comparison of a dated statement of
    each. Never two unrelated questions joined by "and"."""
    out: list[Candidate] = []
    for asker, teller in ((a, b), (b, a)):
        told = [q for q in teller.questions if q.role == "subject" and q.predicate
                and teller.names.get(q.answer_norm, q.answer_norm) == entity]
        # the entity as the question's topic ("Where was Marie Curie born?") or named inside
        # it ("Who was born in Warsaw?"), replaced by what the other chunk says it is
        for q in asker.questions:
            if q.role == "object" and topic_of(asker, q) == entity:
                if q.topic not in q.text:
                    continue
                start = q.text.index(q.topic)
                span, template = (start, start + len(q.topic)), "descriptor"
            elif q.answer_norm != entity and topic_of(asker, q) != entity:
                mention = re.search(r"\b" + re.escape(entity) + r"\b", q.text, flags=re.IGNORECASE)
                if mention is None:
                    continue
                span, template = mention.span(), "descriptor_in_question"
            else:
                continue
            after = q.text[span[1]:]
            if re.match(r"(?:'s|’s|\s+[A-Z0-9])", after) or re.search(r"[A-Z][\w'-]*\s+$",
                                                                    q.text[:span[0]]):
                continue  # inside a longer name: "New York's 21st congressional district"
            if not written_in(q, asker):
                continue
            for t in told:
                desc = descriptor(t.label, t.predicate)
                if (desc is None or "," in desc or not distinct(q, t) or not written_in(t, teller)
                        or len(desc.split()) > 10):
                    continue
                before = q.text[:span[0]]
                if before.lower().endswith("the "):  # "visit the Eiffel Tower": one "the"
                    before = before[:-4]
                question = before + desc + q.text[span[1]:]
                if gives_away(question, q.answer, t.answer):
                    continue
                out.append(Candidate("multi_context", question, f"{t.statement} {q.statement}",
                                      (asker.chunk_id, teller.chunk_id), (
                    ("answer", q.answer), ("bridge_entity", entity), ("template", template),
                    ("source_sentences", [source_sentence(q.statement, asker.sentences),
                                          source_sentence(t.statement, teller.sentences)])),
                    subject=subject_of(t), subject_label=t.label))
    for x in dated_questions(a):
        for y in dated_questions(b):
            for c in derived_questions("multi_context", x, a, y, b):
                out.append(replace(c, meta=c.meta + (("bridge_entity", entity),), rank=c.rank + 1))
    return out
