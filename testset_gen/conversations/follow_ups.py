"""Offline conversations: single-turn records regrouped into chats whose follow-ups lean on
the turn before.

The offline generator's records (``generate_offline``) are each grounded by construction:
their ground truth is what their reference passages say, and the filter has checked it.
A conversation here is 2 to ``turns`` of those records about one subject, in an order a
person would ask them, with every follow-up reworded so that it only makes sense after the
earlier turn:

* the same subject again: the subject becomes a pronoun ("When was Marie Curie born in
  Warsaw?" -> "When did she win the Nobel Prize in Chemistry?"), or, when the two questions
  differ in one short span only, "And what about <that span>?" ("What is the weight of the
  Trailhead 2?" -> "And what about the price?");
* the same question about a sibling (another row of the same table, another page with the
  same frame): "And what about the Ember Stove?".

Nothing is written that a record does not ground: a follow-up is always a filtered record,
its ground truth and reference contexts unchanged, its standalone wording kept in the
turn's ``standalone``. A record whose subject cannot be found in its question, or whose
question cannot be reworded by these rules, is not used as a follow-up.

Where each follow-up comes from (``metadata["structure"]``): ``same_section`` (a passage of
the turn before), ``same_page`` (the same document), ``bridged`` (another document about the
same subject: a shared entity of the knowledge graph), ``same_frame`` (a sibling asked the
same way).
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Sequence

from testset_gen.conversations.scenario import ConversationScenario, ScenarioTurn
from testset_gen.documents.document import content_id
from testset_gen.record import TestsetRecord

SUBJECT_FIELDS = ("subject", "term", "page", "heading", "bridge_entity")
"""Record metadata that may name what the question is about, most specific first."""

MAX_SPAN_WORDS = 5
"""A "what about" follow-up names at most this many words: longer differences are another
question, not a follow-up."""

_PREPOSITIONS = frozenset("in of with for about to by from on at after before into than like under over "
                          "between among against during without within through".split())
_DETERMINERS = frozenset({"the", "a", "an"})
_OPENING_WORDS = frozenset("what when where who whom whose which why how is are was were do does did can "
                           "could should would will has have had in for".split())
_VERBS_BEFORE_OBJECT = frozenset("visit visits visited use uses used call calls called install installs "
                                 "configure configures run runs found founded build built design designed "
                                 "discover discovered".split())
_BEFORE_A_VERB = frozenset("you we i to can could should would will must may do does did not "
                           "if when before after once while unless".split())
"""A changed span after these is a verb phrase or a clause, which "what about" cannot take."""
_NAME_WORD = re.compile(r"[A-Z0-9][\w'.&-]*")
_SHE = re.compile(r"\b(?:she|her|hers|herself)\b", re.I)
_HE = re.compile(r"\b(?:he|him|his|himself)\b", re.I)


@dataclass(frozen=True)
class Subject:
    """Where a record's subject is written in its question, and how to refer back to it."""

    span: str
    start: int
    key: str
    person: str  # "she", "he", "they" for people; "" for things ("it")


def _words_before(text: str, start: int) -> list[str]:
    return text[:start].split()


def _extend(question: str, start: int, end: int) -> tuple[int, int]:
    """The whole name around a match: capitalised words either side ("the Eiffel" inside
    "the Eiffel Tower"), never the question's opening word."""
    while True:
        m = re.match(r"\s+([A-Z0-9][\w'.&-]*)", question[end:])
        if not m or m.group(1).lower() in _PREPOSITIONS:
            break
        end += m.end()
    while True:
        m = re.search(r"([A-Z][\w'.&-]*)\s+$", question[:start])
        if not m or m.start(1) == 0:
            break
        start = m.start(1)
    return start, end


def _key(span: str) -> str:
    words = span.lower().replace("'s", "").split()
    return " ".join(words[1:] if words and words[0] in _DETERMINERS else words)


def _gender(span: str, contexts: Sequence[str], label: str) -> str:
    """"she"/"he" when the passages refer to a person that way, "they" for a person they do
    not; "" for a thing. A name of two capitalised words followed in the passages by a
    sentence opening with She/He counts as a person without a label."""
    text = " ".join(contexts)
    opens = re.findall(r"(?:^|[.!?]\s+)(She|He)\b", text)
    looks_named = bool(re.fullmatch(r"(?:[A-Z][\w'-]+\s+)+[A-Z][\w'-]+", span))
    if label != "PERSON" and not (looks_named and opens):
        return ""
    she, he = len(_SHE.findall(text)), len(_HE.findall(text))
    return "she" if she > he else "he" if he > she else "they"


