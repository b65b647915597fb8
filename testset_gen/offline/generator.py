"""The offline generator (``judge="local"``): questions from the knowledge graph, no LLM.

Every question is built by rules from a statement in a chunk (``questions``), so every
answer is in its reference contexts by construction, and the same graph and seed give the
same records, byte for byte.

How each evolution is made without an LLM, and how far it goes:

* **simple**: one statement, one question ("When was the Eiffel Tower completed?"); the
  ground truth is the statement. A named subject defined by a copula is asked what (or
  who) it is ("What is the Oberoi Group?"), but definitions fill at most
  ``DEFINITION_SHARE`` of the simple records: encyclopaedic text opens every passage with
  one.
* **reasoning**: an answer computed from one chunk, never stated: the length of a span
  ("For how many years did John Smith serve as governor of Texas?" from "from 1990 to
  1995"), the years between two dated statements about ONE subject ("How many years after
  Marie Curie was born in Warsaw did Marie Curie move to Paris?"; ground truth "24 years.
  ..."), or which of two like things of the chunk came first (below). The filter
  recomputes the figure from the source sentences. On documentation pages: a stated Python
  floor asked about another version ("Can you use Rich with Python 3.7?" - "No. Rich
  requires Python 3.8 or later."), and a cause the page states ("Why is the context manager
  required in ...?" - "so that ..."; "Why can two reports be compared by eye in ragmeter?"
  - "The bins are the same in every report, so ..."); the filter checks the verdict and the
  connective.
* **multi_context**: two chunks. Either they name the same entity
  (``KnowledgeGraph.bridges``) and the entity is described by what one chunk says of it
  and asked about with what the other says ("Who was born in the capital of Poland in
  1867?"), or each dates a thing of the same kind by the same verb, and the question asks
  which came first ("Which was founded first: X or Y?", "Which film came out first:
  Crimson Peak or White Nights?"). Two unrelated events are never compared ("Which
  happened first: Lagunov was born or the Highlanders were renamed?" was rated
  contrived), a statement serves one derived question, and no two questions are joined
  by "and". Reference contexts: both chunks; ground truth: both statements. On
  documentation pages: two pages' licences or Python floors compared ("Which license do
  FastAPI and Typer both use?", "Which uses the MIT license: FastAPI or Transformers?",
  "Which requires a newer Python version: IDNA or Rich?", "What is the oldest Python
  version that works with both HTTPX and Rich?"), or one documentation question two pages
  answer alike ("What do you use to report a security vulnerability in both urllib3 and
  websockets?").
* **conditional**: not written (a premise made by rules narrows nothing); asked-for
  conditional records are a reported shortfall.

The mix: every record names its template (``metadata["template"]``); licence questions
fill at most ``LICENCE_SHARE`` of the size asked and each documentation template at most
``TEMPLATE_SHARE``, as definitions and birth comparisons are capped, so that no one kind of
question fills a set.

Statements are the chunk's claims as the local judge cuts them (one clause each,
``ragmeter.judges.local.clauses_of``). A claim whose subject came from resolving a pronoun is dropped by the filter: a
wrong resolution makes the ground truth false. Every candidate passes the checks of
``record_filter`` (rules, then the local judge on the ones picked; a rejected pick is
replaced from the pool); one record per statement. When the chunks do not give enough
questions of a type, the records of that type are fewer, the missing count is in
``OfflineResult.shortfall`` and a ``ShortfallWarning`` says so: the other types are not
padded to make up the size.

Cost: chunks are read in a seeded random order, a batch at a time, and reading stops once
every type has a few times the candidates it needs, so a large corpus is not parsed whole
for a small test set.
"""

from __future__ import annotations

import random
import re
import warnings
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping, Sequence

from ragmeter.text.nlp import normalise_entity, normalise_text

from ragmeter.text.syntax import parse
from testset_gen.distribution import parse_distribution, plan_counts
from testset_gen.offline.doc_questions import (DocQuestion, doc_questions, named_statement, names_page,
                                       python_support)
from testset_gen.documents.document import content_id
from testset_gen.graph.knowledge_graph import KnowledgeGraph
from testset_gen.offline.page_subject import page_names
from testset_gen.offline.questions import (DOCUMENT_NAME, MEDIA_NOUNS, PERSON_NOUNS, SOFTWARE_NAME,
                                   Question, date_preposition, descriptor, document_names,
                                   page_subjects, questions_from_sentence)
from testset_gen.record import EVOLUTION_TYPES, TestsetRecord
from testset_gen.documents.sentence_split import sentence_spans
from testset_gen.offline.record_filter import FilterInput, judge_reasons, rule_reasons, two_clauses

BATCH = 32
"""Chunks read per step."""

OVERSUPPLY = 3
"""Candidates wanted per requested record of each type before reading stops."""

DEFINITION_SHARE = 0.5
"""At most this share of the simple records are definitions ("What is the Oberoi Group?"):
encyclopaedic text opens nearly every passage with one, and without a cap they were 45 of
51 simple records on the HaluEval folder; a test set of "What is X?" tests one skill."""

BIRTH_SHARE = 0.5
"""At most this share of the reasoning and of the multi_context records compare birth
dates ("Who was born first: X or Y?"): HaluEval dates about one person in five by a
bracketed birth date, and without a cap they were 30 of 30 derived records on seed 5."""

BIRTH = "birth"
"""``metadata["compared"]`` of a birth-date comparison."""

LICENCE_SHARE = 0.1
"""At most this share of the size asked are about a licence ("Which license does Uvicorn
use?", "What is dill distributed under?", "Which license do Starlette and Uvicorn both
use?"), whatever their template or type. Nearly every README states its licence in one
plain sentence that the rules always ask, so without a cap licences were 12 of 36 records
on the docs folder (seed 61) and 9 of 22 read on seed 67: every one right, but a set no
user would choose. One in ten still tests that a licence is found; the lead asked 10-15%."""

LICENCE = "licence"
"""``metadata["topic"]`` of a record about a licence (``LICENCE_SHARE``)."""

_LICENCE_WORDS = re.compile(r"\blicen[cs]", re.I)

TEMPLATE_SHARE = 0.15
"""At most this share of the size asked comes from one documentation template
(``metadata["template"]`` starting "doc:"): each asks one fixed question form ("Can you use
X with Python 3.7?", "What do you use to ... in X?"), and a set of nine "Can you use X with
Python 3.N?" tests one skill nine times. 15%: above the licence cap, so that it binds only on
a folder where one form is most of what the pages state; the statement rules' templates
("object:what") are many verbs and forms each and are not capped."""

JUDGE_ROUNDS = 4
"""Rounds of pick -> local-judge check -> replace the rejected, before a type is short."""


class ShortfallWarning(UserWarning):
    """The documents gave fewer questions of some evolution type than were asked for."""


