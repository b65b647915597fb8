"""A chunk read once for every recipe: its claims parsed and asked (``questions``), its
sentences, its names and the page it belongs to (``doc_questions``' patterns)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping, Sequence
from ragmeter.text.nlp import normalise_entity, normalise_text
from ragmeter.text.syntax import parse
from testset_gen.offline.doc_questions import DocQuestion, doc_questions, named_statement
from testset_gen.graph.knowledge_graph import KnowledgeGraph
from testset_gen.offline.questions import DOCUMENT_NAME, SOFTWARE_NAME, Question, document_names, page_subjects, questions_from_sentence
from testset_gen.documents.sentence_split import sentence_spans
from testset_gen.offline.recipes.encyclopaedic import birth_questions


@dataclass
class ChunkQuestions:
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


def read_chunks(graph: KnowledgeGraph, chunk_ids: Sequence[str],
          pages: Mapping[str, str] | None = None) -> list[ChunkQuestions]:
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
    out: list[ChunkQuestions] = []
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
                asked.extend(DocQuestion(q.text.replace(spelled, lowered_page(page)), q.answer,
                                         written, "self_reference")
                             for q in questions_from_sentence(sent, known | {spelled})
                             if q.role == "object" and q.topic == spelled and q.wh != "define"
                             and is_specific(q.text.replace(spelled, ""), q.statement[len(spelled):]))
        sentences = [text[a:b] for a, b in spans]
        out.append(ChunkQuestions(cid, text, qs, sentences, names, labels, title,
                                   doc_subjects[doc_id], birth_questions(sentences),
                                   page=page, documentation=asked))
    return out


def source_sentence(statement: str, sentences: Sequence[str]) -> str:
    """The chunk sentence a (possibly rewritten) statement comes from: most shared words."""
    words = set(normalise_text(statement).split())
    best, score = statement, 0.0
    for s in sentences:
        other = set(normalise_text(s).split())
        overlap = len(words & other) / max(1, len(words))
        if overlap > score:
            best, score = s, overlap
    return best


PERSON_OBJECT_VERBS = frozenset("ask tell let allow help give send offer show welcome".split())
"""Verbs whose object is whom, not what ("ragmeter asks an LLM judge for ..." made "What does
ragmeter ask for ...?", answer "an LLM judge")."""


def is_specific(question: str, statement: str) -> bool:
    """A question about the page that says what it asks for: more than "What does <page>
    <verb>?" ("What does urllib3 welcome?", "What does fsspec use?": anything), and not a
    verb whose object is a person."""
    words = re.findall(r"[\w'-]+", question)
    verb = re.match(r"\s*(\w+)", statement)  # the statement after the page's name
    lemma = verb.group(1).lower().rstrip("s") if verb else ""
    return len(words) > 3 and lemma not in PERSON_OBJECT_VERBS and lemma + "e" not in PERSON_OBJECT_VERBS


def lowered_page(page: str) -> str:
    return page[:1].lower() + page[1:] if page.startswith("The ") else page
