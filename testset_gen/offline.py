"""The offline generator (``judge="local"``): questions from the knowledge graph, no LLM.

Every question is built by rules from a statement in a chunk (``questions``), so every
answer is in its reference contexts by construction, and the same graph and seed give the
same records, byte for byte.

How each evolution is made without an LLM, and how far it goes:

* **simple**: one statement, one question ("When was the Eiffel Tower completed?"); the
  ground truth is the statement.
* **reasoning**: two statements of one chunk. When both date their event to a year, the
  question asks for the time between them, which the answer must compute ("How many years
  after Marie Curie was born in Warsaw did she move to Paris?"; ground truth "24 years.
  ..."). Otherwise two questions about the same subject are asked together ("Where was
  Marie Curie born, and what did she discover?"). This is multi-fact retrieval more than
  the inference an LLM-evolved reasoning question asks for.
* **conditional**: a question with another statement of the same chunk, about the same
  subject, given as its premise ("What did Marie Curie discover, given that she was born in
  Warsaw in 1867?"). The premise is true and on topic, but unlike an LLM's conditional it
  does not change what the answer is.
* **multi_context**: two chunks that name the same entity (``KnowledgeGraph.bridges``).
  The entity is described by what one chunk says of it and asked about with what the other
  says ("Where was the person who discovered polonium born?"); failing that, the two
  questions are asked together. Reference contexts: both chunks; ground truth: both
  statements.

Statements are the chunk's claims as ``ragmeter.local.claims`` cuts them: one clause each,
a leading pronoun replaced by its referent ("She won two Nobel Prizes." -> "Marie Curie won
two Nobel Prizes."), so that a question never depends on the sentence before it. When the
chunks do not give enough questions of a type, the records of that type are fewer, the
missing count is in ``OfflineResult.shortfall`` and a ``ShortfallWarning`` says so: the
other types are not padded to make up the size.

Cost: chunks are read in a seeded random order, a batch at a time, and reading stops once
every type has a few times the candidates it needs, so a large corpus is not parsed whole
for a small test set.
"""

from __future__ import annotations

import random
import re
import warnings
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ragmeter.local.nlp import normalise_entity, normalise_text

from testset_gen.dependency_parser import parse
from testset_gen.distribution import parse_distribution, plan_counts
from testset_gen.document import content_id
from testset_gen.graph import KnowledgeGraph
from testset_gen.questions import Question, descriptor, questions_from_sentence
from testset_gen.record import EVOLUTION_TYPES, TestsetRecord

BATCH = 32
"""Chunks read per step."""

OVERSUPPLY = 3
"""Candidates wanted per requested record of each type before reading stops."""


class ShortfallWarning(UserWarning):
    """The documents gave fewer questions of some evolution type than were asked for."""


@dataclass
class OfflineResult:
    """``records`` in evolution-type order; ``shortfall``: type -> records missing (only
    types that fell short); ``planned``: type -> records asked for; ``available``: type ->
    distinct candidates found in the chunks read."""

    records: list[TestsetRecord]
    shortfall: dict[str, int] = field(default_factory=dict)
    planned: dict[str, int] = field(default_factory=dict)
    available: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class _Candidate:
    evolution: str
    question: str
    ground_truth: str
    chunk_ids: tuple[str, ...]
    meta: tuple[tuple[str, Any], ...]
    rank: int = 0  # 0 for the better template of a type (time difference, descriptor)


# --- reading chunks ------------------------------------------------------------------


@dataclass
class _ChunkQuestions:
    chunk_id: str
    text: str
    questions: list[Question]
    sentences: list[str]
    names: dict[str, str]  # normalise_entity(surface) -> the graph's canonical norm
    labels: dict[str, str]  # canonical norm -> label