@dataclass
class OfflineResult:
    """``records`` in evolution-type order; ``shortfall``: type -> records missing (only
    types that fell short); ``planned``: type -> records asked for; ``available``: type ->
    distinct candidates found in the chunks read that pass the rule checks."""

    records: list[TestsetRecord]
    shortfall: dict[str, int] = field(default_factory=dict)
    planned: dict[str, int] = field(default_factory=dict)
    available: dict[str, int] = field(default_factory=dict)
    rejected: dict[str, dict[str, int]] = field(default_factory=dict)
    """type -> filter reason -> candidates dropped for it (a candidate may have several)."""


@dataclass(frozen=True)
class _Candidate:
    evolution: str
    question: str
    ground_truth: str
    chunk_ids: tuple[str, ...]
    meta: tuple[tuple[str, Any], ...]
    rank: int = 0  # 0 for the better template of a type (time difference, descriptor)
    subject: str = ""  # the name the statement is about (must be written in its sentence)
    derived: str = ""  # "years_between" / "first": the derivation the filter recomputes
    subject_label: str = ""

    def filter_input(self, contexts: Sequence[str]) -> FilterInput:
        meta = dict(self.meta)
        return FilterInput(self.question, self.ground_truth, str(meta.get("answer", "")),
                           tuple(meta.get("source_sentences", ())), tuple(contexts),
                           subject=self.subject, derived=self.derived,
                           subject_label=self.subject_label,
                           pages=tuple(meta.get("pages", ())) or (
                               (str(meta["page"]),) if meta.get("page") else ()))


# --- reading chunks ------------------------------------------------------------------


@dataclass
class _ChunkQuestions:
    chunk_id: str
    text: str
    questions: list[Question]
    sentences: list[str]
    names: dict[str, str]  # normalise_entity(surface) -> the graph's canonical norm
    labels: dict[str, str]  # canonical norm -> label
    title: str = ""  # the document's title ("FastAPI", "Notes 3")
    subjects: frozenset[str] = frozenset()  # one-word names the document is about
    births: list[Question] = field(default_factory=list)  # ``birth_questions``: dated only
    page: str = ""  # what the page documents ("Rich", "the OpenAI Python API library")
    documentation: list[DocQuestion] = field(default_factory=list)  # ``doc_questions``

    def subject_label(self, q: Question) -> str:
        """The label the filter reads for a question's subject: the tagger's, except that a
        one-word name that is plainly not a surname is ``NAME`` - the page's own subject (a
        word of its title, or a name the page writes often and never after a first name:
        "Typer" in the Typer README, ``page_subjects``) or a name spelled like software
        ("FastAPI", "MessagePack", "urllib3") - when the tagger does not call it a person.
        The filter asks a lone surname nothing ("Who did Donahue replace?")."""
        label = q.topic_label if q.role == "object" else ""
        word = q.topic.strip()
        if label == "PERSON" or " " in word or not word:
            return label
        if (word in re.findall(r"[\w-]+", self.title) or SOFTWARE_NAME.search(word)
                or word in self.subjects):
            return DOCUMENT_NAME
        # a word the page merely writes capitalised is no proof: "Pettinger", "Handel"
        return "" if label == DOCUMENT_NAME else label

    def full_name(self, name: str) -> str:
        """A one-word name as the chunk writes it in full ("Harrison" -> "George Harrison"),
        when exactly one longer name of the chunk ends with it; else ``name`` itself."""
        if " " in name.strip() or not name[:1].isupper() or self.labels.get(
                normalise_entity(name), self.labels.get(self.names.get(normalise_entity(name), ""))) != "PERSON":
            return name  # only people: "Ochagavia" is not short for "Sylvestris Ochagavia"
        longer = {m.group(0) for m in re.finditer(
            r"(?:[A-Z][\w'-]+ )+" + re.escape(name) + r"\b", self.text)}
        return next(iter(longer)) if len(longer) == 1 else name


def _read(graph: KnowledgeGraph, chunk_ids: Sequence[str],
          pages: Mapping[str, str] | None = None) -> list[_ChunkQuestions]:
    """Questions of each chunk: its claims (one spaCy pass for all), each parsed and asked;
    with ``pages`` (document id -> what it documents, ``page_names``), the chunk's sentences
    asked by the documentation patterns too (``doc_questions``)."""
    from ragmeter.judges.local import clauses_of

    texts = [graph.node(c)["text"] for c in chunk_ids]
    # one parse of each chunk serves both the clause rules and the sentence list
    chunk_docs = parse(texts)
    # a bracketed aside is left out of the statement ("plotly.py supports static image
    # export (version 1.0 or greater)"): the question rules skip a sentence with brackets,
    # and the statement without its aside is still what the sentence says
    claims = [[re.sub(r"\s*\([^()]*\)", "", cl.text) for cl in cls if cl.kind == "claim"]
              for cls in clauses_of(texts, docs=chunk_docs)]
    # "This project uses uv ..." on a page about Unstructured: asked as "Unstructured uses
    # uv ...", the ground truth staying what the page says
    page_of = {cid: (pages or {}).get(str(graph.node(cid).get("document_id", "")), "")
               for cid in chunk_ids}
    named = {(cid, cl): n for cid, cs in zip(chunk_ids, claims) for cl in cs
             if (n := named_statement(cl, page_of[cid]))}
    flat = list(dict.fromkeys([t for cs in claims for t in cs] + [n for n, _, _ in named.values()]))
    docs = dict(zip(flat, parse(flat)))
    doc_names: dict[str, frozenset[str]] = {}
    doc_subjects: dict[str, frozenset[str]] = {}
    out: list[_ChunkQuestions] = []
    for cid, text, cs, cdoc in zip(chunk_ids, texts, claims, chunk_docs):
        doc_id = str(graph.node(cid).get("document_id", ""))
        if doc_id not in doc_names:
            whole = str(graph.node(doc_id).get("text", "")) if doc_id else text
            doc_names[doc_id] = document_names(whole)
            doc_subjects[doc_id] = page_subjects(whole, doc_names[doc_id])
        known = doc_names[doc_id]
        entities = graph.node(cid).get("entities", [])
        names = {normalise_entity(e["text"]): e["norm"] for e in entities}
        names.update({e["norm"]: e["norm"] for e in entities})
        labels = {e["norm"]: e["label"] for e in entities}
        qs: list[Question] = []
        for claim in cs:
            for sent in docs[claim].sents:
                qs.extend(questions_from_sentence(sent, known))
        # the chunker's sentence rules, not spaCy's: spaCy runs a heading into the sentence
        # under it ("Mount Vesuvius\n\nMount Vesuvius destroyed Pompeii"), a paragraph
        # break does not
        title = str(graph.node(doc_id).get("title") or "") if doc_id else ""
        spans = sentence_spans(text)
        page = (pages or {}).get(doc_id, "")
        # a sentence cut inside a code name ("pass a msgpack." of "msgpack.ExtType") is not
        # what the page says: only sentences that end where a word ends
        # ("... pass a msgpack. ExtType object": extraction put a space into the code name)
        whole_sentences = [text[a:b] for a, b in spans if (b >= len(text) or text[b].isspace())
                           and not re.match(r"\s*[A-Z][a-z]+[A-Z]\w*\b", text[b:])]
        asked = doc_questions(whole_sentences, page)
        patterned = {q.statement for q in asked}
        for claim in cs:
            if (cid, claim) not in named or claim in patterned:
                continue  # a pattern asked it already ("Which license does Typer use?")
            statement, spelled, written = named[(cid, claim)]
            for sent in docs[statement].sents:
                asked.extend(DocQuestion(q.text.replace(spelled, _lowered_page(page)), q.answer,
                                         written, "self_reference")
                             for q in questions_from_sentence(sent, known | {spelled})
                             if q.role == "object" and q.topic == spelled and q.wh != "define"
                             and _specific(q.text.replace(spelled, ""), q.statement[len(spelled):]))
        sentences = [text[a:b] for a, b in spans]
        out.append(_ChunkQuestions(cid, text, qs, sentences, names, labels, title,
                                   doc_subjects[doc_id], birth_questions(sentences),
                                   page=page, documentation=asked))
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