def find_subject(record: TestsetRecord) -> Subject | None:
    """The record's subject as its question writes it (the metadata names it; the question
    must contain it as a whole name), or None."""
    question = record.question
    for name in SUBJECT_FIELDS:
        value = str(record.metadata.get(name) or "").strip()
        if len(value) < 2:
            continue
        m = re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", question, re.I)
        if m is None:
            continue
        start, end = _extend(question, m.start(), m.end())
        if start == 0:
            continue  # the question opens with it: no pronoun would read well there
        before = _words_before(question, start)
        if before and before[-1].lower() in _DETERMINERS:
            start = question.rfind(before[-1], 0, start)
        span = question[start:end]
        if not span or not any(c.isalpha() for c in span):
            continue
        label = str(record.metadata.get("subject_label") or "")
        return Subject(span, start, _key(span), _gender(span, record.reference_contexts, label))
    return None


def _pronoun(subject: Subject, role: str) -> str:
    forms = {"she": ("she", "her", "her"), "he": ("he", "him", "his"), "they": ("they", "them", "their"),
             "": ("it", "it", "its")}[subject.person]
    return forms[("nominative", "objective", "possessive").index(role)]


def with_pronoun(question: str, subject: Subject) -> str | None:
    """``question`` with every mention of ``subject`` replaced by the pronoun its place
    takes; None when the result would not read as a follow-up (too short, or the subject is
    not there)."""
    # not inside a file or module name ("poetry.lock" is no mention of Poetry)
    pattern = re.compile(rf"(?<![\w.-]){re.escape(subject.span)}(?![\w-]|\.\w)('s|’s)?", re.I)
    if not pattern.search(question):
        return None

    def replace(m: re.Match[str]) -> str:
        if m.group(1):
            return _pronoun(subject, "possessive")
        before = question[:m.start()].split()
        previous = before[-1].lower().strip(",") if before else ""
        objective = previous in _PREPOSITIONS or previous in _VERBS_BEFORE_OBJECT
        return _pronoun(subject, "objective" if objective else "nominative")

    if re.search(rf"\bin\s+{re.escape(subject.span)}\s*\?$", question, re.I):
        return None  # a page or project qualifier ("... in Poetry?"): "in it?" leans on nothing asked
    out = pattern.sub(replace, question)
    if out == question or len(out.rstrip("?").split()) < 4:
        return None  # "What is it?" asks nothing a reader could tell apart
    return out


def what_about(previous: str, question: str) -> str | None:
    """"And what about X?" when ``question`` is ``previous`` with one short span changed
    (X, with its article); None otherwise."""
    a, b = previous.rstrip("?").split(), question.rstrip("?").split()
    p = 0
    while p < min(len(a), len(b)) and a[p].lower() == b[p].lower():
        p += 1
    s = 0
    while s < min(len(a), len(b)) - p and a[-1 - s].lower() == b[-1 - s].lower():
        s += 1
    changed_a, changed_b = a[p:len(a) - s], b[p:len(b) - s]
    if not (1 <= len(changed_a) <= MAX_SPAN_WORDS and 1 <= len(changed_b) <= MAX_SPAN_WORDS) or p + s < 3:
        return None
    if p == 0 or changed_b[0].lower() in _OPENING_WORDS or b[0].lower() in ("why", "when", "how"):
        return None  # the wh-word or the verb changed: another question, not the same one re-aimed
    if b[p - 1].lower() in _BEFORE_A_VERB and not changed_b[0].lower().endswith("ing"):
        return None  # "How do you <remove a setting>": a verb phrase, and "what about remove ..." is no English
    if p and b[p - 1].lower() in _DETERMINERS:
        changed_b = [b[p - 1], *changed_b]
    phrase = " ".join(changed_b).rstrip(",")
    if changed_b[-1].lower() in _PREPOSITIONS:
        return None  # "the denial of service of": the span was cut inside a phrase
    return f"And what about {phrase}?"


def _frame(record: TestsetRecord, subject: Subject) -> str:
    q = record.question
    return (q[:subject.start] + "{}" + q[subject.start + len(subject.span):]).lower()


def _documents(record: TestsetRecord) -> set[str]:
    return {str(s.get("source") or "") for s in record.sources}


def structure_between(previous: TestsetRecord, record: TestsetRecord) -> str:
    if set(previous.reference_context_ids) & set(record.reference_context_ids):
        return "same_section"
    if _documents(previous) & _documents(record):
        return "same_page"
    return "bridged"


STRUCTURE_ORDER = ("same_section", "same_page", "bridged", "same_frame")