def _read(graph: KnowledgeGraph, chunk_ids: Sequence[str]) -> list[_ChunkQuestions]:
    """Questions of each chunk: its claims (one spaCy pass for all), each parsed and asked."""
    from ragmeter.local.claims import clauses_of

    texts = [graph.node(c)["text"] for c in chunk_ids]
    # one parse of each chunk serves both the clause rules and the sentence list
    chunk_docs = parse(texts)
    claims = [[cl.text for cl in cls if cl.kind == "claim"]
              for cls in clauses_of(texts, docs=chunk_docs)]
    flat = list(dict.fromkeys(t for cs in claims for t in cs))
    docs = dict(zip(flat, parse(flat)))
    out: list[_ChunkQuestions] = []
    for cid, text, cs, cdoc in zip(chunk_ids, texts, claims, chunk_docs):
        entities = graph.node(cid).get("entities", [])
        names = {normalise_entity(e["text"]): e["norm"] for e in entities}
        names.update({e["norm"]: e["norm"] for e in entities})
        labels = {e["norm"]: e["label"] for e in entities}
        qs: list[Question] = []
        for claim in cs:
            for sent in docs[claim].sents:
                qs.extend(questions_from_sentence(sent))
        out.append(_ChunkQuestions(cid, text, qs, [s.text.strip() for s in cdoc.sents],
                                   names, labels))
    return out


def _source_sentence(statement: str, sentences: Sequence[str]) -> str:
    """The chunk sentence a (possibly rewritten) statement comes from: most shared words."""
    words = set(normalise_text(statement).split())
    best, score = statement, 0.0
    for s in sentences:
        other = set(normalise_text(s).split())
        overlap = len(words & other) / max(1, len(words))
        if overlap > score:
            best, score = s, overlap
    return best


# --- composing -----------------------------------------------------------------------


def _pronoun(label: str, chunk_text: str) -> str | None:
    """The pronoun a second mention of a topic can take, when the chunk decides it: "it" for
    things; "she"/"he" for a person only if the chunk uses that pronoun and not the other."""
    if label and label != "PERSON" and label not in ("NORP",):
        return "it" if label in ("GPE", "LOC", "FAC", "ORG", "WORK_OF_ART", "EVENT",
                                 "PRODUCT", "LAW") else None
    if label != "PERSON":
        return None
    low = f" {chunk_text.lower()} "
    she = bool(re.search(r"\b(she|her|hers)\b", low))
    he = bool(re.search(r"\b(he|his|him)\b", low))
    if she != he:
        return "she" if she else "he"
    return None


def _second_mention(text: str, topic: str, pronoun: str | None) -> str:
    """``text`` with its first ``topic`` replaced by ``pronoun`` (when there is one)."""
    if not pronoun or topic not in text:
        return text
    return text.replace(topic, pronoun, 1)


def _lower_initial(text: str) -> str:
    """A question that is going inside another sentence loses its capital, not a name's."""
    first = text.split(" ", 1)[0]
    if first in ("Who", "What", "When", "Where", "Which", "How", "By", "Did", "Does", "Do",
                 "Was", "Is", "Were", "Are", "Has", "Have", "Had"):
        return text[:1].lower() + text[1:]
    return text


def _distinct(a: Question, b: Question) -> bool:
    """Two questions from different statements, neither giving the other's answer away."""
    if normalise_text(a.statement) == normalise_text(b.statement):
        return False
    wa, wb = set(normalise_text(a.statement).split()), set(normalise_text(b.statement).split())
    if wa <= wb or wb <= wa:
        return False
    return a.answer_norm != b.answer_norm


def _gives_away(question: str, *answers: str) -> bool:
    low = question.lower()
    return any(a and re.search(r"\b" + re.escape(a.lower()) + r"\b", low) for a in answers)


def _simple(cq: _ChunkQuestions) -> list[_Candidate]:
    out = []
    for q in cq.questions:
        out.append(_Candidate("simple", q.text, q.statement, (cq.chunk_id,), (
            ("answer", q.answer), ("wh", q.wh), ("template", f"{q.role}:{q.wh}"),
            ("source_sentences", [_source_sentence(q.statement, cq.sentences)]))))
    return out


def _topic(cq: _ChunkQuestions, q: Question) -> str:
    return cq.names.get(q.topic_norm, q.topic_norm) if q.topic_norm else ""