# --- encyclopaedic prose: birth dates and titles of works ---------------------------

_DATE = r"(?:\d{1,2}\s+)?(?:[A-Z][a-z]+\.?\s+)?(?:\d{1,2},?\s+)?(?:1\d{3}|20\d{2})"
BORN = re.compile(r"^((?:[A-Z][\w'’.-]*\s+){1,4}?[A-Z][\w'’-]*[a-z])\s+\((?:[^()]*?;\s*)?"
                  r"(?:born\s+(?:on\s+)?(" + _DATE + r")\b[^()]*"
                  r"|(" + _DATE + r")\s*[–-]\s*" + _DATE + r"\s*)\)")
"""A person's birth date in brackets after the name that opens an encyclopaedia intro:
"Annette Jones (born September 7, 1967), better known as ..." or "Albert Einstein (14 March
1879 – 18 April 1955) was ...". The claims leave brackets out, so without this the birth
dates of HaluEval's people (in about one passage of five) gave no derived question."""


def birth_questions(sentences: Sequence[str]) -> list[Question]:
    """"When was Annette Jones born?" from a bracketed birth date (``BORN``), for derived
    questions only ("Who was born first: X or Y?", "How many years after X was born ...?"):
    the statement is the sentence as the chunk writes it, so the ground truth quotes the
    context, and the filter's derivation check reads the year from it. Never a simple
    question: "When was X born?" against a sentence that says "(born ...)" is fine, but the
    statement is not a clause of its sentence."""
    out: list[Question] = []
    for sentence in sentences:
        m = BORN.match(sentence.strip())
        if m is None:
            continue
        name, date = m.group(1), (m.group(2) or m.group(3)).strip().rstrip(",")
        alias = ALIAS.match(sentence.strip()[m.end():])
        if alias:  # "Jonathan Smith ..., better known by his stage name Lil Jon": Lil Jon
            name = alias.group(1)
        kind = person_kind(sentence.strip()[m.end():])
        if not kind:
            continue  # compared only with people of the same kind
        made = f"{name} was born {date_preposition(date)} {date}."
        for sent in parse([made])[0].sents:
            for q in questions_from_sentence(sent):
                if q.wh == "when" and q.passive == "was born" and q.topic == name:
                    out.append(replace(q, statement=sentence.strip(), kind=kind))
    return out


KIND_OF_PERSON = {"actress": "actor", "businesswoman": "businessman", "footballer": "footballer",
                  "songwriter": "singer", "vocalist": "singer", "rapper": "singer"}
"""Person nouns compared as one kind ("an actress" and "an actor" are both actors)."""

VAGUE_PERSON_NOUNS = frozenset("man woman member personality model host leader officer".split())


ALIAS = re.compile(r"\s*,\s*(?:better |professionally |commonly |popularly )?known "
                   r"(?:professionally )?(?:by (?:his|her|the|their) (?:stage |ring |pen )?"
                   r"(?:names?|pseudonym) |as )"
                   r"([A-Z][\w.'’-]*"
                   r"(?:\s+(?:(?:le|la|de|da|di|du|van|von|der) )?[A-Z][\w.'’-]*)*)")
"""The name a person is known by, after the bracketed dates ("Mary Kathleen Turner (born
June 19, 1954), better known as Kathleen Turner"): asked with it, since a legal name is
often shared ("Jonathan Smith" for Lil Jon was rated ambiguous). "also known as" gives a
second name, not the usual one, and is not taken."""

SPORTS = frozenset("tennis football soccer basketball baseball hockey golf cricket rugby "
                   "volleyball chess poker squash badminton snooker darts handball".split())


def person_kind(rest: str) -> str:
    """What a person is, from the words after the bracketed dates: "is an American actor,
    comedian and writer" -> "actor"; "" when the sentence does not say it with a noun of
    ``PERSON_NOUNS`` within its first words."""
    m = re.match(r"[\s,]*(?:[^.]*?,\s*)?(?:is|was) (?:an?|the) ([^.;]{0,80})", rest)
    if m is None:
        return ""
    words = re.findall(r"[a-z]+", m.group(1).lower())[:8]
    for k, word in enumerate(words):
        if word in ("player", "coach"):
            # "a tennis player" and "a football player" are not one kind
            sport = words[k - 1] if k else ""
            return f"{sport} {word}" if sport in SPORTS else ""
        if word in PERSON_NOUNS and word not in VAGUE_PERSON_NOUNS:
            return KIND_OF_PERSON.get(word, word)
    return ""


REMAKE_CUES = re.compile(r"\b(?:remake|reboot|re-?imagining|also known as|marketed as)\b", re.I)


def shared_title(title: str, year: int, sentence: str, corpus: str) -> bool:
    """A title that names more than one work: its sentence calls it a remake or gives it
    another name, or the corpus dates the same title to another year ('"Ghostbusters"
    (1984)', 'the 2016 "Ghostbusters" reboot' beside "Ghostbusters ... is a 2016 film").
    Compared by its bare title, such a work makes a wrong or ambiguous question ("Which film
    came out first: Ghostbusters or Hollywood Ending?" was rated a miss)."""
    if REMAKE_CUES.search(sentence):
        return True
    bare = re.escape(re.sub(r"^(?:the|The) ", "", title))
    tail = r"(?![\w'’-])(?!\s*:|\s+(?:[IVX]+|\d)\b|\s+[A-Z])"  # not "Ghostbusters II"
    dated = r"(1\d{3}|20\d{2})"
    years = {int(y) for y in re.findall(
        r"\b" + bare + r"[\"”]?\s*\([^()]{0,20}?\b" + dated + r"\b", corpus)}
    years |= {int(y) for y in re.findall(
        r"\b" + dated + r"(?:\s+[a-z]+){0,3}\s+[\"“]?(?:The\s+)?" + bare + r"\b[\"”]?" + tail,
        corpus)}
    return bool(years - {year})