@dataclass
class Assembly:
    """What ``conversations_from_records`` made, and what it could not."""

    scenarios: list[ConversationScenario]
    used: set[str] = field(default_factory=set)
    """Ids of the records the conversations hold (each record is asked once)."""


def scenario_turn(record: TestsetRecord, question: str, refers_back: str, structure: str) -> ScenarioTurn:
    return ScenarioTurn(question=question, standalone=record.question, ground_truth=record.ground_truth,
                        reference_contexts=list(record.reference_contexts),
                        reference_context_ids=list(record.reference_context_ids), refers_back=refers_back,
                        metadata={"structure": structure, "record_id": record.id,
                                  "evolution_type": record.evolution_type,
                                  **({"template": record.metadata["template"]} if "template" in record.metadata else {}),
                                  "sources": record.sources})


def conversations_from_records(records: Sequence[TestsetRecord], count: int, turns: int,
                               seed: int = 0) -> Assembly:
    """Up to ``count`` conversations of 2..``turns`` user turns from ``records`` (see the
    module docstring); each record is used once. Openers are drawn in a seeded order: the
    same records and seed give the same conversations."""
    subjects = {r.id: s for r in records if (s := find_subject(r)) is not None}
    position = {r.id: k for k, r in enumerate(records)}
    usable = [r for r in records if r.id in subjects]
    by_key: dict[str, list[TestsetRecord]] = defaultdict(list)
    by_frame: dict[str, list[TestsetRecord]] = defaultdict(list)
    for r in usable:
        by_key[subjects[r.id].key].append(r)
        by_frame[_frame(r, subjects[r.id])].append(r)
    rng = random.Random(f"{seed}:conversations")
    keys = sorted(by_key)
    rng.shuffle(keys)
    used: set[str] = set()
    out: list[ConversationScenario] = []

    def follow_up(previous: TestsetRecord, current: Subject) -> tuple[TestsetRecord, ScenarioTurn, Subject] | None:
        options: list[tuple[int, int, TestsetRecord, ScenarioTurn, Subject]] = []
        for r in by_key.get(current.key, []):
            if r.id in used or r.question == previous.question or r.ground_truth == previous.ground_truth:
                continue
            structure = structure_between(previous, r)
            worded = what_about(previous.question, r.question)
            how = "what_about"
            if worded is None:
                worded, how = with_pronoun(r.question, subjects[r.id]), "pronoun"
            if worded is not None:
                options.append((STRUCTURE_ORDER.index(structure), len(options), r,
                                scenario_turn(r, worded, how, structure), subjects[r.id]))
        frame = _frame(previous, subjects[previous.id]) if previous.id in subjects else None
        for r in by_frame.get(frame or "", []):
            s = subjects[r.id]
            if r.id in used or s.key == current.key or not (_documents(previous) & _documents(r)
                                                            or set(previous.reference_context_ids) & set(r.reference_context_ids)):
                continue  # a sibling from the same page or table: the frame alone could pair strangers
            if (_words_before(r.question, s.start) or [""])[-1].lower() in _BEFORE_A_VERB:
                continue  # "How do you <monitor for vulnerabilities>": a verb phrase, no "what about" form
            options.append((STRUCTURE_ORDER.index("same_frame"), len(options), r,
                            scenario_turn(r, f"And what about {s.span}?", "what_about", "same_frame"), s))
        if not options:
            return None
        _, _, record, turn, subject = min(options, key=lambda o: (o[0], o[1]))
        return record, turn, subject

    for key in keys:
        if len(out) >= count:
            break
        openers = [r for r in by_key[key] if r.id not in used]
        # a definition names its subject best ("What is the Eiffel Tower?"); then corpus order
        openers.sort(key=lambda r: (r.metadata.get("wh") != "define", position[r.id]))
        for opener in openers[:1]:
            chosen = [opener]
            used.add(opener.id)
            chat = [scenario_turn(opener, opener.question, "", "opening")]
            current = subjects[opener.id]
            while len(chat) < turns and (found := follow_up(chosen[-1], current)) is not None:
                record, turn, current = found
                used.add(record.id)
                chosen.append(record)
                chat.append(turn)
            if len(chat) < 2:
                used.discard(opener.id)  # free for another subject's conversation
                continue
            out.append(ConversationScenario(
                id=content_id(*(t.question for t in chat), *(r.id for r in chosen), prefix="conv-"),
                subject=subjects[opener.id].span,
                turns=chat, metadata={"generator": "offline", "seed": seed}))
    return Assembly(out, used)
