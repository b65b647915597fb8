"""Encyclopaedic prose: bracketed birth dates ("X (born 4 May 1867) is ..."), kinds of
people, and titles of works shared by a remake, for the birth and release comparisons."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Sequence
from ragmeter.text.syntax import parse
from testset_gen.offline.questions import PERSON_NOUNS, Question, date_preposition, questions_from_sentence


DATE_PATTERN = r"(?:\d{1,2}\s+)?(?:[A-Z][a-z]+\.?\s+)?(?:\d{1,2},?\s+)?(?:1\d{3}|20\d{2})"


BORN = re.compile(r"^((?:[A-Z][\w'’.-]*\s+){1,4}?[A-Z][\w'’-]*[a-z])\s+\((?:[^()]*?;\s*)?"
                  r"(?:born\s+(?:on\s+)?(" + DATE_PATTERN + r")\b[^()]*"
                  r"|(" + DATE_PATTERN + r")\s*[–-]\s*" + DATE_PATTERN + r"\s*)\)")
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