def work_title(topic: str) -> str:
    """A work's title as written: "the Big Lebowski" (lowercased as a sentence's subject)
    -> "The Big Lebowski"."""
    return "The" + topic[3:] if topic.startswith("the ") else topic[:1].upper() + topic[1:]


# --- composing -----------------------------------------------------------------------


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


def _subject_of(q: Question) -> str:
    """The name a question's statement is about, as the source sentence must write it."""
    return q.topic if q.role == "object" else q.answer


def _written(q: Question, cq: _ChunkQuestions) -> bool:
    """The statement's subject is written in its source sentence (not a resolved "he")."""
    subject = _subject_of(q)
    return bool(subject) and subject.lower() in _source_sentence(q.statement, cq.sentences).lower()


def _simple(cq: _ChunkQuestions) -> list[_Candidate]:
    out = []
    for q in cq.questions:
        if q.span_years is not None:
            continue  # a computed duration: a reasoning question
        text = q.text
        if q.role == "object" and q.topic and q.topic in text:
            # a surname alone is not standalone: "How many songs has Harrison written?"
            text = text.replace(q.topic, cq.full_name(q.topic), 1)
        text, page = _on_page(cq, q, text)
        out.append(_Candidate("simple", text, q.statement, (cq.chunk_id,), (
            ("answer", q.answer), ("wh", q.wh), ("template", f"{q.role}:{q.wh}"),
            ("source_sentences", [_source_sentence(q.statement, cq.sentences)])) + page,
            subject=_subject_of(q), subject_label=cq.subject_label(q),
            rank=1 if q.wh == "define" else 0))  # a definition only when nothing else
    return out


def _on_page(cq: _ChunkQuestions, q: Question, text: str) -> tuple[str, tuple[tuple[str, Any], ...]]:
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


PERSON_OBJECT_VERBS = frozenset("ask tell let allow help give send offer show welcome".split())
"""Verbs whose object is whom, not what ("ragmeter asks an LLM judge for ..." made "What does
ragmeter ask for ...?", answer "an LLM judge")."""


def _specific(question: str, statement: str) -> bool:
    """A question about the page that says what it asks for: more than "What does <page>
    <verb>?" ("What does urllib3 welcome?", "What does fsspec use?": anything), and not a
    verb whose object is a person."""
    words = re.findall(r"[\w'-]+", question)
    verb = re.match(r"\s*(\w+)", statement)  # the statement after the page's name
    lemma = verb.group(1).lower().rstrip("s") if verb else ""
    return len(words) > 3 and lemma not in PERSON_OBJECT_VERBS and lemma + "e" not in PERSON_OBJECT_VERBS


def _lowered_page(page: str) -> str:
    return page[:1].lower() + page[1:] if page.startswith("The ") else page


def _documentation(cq: _ChunkQuestions) -> list[_Candidate]:
    """The documentation patterns' questions ("How can you enable logging in the OpenAI
    Python API library?"): simple, the sentence as ground truth, the page's name in the
    metadata (the filter reads it as a known name, not one the sentence must write). Two
    kinds are reasoning, each with the derivation the filter checks: a cause the page gives
    ("Why is the context manager required in ...?", ``derived="cause"``) and a stated
    Python floor asked about another version ("Can you use Rich with Python 3.7?" - "No.
    Rich requires Python 3.8 or later.", ``derived="python_support"``)."""
    out = []
    for q in cq.documentation:
        source = _source_sentence(q.statement, cq.sentences)
        kind, derived = (("reasoning", q.template) if q.template in ("cause", "consequence")
                         else ("simple", ""))
        supports = python_support(q, cq.page)
        if not supports:  # a floor is asked about a version beside it, not as written
            out.append(_Candidate(kind, q.text, q.statement, (cq.chunk_id,), (
                ("answer", q.answer), ("wh", q.text.split()[0].lower()), ("template", f"doc:{q.template}"),
                ("page", cq.page), ("source_sentences", [source])), derived=derived))
        for s in supports:
            out.append(_Candidate("reasoning", s.text, s.statement, (cq.chunk_id,), (
                ("answer", s.answer), ("asked_version", s.fact), ("template", "doc:python_support"),
                ("page", cq.page), ("source_sentences", [source])), derived="python_support"))
    return out


def _page_facts(chunks: Sequence[_ChunkQuestions], kind: str) -> list[tuple[DocQuestion, _ChunkQuestions]]:
    """One fact of ``kind`` ("licence", "python") per page, the first read."""
    seen: dict[str, tuple[DocQuestion, _ChunkQuestions]] = {}
    for cq in chunks:
        for q in cq.documentation:
            if q.template == kind and cq.page not in seen:
                seen[cq.page] = (q, cq)
    return [seen[p] for p in sorted(seen)]


COMPARED_LICENCES = frozenset({"MIT", "BSD", "APACHE", "ISC"})
LICENCE_NAMES = re.compile(r"\b(?:MIT|BSD|APACHE|ISC|GPL|LGPL|AGPL|MPL|PSF|UNLICENSE)\b")