def _reasoning(cq: _ChunkQuestions) -> list[_Candidate]:
    out: list[_Candidate] = []
    objs = [q for q in cq.questions if q.role == "object"]
    dated = [q for q in objs if q.year is not None and q.remainder and q.inverted]
    for i, a in enumerate(dated):
        for b in dated[i + 1:]:
            if a.year == b.year or not _distinct(a, b):
                continue
            early, late = (a, b) if a.year < b.year else (b, a)  # type: ignore[operator]
            late_body = late.inverted
            if _topic(cq, early) and _topic(cq, early) == _topic(cq, late):
                late_body = _second_mention(late_body, late.topic,
                                            _pronoun(late.topic_label, cq.text))
            question = f"How many years after {early.remainder} {late_body}?"
            if _gives_away(question, early.answer, late.answer):
                continue
            diff = late.year - early.year  # type: ignore[operator]
            truth = f"{diff} years. {early.statement} {late.statement}"
            out.append(_Candidate("reasoning", question, truth, (cq.chunk_id,), (
                ("answer", f"{diff} years"), ("template", "years_between"),
                ("source_sentences", [_source_sentence(early.statement, cq.sentences),
                                      _source_sentence(late.statement, cq.sentences)]))))
    for i, a in enumerate(objs):
        for b in objs[i + 1:]:
            topic = _topic(cq, a)
            if not topic or topic != _topic(cq, b) or not _distinct(a, b):
                continue
            second = _second_mention(b.text, b.topic, _pronoun(b.topic_label, cq.text))
            question = f"{a.text[:-1]}, and {_lower_initial(second)}"
            if _gives_away(question, a.answer, b.answer):
                continue
            out.append(_Candidate("reasoning", question, f"{a.statement} {b.statement}",
                                  (cq.chunk_id,), (
                ("answer", f"{a.answer}; {b.answer}"), ("template", "two_facts"),
                ("source_sentences", [_source_sentence(a.statement, cq.sentences),
                                      _source_sentence(b.statement, cq.sentences)])), rank=1))
    return out


def _conditional(cq: _ChunkQuestions) -> list[_Candidate]:
    out: list[_Candidate] = []
    objs = [q for q in cq.questions if q.role == "object"]
    for q in objs:
        for cond in objs:
            topic = _topic(cq, q)
            if not topic or topic != _topic(cq, cond) or not _distinct(q, cond):
                continue
            if not cond.declarative.startswith(cond.topic):
                continue
            premise = _second_mention(cond.declarative, cond.topic,
                                      _pronoun(cond.topic_label, cq.text))
            question = f"{q.text[:-1]}, given that {premise}?"
            if _gives_away(question, q.answer):
                continue
            out.append(_Candidate("conditional", question, q.statement, (cq.chunk_id,), (
                ("answer", q.answer), ("condition", cond.statement),
                ("template", "given_that"),
                ("source_sentences", [_source_sentence(q.statement, cq.sentences),
                                      _source_sentence(cond.statement, cq.sentences)]))))
    return out