def _page_comparisons(chunks: Sequence[_ChunkQuestions], rng: random.Random) -> list[_Candidate]:
    """multi_context questions over two pages' facts of one kind, each fact used once:
    "Which license do FastAPI and RapidFuzz both use?" (the same licence stated
    on each page), "Which uses the MIT license: FastAPI or Transformers?" (two different
    licences) and "Which requires a newer Python version: IDNA or Rich?" (two stated
    minimum versions). Neither page answers alone."""
    out: list[_Candidate] = []
    licences = _page_facts(chunks, "licence")
    rng.shuffle(licences)
    used: set[str] = set()
    for i, (a, ca) in enumerate(licences):
        for b, cb in licences[i + 1:]:
            if (a.fact != b.fact or ca.page in used or cb.page in used
                    or a.statement == b.statement):
                continue
            used.update((ca.page, cb.page))
            first, second = sorted(((a, ca), (b, cb)), key=lambda p: p[1].page.lower())
            names = (first[1].page, second[1].page)
            out.append(_Candidate(
                "multi_context", f"Which license do {names[0]} and {names[1]} both use?",
                f"{first[0].statement} {second[0].statement}", (first[1].chunk_id, second[1].chunk_id), (
                    ("answer", first[0].answer), ("template", "doc:shared_licence"),
                    ("page", names[0]), ("pages", list(names)),
                    ("source_sentences", [first[0].statement, second[0].statement]))))
            break
    # "Which uses the MIT license: FastAPI or Transformers?": two pages stating different
    # licences, each the only licence its sentence names (a "MIT or Apache-2.0" dual licence
    # is not one of two)
    single = [(q, cq) for q, cq in licences if q.fact in COMPARED_LICENCES
              and len(set(LICENCE_NAMES.findall(q.statement.upper()))) == 1]
    used.clear()
    for i, (a, ca) in enumerate(single):
        for b, cb in single[i + 1:]:
            if a.fact == b.fact or ca.page in used or cb.page in used:
                continue
            used.update((ca.page, cb.page))
            (one, c1), (two, c2) = (a, ca), (b, cb)
            page_a, page_b = sorted((c1.page, c2.page), key=str.lower)
            named = c1.page[:1].upper() + c1.page[1:]
            out.append(_Candidate(
                "multi_context", f"Which uses the {one.answer} license: {page_a} or {page_b}?",
                f"{named}. {one.statement} {two.statement}", (c1.chunk_id, c2.chunk_id), (
                    ("answer", c1.page), ("template", "doc:which_licence"), ("page", c1.page),
                    ("pages", [page_a, page_b]), ("source_sentences", [one.statement, two.statement])),
                derived="which_licence"))
            break
    out += _shared_facts(chunks, rng)
    pythons = _page_facts(chunks, "python")
    rng.shuffle(pythons)
    used.clear()
    for i, (a, ca) in enumerate(pythons):
        for b, cb in pythons[i + 1:]:
            if ca.page in used or cb.page in used:
                continue
            used.update((ca.page, cb.page))
            (new, cn), (old, co) = sorted(((a, ca), (b, cb)), key=lambda p: tuple(
                int(x) for x in p[0].fact.split(".")), reverse=True)
            in_order = sorted((cn.page, co.page), key=str.lower)
            out.append(_Candidate(
                "multi_context", "What is the oldest Python version that works with both "
                f"{in_order[0]} and {in_order[1]}?",
                f"Python {new.fact}. {new.statement} {old.statement}", (cn.chunk_id, co.chunk_id), (
                    ("answer", f"Python {new.fact}"), ("template", "doc:oldest_python"),
                    ("page", in_order[0]), ("pages", in_order),
                    ("source_sentences", [new.statement, old.statement])),
                derived="oldest_python"))
            break
    used.clear()
    for i, (a, ca) in enumerate(pythons):
        for b, cb in pythons[i + 1:]:
            va, vb = (tuple(int(x) for x in q.fact.split(".")) for q in (a, b))
            if va == vb or ca.page in used or cb.page in used:
                continue
            used.update((ca.page, cb.page))
            (new, cn), (old, co) = sorted(((a, ca), (b, cb)), key=lambda p: tuple(
                int(x) for x in p[0].fact.split(".")), reverse=True)
            in_order = sorted((cn.page, co.page), key=str.lower)  # alphabetical: the order says nothing
            named = cn.page[:1].upper() + cn.page[1:]
            # the answer first: a page's sentence says "This library", not its name
            out.append(_Candidate(
                "multi_context", "Which requires a newer Python version: "
                f"{in_order[0]} or {in_order[1]}?",
                f"{named}. {new.statement} {old.statement}", (cn.chunk_id, co.chunk_id), (
                    ("answer", cn.page), ("template", "doc:newer_python"), ("page", cn.page),
                    ("pages", in_order), ("source_sentences", [new.statement, old.statement])),
                derived="newer_python"))
            break
    return out


SHARED_TEMPLATES = frozenset({"to_use", "use_to", "how_can", "to_do", "default", "cause",
                              "lets_you", "used_for"})
"""Documentation questions whose answer two pages can state alike ("To report a security
vulnerability, please use the Tidelift security contact." on AnyIO's, urllib3's and
websockets' READMEs); licences and Python floors are compared by their own templates."""


def _shared_facts(chunks: Sequence[_ChunkQuestions], rng: random.Random) -> list[_Candidate]:
    """"What do you use to report a security vulnerability in both AnyIO and urllib3?":
    one documentation question asked of two pages whose sentences give the same answer; a
    multi_context record that needs both (each page states it of itself only). The
    question must end with "in <page>?" so that "in both A and B?" replaces it; each page
    serves one such record. Ground truth: the two sentences (once when the pages write the
    same sentence)."""
    groups: dict[tuple[str, str, str], list[tuple[DocQuestion, _ChunkQuestions]]] = {}
    for cq in chunks:
        for q in cq.documentation:
            tail = f" in {cq.page}?"
            if q.template in SHARED_TEMPLATES and q.text.endswith(tail):
                key = (q.template, q.text[:-len(tail)], normalise_text(q.answer))
                if all(other.page != cq.page for _, other in groups.get(key, [])):
                    groups.setdefault(key, []).append((q, cq))
    out: list[_Candidate] = []
    for (template, body, _), members in sorted(groups.items()):
        rng.shuffle(members)
        for (a, ca), (b, cb) in zip(members[::2], members[1::2]):
            (one, c1), (two, c2) = sorted(((a, ca), (b, cb)), key=lambda p: p[1].page.lower())
            said = one.statement if one.statement == two.statement else f"{one.statement} {two.statement}"
            out.append(_Candidate(
                "multi_context", f"{body} in both {c1.page} and {c2.page}?", said,
                (c1.chunk_id, c2.chunk_id), (
                    ("answer", one.answer), ("template", "doc:shared_fact"),
                    ("page", c1.page), ("pages", [c1.page, c2.page]),
                    ("source_sentences", [one.statement, two.statement])),
                derived="shared_fact"))
    return out


def _topic(cq: _ChunkQuestions, q: Question) -> str:
    return cq.names.get(q.topic_norm, q.topic_norm) if q.topic_norm else ""


def _dated(cq: _ChunkQuestions) -> list[Question]:
    """Statements that date one event to one year, with a clause to name the event by."""
    return [q for q in [*cq.questions, *cq.births] if q.role == "object" and q.year is not None
            and q.remainder and q.inverted and q.topic]


def _same_subject(a: Question, ca: _ChunkQuestions, b: Question, cb: _ChunkQuestions) -> bool:
    """Both statements are about one named thing (the graph's canonical name for each)."""
    ta, tb = _topic(ca, a), _topic(cb, b)
    return bool(ta) and ta == tb


def _comparable(a: Question, b: Question) -> bool:
    """Like things dated by the same passive verb ("X was founded in 1990", "Y was founded
    in 1962"): a comparison a reader would ask ("Which was founded first: X or Y?").
    Things of different kinds, or events of different verbs, make contrived questions
    ("Which happened first: Lagunov was born or the Highlanders were renamed?")."""
    return (bool(a.passive) and a.passive == b.passive and bool(a.topic_label)
            and a.topic_label == b.topic_label and a.kind == b.kind and a.topic_norm != b.topic_norm
            and a.topic.lower() not in b.topic.lower() and b.topic.lower() not in a.topic.lower())


def _derived(evolution: str, a: Question, ca: _ChunkQuestions, b: Question,
             cb: _ChunkQuestions) -> list[_Candidate]:
    """Questions whose answer is computed from two dated statements, never stated. ``a``
    and ``b`` may come from one chunk (reasoning) or from two (multi_context: neither chunk
    alone answers). Two kinds, and only these, so the compared things always belong
    together: the years between two events of ONE subject ("How many years after Marie
    Curie was born in Warsaw did Marie Curie move to Paris?"), and which of two like things
    came first by the same verb ("Which was founded first: X or Y?")."""
    if a.year == b.year or not _distinct(a, b):
        return []
    same = _same_subject(a, ca, b, cb)
    if not same and not _comparable(a, b):
        return []
    for q, cq in ((a, ca), (b, cb)):  # each statement whole and as its sentence says it
        sentence = _source_sentence(q.statement, cq.sentences)
        if q.topic.lower() not in sentence.lower() or two_clauses(q.remainder, q.statement):
            return []
    pairs = sorted(((a, ca), (b, cb)), key=lambda p: p[0].year)  # type: ignore[arg-type, return-value]
    (early, ce), (late, cl) = pairs
    ids = tuple(dict.fromkeys((ce.chunk_id, cl.chunk_id)))
    sources = [_source_sentence(early.statement, ce.sentences),
               _source_sentence(late.statement, cl.sentences)]
    diff = late.year - early.year  # type: ignore[operator]
    if same:
        question = f"How many years after {early.remainder} {late.inverted}?"
        if _gives_away(question, early.answer, late.answer):
            return []
        return [_Candidate(evolution, question,
                           f"{diff} years. {early.statement} {late.statement}", ids, (
            ("answer", f"{diff} years"), ("template", "years_between"),
            ("source_sentences", sources)), subject=early.topic, derived="years_between")]
    # the options in alphabetical order, so their order says nothing
    first, second = sorted((early.topic, late.topic), key=str.lower)
    wh = "Who" if early.topic_label == "PERSON" else "Which"
    question = f"{wh} {early.passive} first: {first} or {second}?"
    question = question[:1] + question[1:].replace(" The ", " the ")
    if _gives_away(question, early.answer, late.answer):
        return []
    answer = early.topic[:1].upper() + early.topic[1:]
    return [_Candidate(evolution, question,
                       f"{answer} first ({early.answer}); {late.topic} "
                       f"{date_preposition(late.answer)} {late.answer}. "
                       f"{early.statement} {late.statement}", ids, (
        ("answer", early.topic), ("template", "which_first"),
        *((("compared", BIRTH),) if early.kind else ()),
        ("source_sentences", sources)), rank=1, subject=early.topic, derived="first")]


def _spans(cq: _ChunkQuestions) -> list[_Candidate]:
    """"For how many years did John Smith serve as governor?" from "... from 1990 to 1995":
    a duration computed from the two years of one statement."""
    out = []
    for q in cq.questions:
        if q.span_years is None:
            continue
        text = q.text
        if q.topic:
            text = text.replace(q.topic, cq.full_name(q.topic), 1)
        out.append(_Candidate("reasoning", text, f"{q.answer}. {q.statement}", (cq.chunk_id,), (
            ("answer", q.answer), ("template", "span_years"),
            ("source_sentences", [_source_sentence(q.statement, cq.sentences)])),
            subject=_subject_of(q), derived="span", subject_label=cq.subject_label(q)))
    return out


def _reasoning(cq: _ChunkQuestions) -> list[_Candidate]:
    """Derived questions of one chunk: a duration of one statement, or the years between
    two dated statements about one subject."""
    dated = _dated(cq)
    out: list[_Candidate] = _spans(cq)
    for i, a in enumerate(dated):
        for b in dated[i + 1:]:
            if _same_subject(a, cq, b, cq):
                out += _derived("reasoning", a, cq, b, cq)
    return out


def _comparisons(chunks: Sequence[_ChunkQuestions], rng: random.Random,
                 limit: int, corpus: str = "") -> list[_Candidate]:
    """Comparisons of like things ("Which was founded first: X or Y?", "Which film came
    out first: X or Y?"): dated statements grouped by verb and by the subject's entity
    label, dated definitions by the kind of work; pairs drawn at random (seeded), at most
    ``limit``. A pair from two chunks is multi_context, from one chunk reasoning."""
    groups: dict[tuple[str, str], list[tuple[Question, _ChunkQuestions]]] = {}
    for cq in chunks:
        for q in _dated(cq):
            if q.passive and q.topic_label:
                # people by what they are ("actor"): "Who was born first: X or Y?" of two
                # actors, never of a footballer and a psychiatrist
                key = ("born", q.kind) if q.kind else (q.passive, q.topic_label)
                groups.setdefault(key, []).append((q, cq))
        for q in cq.questions:
            if q.wh == "define" and q.made_year is not None and q.kind in MEDIA_NOUNS:
                groups.setdefault(("made", q.kind), []).append((q, cq))
    pairs = _interleaved([[(x, y) for i, x in enumerate(members) for y in members[i + 1:]]
                          for members in groups.values()], rng)
    out: list[_Candidate] = []
    across = 0
    for (a, ca), (b, cb) in pairs:
        # both in one chunk: derived from one context, a reasoning question (few: all kept)
        kind = "reasoning" if ca.chunk_id == cb.chunk_id else "multi_context"
        if kind == "multi_context":
            if across >= limit:
                continue
            across += 1
        out += _made_first(kind, a, ca, b, cb, corpus) if a.wh == "define" else _derived(
            kind, a, ca, b, cb)
    return out


def _interleaved(groups: "list[list[Any]]", rng: random.Random) -> "list[Any]":
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


def _made_first(evolution: str, a: Question, ca: _ChunkQuestions, b: Question,
                cb: _ChunkQuestions, corpus: str = "") -> list[_Candidate]:
    """"Which film came out first: Crimson Peak or White Nights?" from two definitions that
    date works of one kind ("a 2015 American gothic romance film", "a 1985 American drama
    film"): a comparison of like things that needs both chunks."""
    if a.made_year == b.made_year or a.topic_norm == b.topic_norm:
        return []
    (early, ce), (late, cl) = sorted(((a, ca), (b, cb)), key=lambda p: p[0].made_year)  # type: ignore[arg-type, return-value]
    sources = [_source_sentence(early.statement, ce.sentences),
               _source_sentence(late.statement, cl.sentences)]
    if any(q.topic.lower() not in s.lower() for q, s in ((early, sources[0]), (late, sources[1]))):
        return []
    if any(shared_title(q.topic, q.made_year, s, corpus)  # type: ignore[arg-type]
           for q, s in ((early, sources[0]), (late, sources[1]))):
        return []  # "Ghostbusters" (2016) against a film of 2002: the 1984 one came first
    first, second = sorted((early.topic, late.topic), key=str.lower)
    question = f"Which {early.kind} came out first: {first} or {second}?"
    question = question[:1] + question[1:].replace(" The ", " the ")
    name = work_title(early.topic)  # a work's title keeps its "The" ("The Big Lebowski")
    return [_Candidate(evolution, question,
                       f"{name} first ({early.made_year}); {work_title(late.topic)} in "
                       f"{late.made_year}. "
                       f"{early.statement} {late.statement}",
                       tuple(dict.fromkeys((ce.chunk_id, cl.chunk_id))), (
        ("answer", early.topic), ("template", "which_first"), ("compared", early.kind),
        ("source_sentences", sources)), rank=1, subject=early.topic, derived="first")]