def _multi(a: _ChunkQuestions, b: _ChunkQuestions, entity: str) -> list[_Candidate]:
    """Questions that need both chunks: the entity described by one, asked about by the
    other (both ways round), or failing that two questions about it asked together."""
    out: list[_Candidate] = []
    for asker, teller in ((a, b), (b, a)):
        told = [q for q in teller.questions if q.role == "subject" and q.predicate
                and teller.names.get(q.answer_norm, q.answer_norm) == entity]
        # the entity as the question's topic ("Where was Marie Curie born?") or named inside
        # it ("Who was born in Warsaw?"), replaced by what the other chunk says it is
        for q in asker.questions:
            if q.role == "object" and _topic(asker, q) == entity:
                if q.topic not in q.text:
                    continue
                start = q.text.index(q.topic)
                span, template = (start, start + len(q.topic)), "descriptor"
            elif q.answer_norm != entity and _topic(asker, q) != entity:
                mention = re.search(r"\b" + re.escape(entity) + r"\b", q.text, flags=re.IGNORECASE)
                if mention is None:
                    continue
                span, template = mention.span(), "descriptor_in_question"
            else:
                continue
            for t in told:
                desc = descriptor(t.label, t.predicate)
                if desc is None or "," in desc or not _distinct(q, t):
                    continue
                question = q.text[:span[0]] + desc + q.text[span[1]:]
                if _gives_away(question, q.answer, t.answer):
                    continue
                out.append(_Candidate("multi_context", question, f"{t.statement} {q.statement}",
                                      (asker.chunk_id, teller.chunk_id), (
                    ("answer", q.answer), ("bridge_entity", entity), ("template", template),
                    ("source_sentences", [_source_sentence(q.statement, asker.sentences),
                                          _source_sentence(t.statement, teller.sentences)]))))
    qa = [q for q in a.questions if q.role == "object" and _topic(a, q) == entity]
    qb = [q for q in b.questions if q.role == "object" and _topic(b, q) == entity]
    out += _asked_together(a, b, qa, qb, entity, "two_facts", rank=1, pronouns=True)
    if out:
        return out
    # last resort: one question from each chunk that names the shared entity (in the
    # question or as its answer), asked together: in mixed corpora the name is rarely the
    # topic of both chunks
    ma = [q for q in a.questions if entity in q.text.lower() or entity in q.answer.lower()][:2]
    mb = [q for q in b.questions if entity in q.text.lower() or entity in q.answer.lower()][:2]
    return _asked_together(a, b, ma, mb, entity, "shared_mention", rank=2, pronouns=False)


def _asked_together(a: _ChunkQuestions, b: _ChunkQuestions, qa: Sequence[Question],
                    qb: Sequence[Question], entity: str, template: str, rank: int,
                    pronouns: bool) -> list[_Candidate]:
    """"<question about chunk a>, and <question about chunk b>?" for each distinct pair;
    with ``pronouns`` the second names the shared topic with a pronoun where one fits."""
    out: list[_Candidate] = []
    for x in qa:
        for y in qb:
            if not _distinct(x, y):
                continue
            second = y.text
            if pronouns:
                second = _second_mention(y.text, y.topic, _pronoun(y.topic_label, a.text + " " + b.text))
            question = f"{x.text[:-1]}, and {_lower_initial(second)}"
            if _gives_away(question, x.answer, y.answer):
                continue
            out.append(_Candidate("multi_context", question, f"{x.statement} {y.statement}",
                                  (a.chunk_id, b.chunk_id), (
                ("answer", f"{x.answer}; {y.answer}"), ("bridge_entity", entity),
                ("template", template),
                ("source_sentences", [_source_sentence(x.statement, a.sentences),
                                      _source_sentence(y.statement, b.sentences)])), rank=rank))
    return out


# --- choosing ------------------------------------------------------------------------