def _multi(a: _ChunkQuestions, b: _ChunkQuestions, entity: str) -> list[_Candidate]:
    """Questions that need both chunks: the entity described by one and asked about by the
    other (a bridge, both ways round), or a derived comparison of a dated statement of
    each. Never two unrelated questions joined by "and"."""
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
            after = q.text[span[1]:]
            if re.match(r"(?:'s|’s|\s+[A-Z0-9])", after) or re.search(r"[A-Z][\w'-]*\s+$",
                                                                    q.text[:span[0]]):
                continue  # inside a longer name: "New York's 21st congressional district"
            if not _written(q, asker):
                continue
            for t in told:
                desc = descriptor(t.label, t.predicate)
                if (desc is None or "," in desc or not _distinct(q, t) or not _written(t, teller)
                        or len(desc.split()) > 10):
                    continue
                before = q.text[:span[0]]
                if before.lower().endswith("the "):  # "visit the Eiffel Tower": one "the"
                    before = before[:-4]
                question = before + desc + q.text[span[1]:]
                if _gives_away(question, q.answer, t.answer):
                    continue
                out.append(_Candidate("multi_context", question, f"{t.statement} {q.statement}",
                                      (asker.chunk_id, teller.chunk_id), (
                    ("answer", q.answer), ("bridge_entity", entity), ("template", template),
                    ("source_sentences", [_source_sentence(q.statement, asker.sentences),
                                          _source_sentence(t.statement, teller.sentences)])),
                    subject=_subject_of(t), subject_label=t.label))
    for x in _dated(a):
        for y in _dated(b):
            for c in _derived("multi_context", x, a, y, b):
                out.append(replace(c, meta=c.meta + (("bridge_entity", entity),), rank=c.rank + 1))
    return out


# --- choosing ------------------------------------------------------------------------


DOC_DERIVED = ("doc:python_support", "doc:cause", "doc:which_licence", "doc:oldest_python",
               "doc:shared_fact", "doc:consequence")


def _pick(candidates: Sequence[_Candidate], n: int, rng: random.Random,
          taken: set[str], room: dict[str, int] | None = None,
          held: dict[str, tuple[str, ...]] | None = None) -> list[_Candidate]:
    """``n`` candidates spread over chunks: a seeded shuffle of the chunk groups, then one
    from each group in turn, so that no chunk supplies most of a type. Within a group the
    better template comes first, then shorter questions (by steps of 60 characters: long
    ones are mostly long because their statement is), in seeded random order otherwise.
    ``room``: capped class (``_caps``) -> records it may still add; a candidate of a full
    class is passed over, and each pick takes one from each of its classes. ``held``:
    question -> the statement keys its pick put into ``taken``, for giving them back when
    the local judge rejects it."""
    room = {} if room is None else room
    held = {} if held is None else held
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
                # one record per statement: four questions on one sentence test one fact,
                # and ten comparisons of five films test the same five dates (a statement
                # serves one derived question: "born in 1867" was in 3 of 5 before)
                said = "\x00" + c.ground_truth
                meta = dict(c.meta)
                sources = (["\x01" + s for s in meta.get("source_sentences", ())]
                           if meta.get("template") in ("which_first", "years_between", "doc:shared_licence",
                                                    "doc:newer_python", *DOC_DERIVED) else [])
                # a documentation fact derived on is not asked again as written ("Which Python
                # version does Rich require?" beside "Can you use Rich with Python 3.7?"),
                # whichever of the two is picked first
                stated = (["\x00" + s for s in meta.get("source_sentences", ())]
                          if meta.get("template") in DOC_DERIVED else [])
                if c.question in taken or said in taken or any(s in taken for s in sources + stated):
                    continue
                if any(room.get(cap, 1) <= 0 for cap in _caps(c)):
                    continue
                taken.update((c.question, said, *sources, *stated))
                held[c.question] = (said, *sources, *stated)
                for cap in _caps(c):
                    if cap in room:
                        room[cap] -= 1
                picked.append(c)
                break
            if len(picked) == n:
                break
    return picked


def topic(c: _Candidate) -> str:
    """``LICENCE`` when the question or its answer is about a licence, else ""."""
    meta = dict(c.meta)
    # the answer only when it is the licence ("What is dill distributed under?" - "a
    # 3-clause BSD license"), not a definition that mentions one ("What is Sorted
    # Containers?" - "an Apache2 licensed sorted collections library")
    named = re.search(r"licen[cs]e$", str(meta.get("answer", "")).strip(), re.I)
    return LICENCE if ("licence" in str(meta.get("template", "")) or named
                       or _LICENCE_WORDS.search(c.question)) else ""


def _caps(c: _Candidate) -> tuple[str, ...]:
    """The capped classes a candidate counts against: its documentation template and its
    topic (set-wide, ``TEMPLATE_SHARE``, ``LICENCE_SHARE``)."""
    template = str(dict(c.meta).get("template", ""))
    return tuple(k for k in (template if template.startswith("doc:") else "", topic(c)) if k)


def _supply(pool: "Iterable[_Candidate]") -> float:
    """How many records a pool can give, about: its distinct source sentences over the
    sentences a candidate uses (one record per statement). Not the pool's size: page
    comparisons are drawn again after every batch, and on the docs folder 51 multi_context
    candidates paired the same dozen sentences, so multi_context chose last and found every
    sentence spent (2 of 15 written)."""
    pool = list(pool)
    if not pool:
        return 0.0
    sentences = {s for c in pool for s in dict(c.meta).get("source_sentences", ())}
    per = sum(max(1, len(dict(c.meta).get("source_sentences", ()))) for c in pool) / max(1, len(pool))
    return len(sentences) / per


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
        metadata={"generator": "offline", "seed": seed, **dict(c.meta),
                  **({"topic": topic(c)} if topic(c) else {}),
                  **({"subject": c.subject} if c.subject else {}),
                  **({"subject_label": c.subject_label} if c.subject_label else {})},
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
    pages = page_names({d: (str(graph.node(d).get("text", "")), str(graph.node(d).get("source", "")),
                            str(graph.node(d).get("title") or "")) for d in graph.document_ids()})
    order = graph.chunk_ids()
    rng.shuffle(order)
    bridges = graph.bridges()
    read: dict[str, _ChunkQuestions] = {}
    pools: dict[str, dict[str, _Candidate]] = {t: {} for t in EVOLUTION_TYPES}
    bridges_done: set[tuple[str, str, str]] = set()

    rejected: dict[str, Counter[str]] = {t: Counter() for t in EVOLUTION_TYPES}

    def contexts(c: _Candidate) -> list[str]:
        return [graph.node(i)["text"] for i in c.chunk_ids]

    def offer(c: _Candidate) -> None:
        """Into its type's pool if it passes the rule checks; else counted by reason."""
        if c.question in pools[c.evolution] or c.question in failed:
            return
        reasons = rule_reasons(c.filter_input(contexts(c)))
        if reasons:
            failed.add(c.question)
            rejected[c.evolution].update(reasons)
        else:
            pools[c.evolution][c.question] = c

    failed: set[str] = set()
    corpus = ""

    def enough() -> bool:
        return all(len(pools[t]) >= OVERSUPPLY * n for t, n in planned.items()
                   if t != "conditional")

    for start in range(0, len(order), BATCH):
        if planned and enough():
            break
        batch = order[start:start + BATCH]
        for cq in _read(graph, batch, pages):
            read[cq.chunk_id] = cq
            for c in _simple(cq) + _reasoning(cq) + _documentation(cq):
                offer(c)
        if "multi_context" in planned or "reasoning" in planned:
            corpus = corpus or "\n".join(str(graph.node(d).get("text", ""))
                                          for d in graph.document_ids())
            for c in _comparisons(list(read.values()), random.Random(seed + start),
                                  OVERSUPPLY * planned.get("multi_context", 0), corpus):
                if c.evolution in planned:
                    offer(c)
        if "multi_context" in planned:
            for c in _page_comparisons(list(read.values()), random.Random(seed + start)):
                offer(c)
            for br in bridges:
                key = (br.a, br.b, br.entity)
                if key in bridges_done or br.a not in read or br.b not in read:
                    continue
                bridges_done.add(key)
                for c in _multi(read[br.a], read[br.b], br.entity):
                    offer(c)
        if not planned:
            break

    taken: set[str] = set()
    held: dict[str, tuple[str, ...]] = {}
    chosen: dict[str, list[_Candidate]] = {t: [] for t in planned}
    # the scarcest kinds choose first, so that a question text is never spent on a
    # plentiful type that a scarce one needed; what the local judge rejects is replaced
    # from the pool, round after round, until the type is full or its pool is spent
    def _scarcity(t: str) -> float:
        """A type whose distinct sentences cannot fill it chooses first, by how far short it
        falls; the others by pool surplus, as before. Measured: with every type ordered by
        its distinct sentences HaluEval seed 53 wrote 52 records (one multi_context fewer);
        with this rule, the same 53 as the old order, and the docs folder its 40."""
        supply = _supply(pools[t].values())
        return supply - planned[t] if supply < planned[t] else len(pools[t]) - planned[t]

    order_of_types = sorted(planned, key=lambda t: (_scarcity(t), EVOLUTION_TYPES.index(t)))
    pending: list[_Candidate] = []  # picked this round, not yet judged

    def _room() -> dict[str, int]:
        """Records each set-wide capped class may still add: its cap less those chosen and
        those picked this round for other types."""
        counted = Counter(k for t in chosen for c in chosen[t] for k in _caps(c))
        counted.update(k for c in pending for k in _caps(c))
        keys = {k for t in planned for c in pools[t].values() for k in _caps(c)}
        # at least one of each on a small set: a cap is a share, not a ban
        return {k: max(1, round((LICENCE_SHARE if k == LICENCE else TEMPLATE_SHARE) * size))
                - counted[k] for k in keys}

    def _picks(t: str) -> list[_Candidate]:
        """The next picks of type ``t``: first candidates of no second-tier class; then
        definitions (simple), birth comparisons (the derived types) and licences only fill
        what those leave, each up to its share, as does every documentation template."""
        need = planned[t] - len(chosen[t])
        if t == "simple":
            second = lambda c: dict(c.meta).get("wh") == "define"  # noqa: E731
            share = DEFINITION_SHARE
        else:
            second = lambda c: dict(c.meta).get("compared") == BIRTH  # noqa: E731
            share = BIRTH_SHARE
        room = _room()
        first = [c for c in pools[t].values() if not second(c) and topic(c) != LICENCE]
        got = _pick(first, need, rng, taken, room, held)
        allowed = int(share * planned[t]) - sum(1 for c in chosen[t] if second(c))
        got += _pick([c for c in pools[t].values() if second(c) and topic(c) != LICENCE],
                     max(0, min(need - len(got), allowed)), rng, taken, room, held)
        got += _pick([c for c in pools[t].values() if topic(c) == LICENCE],
                     need - len(got), rng, taken, room, held)
        pending.extend(got)
        return got

    for _ in range(JUDGE_ROUNDS):
        pending.clear()
        picked = [(t, c) for t in order_of_types for c in _picks(t)]
        pending.clear()
        if not picked:
            break
        verdicts = judge_reasons([c.filter_input(contexts(c)) for _, c in picked])
        for (t, c), reasons in zip(picked, verdicts):
            if reasons:
                rejected[t].update(reasons)
                # its statements are free again for another question (the question text
                # stays taken): on the docs folder a rejected Python comparison had spent
                # two pages' floors that no other record could then use
                taken.difference_update(held.pop(c.question, ()))
            else:
                chosen[t].append(c)
    records = [_record(c, graph, seed) for t in EVOLUTION_TYPES for c in chosen.get(t, [])]
    shortfall = {t: planned[t] - len(chosen.get(t, [])) for t in EVOLUTION_TYPES
                 if t in planned and len(chosen.get(t, [])) < planned[t]}
    if shortfall:
        detail = ", ".join(f"{t} {shortfall[t]} of {planned[t]} missing" for t in shortfall)
        why = (" The offline generator writes no conditional questions: a rule-made premise "
               "narrows nothing." if "conditional" in shortfall else "")
        warnings.warn(
            f"offline generator: the documents gave too few questions that pass the filter "
            f"({detail}); {len(records)} of {size} records written.{why} More or longer "
            "documents help; an LLM judge writes the kinds the rules cannot.",
            ShortfallWarning, stacklevel=2)
    return OfflineResult(records=records, shortfall=shortfall, planned=planned,
                         available={t: len(pools[t]) for t in EVOLUTION_TYPES},
                         rejected={t: dict(rejected[t]) for t in EVOLUTION_TYPES if rejected[t]})