def _pick(candidates: Sequence[_Candidate], n: int, rng: random.Random,
          taken: set[str]) -> list[_Candidate]:
    """``n`` candidates spread over chunks: a seeded shuffle of the chunk groups, then one
    from each group in turn, so that no chunk supplies most of a type. Within a group the
    better template comes first, then shorter questions (by steps of 60 characters: long
    ones are mostly long because their statement is), in seeded random order otherwise."""
    groups: dict[tuple[str, ...], list[_Candidate]] = {}
    for c in candidates:
        groups.setdefault(c.chunk_ids, []).append(c)
    keys = sorted(groups)
    rng.shuffle(keys)
    for k in keys:
        rng.shuffle(groups[k])
        # best last: pop() takes from the end
        groups[k].sort(key=lambda c: (c.rank, len(c.question) // 60), reverse=True)
    picked: list[_Candidate] = []
    while len(picked) < n and any(groups[k] for k in keys):
        for k in keys:
            while groups[k]:
                c = groups[k].pop()
                if c.question in taken:
                    continue
                taken.add(c.question)
                picked.append(c)
                break
            if len(picked) == n:
                break
    return picked


def _record(c: _Candidate, graph: KnowledgeGraph, seed: int) -> TestsetRecord:
    chunks = [graph.chunk(i) for i in c.chunk_ids]
    return TestsetRecord(
        id=content_id(c.question, c.ground_truth, *c.chunk_ids, prefix="q-"),
        question=c.question,
        ground_truth=c.ground_truth,
        reference_contexts=[ch.text for ch in chunks],
        evolution_type=c.evolution,
        reference_context_ids=list(c.chunk_ids),
        sources=[ch.source_metadata() for ch in chunks],
        metadata={"generator": "offline", "seed": seed, **dict(c.meta)},
    )


def generate_offline(graph: KnowledgeGraph, size: int,
                     distribution: Mapping[str, float] | str | None = None,
                     seed: int = 0) -> OfflineResult:
    """``size`` records from ``graph`` by rules, in the shares of ``distribution``.

    ``distribution``: evolution type -> share (normalised; default simple 0.5, reasoning
    0.25, multi_context 0.25; the ``"simple=0.5,..."`` string form works too). Each type
    gets ``size x share`` records rounded by largest remainder (``plan_counts``), so it is
    within one record of its share. ``seed`` fixes every random choice (``random.Random``):
    the same graph and seed give identical records.

    Types the chunks cannot fill are reported in ``shortfall`` and by a
    ``ShortfallWarning``; the records are then fewer than ``size``.
    """
    shares = parse_distribution(distribution)
    planned = {t: n for t, n in plan_counts(size, shares).items() if n > 0}
    rng = random.Random(seed)
    order = graph.chunk_ids()
    rng.shuffle(order)
    bridges = graph.bridges()
    read: dict[str, _ChunkQuestions] = {}
    pools: dict[str, dict[str, _Candidate]] = {t: {} for t in EVOLUTION_TYPES}
    bridges_done: set[tuple[str, str, str]] = set()

    def enough() -> bool:
        return all(len(pools[t]) >= OVERSUPPLY * n for t, n in planned.items())

    for start in range(0, len(order), BATCH):
        if planned and enough():
            break
        batch = order[start:start + BATCH]
        for cq in _read(graph, batch):
            read[cq.chunk_id] = cq
            for c in _simple(cq) + _reasoning(cq) + _conditional(cq):
                pools[c.evolution].setdefault(c.question, c)
        if "multi_context" in planned:
            for br in bridges:
                key = (br.a, br.b, br.entity)
                if key in bridges_done or br.a not in read or br.b not in read:
                    continue
                bridges_done.add(key)
                for c in _multi(read[br.a], read[br.b], br.entity):
                    pools["multi_context"].setdefault(c.question, c)
        if not planned:
            break

    taken: set[str] = set()
    chosen: dict[str, list[_Candidate]] = {}
    # the scarcest kinds choose first, so that a question text is never spent on a
    # plentiful type that a scarce one needed
    for t in sorted(planned, key=lambda t: (len(pools[t]) - planned[t], EVOLUTION_TYPES.index(t))):
        chosen[t] = _pick(list(pools[t].values()), planned[t], rng, taken)
    records = [_record(c, graph, seed) for t in EVOLUTION_TYPES for c in chosen.get(t, [])]
    shortfall = {t: planned[t] - len(chosen.get(t, [])) for t in EVOLUTION_TYPES
                 if t in planned and len(chosen.get(t, [])) < planned[t]}
    if shortfall:
        detail = ", ".join(f"{t} {shortfall[t]} of {planned[t]} missing" for t in shortfall)
        warnings.warn(
            f"offline generator: the documents gave too few questions ({detail}); "
            f"{len(records)} of {size} records written. More or longer documents help; "
            "an LLM judge writes the kinds the rules cannot.", ShortfallWarning, stacklevel=2)
    return OfflineResult(records=records, shortfall=shortfall, planned=planned,
                         available={t: len(pools[t]) for t in EVOLUTION_TYPES})
