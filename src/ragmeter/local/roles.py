"""Who did what to whom: the roles a claim gives its names, checked against the premise.

Word alignment finds every word of "Howard Florey discovered penicillin" in a passage that
says "Alexander Fleming discovered penicillin in 1928; Howard Florey later developed it as a
drug", and of "Harold defeated William" in one that says William defeated Harold: the words
are all there, their roles are not. Measured on the hand-written support pairs of
``bench/data/support_pairs.jsonl`` before this check: 0 of 32 swapped-role claims and 38% of
wrong-entity claims were caught.

A *frame* is a verb with its logical agent and patient (passive voice undone: in "penicillin
was discovered by Fleming" the agent is Fleming), read from spaCy's dependency parse. A
subject shared by coordinated verbs ("X was born in Ulm and studied in Zurich") and the head
noun of a relative clause ("Fleming, who discovered ...") are filled in. An argument is its
head word with its compound words ("Alexander Fleming"); "he"/"she" stand for the last
proper-noun subject of the sentence or the one before; any other pronoun is no argument
(unknown, never guessed).

The check (``role_agreement``), for each claim frame with arguments:

* **agrees** when a premise frame has the same arguments in the same roles and polarity
  (any verb, when the claim frame has both: the verb is the word a paraphrase changes most,
  "beat" for "defeated"; the same verb, when it has one);
* **conflicts** when no frame agrees and either a premise frame states the same (same verb,
  same arguments) with the other polarity ("Mitochondria do not have their own DNA" where
  the passage says they have it; a "not"/"never" on the verb or "no" on its object), or
  holds the claim's two arguments the other way round (swapped roles), or a premise frame
  with the same verb gives this role to a different *name* (both proper nouns: "Fleming
  discovered" where the claim says "Florey discovered"). Common nouns are never a conflict: a paraphrase changes them
  freely ("pigments" for "anthocyanins"); nor is a name with another verb, which may be
  another event with its own actors (Fleming discovered penicillin, Florey developed it).

Anything else is unknown: most claims, which is what keeps this check from hurting
paraphrase. Pure functions of parsed text; the parse is ``syntax.parse`` (cached).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Sequence

from ragmeter.local.support import stem

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Span, Token

AGREES, UNKNOWN, CONFLICTS = 1.0, 0.5, 0.0

_RELATIVE = {"who", "which", "that", "whom"}
_NAME_PARTS = {"compound", "flat", "amod"}


@dataclass(frozen=True)
class Argument:
    """A role filler: its words (lowercased, head last) and whether it is a name."""

    words: tuple[str, ...]
    named: bool

    def same(self, other: "Argument") -> bool:
        """Whether two arguments name the same thing: a word in common, by stem ("Fleming"
        and "Alexander Fleming"; "army" and "armies")."""
        mine = {stem(w) for w in self.words}
        return any(stem(w) in mine for w in other.words)


@dataclass(frozen=True)
class Frame:
    """A verb (its lemma) with its logical agent and patient (either may be missing)."""

    verb: str
    agent: Argument | None
    patient: Argument | None
    negated: bool = False


def _argument(token: "Token") -> Argument | None:
    if token.lower_ in _PERSONAL:
        token = _person_before(token) or token
    if token.pos_ == "PRON" or token.lower_ in _RELATIVE:
        return None
    parts = [c for c in token.children if c.dep_ in _NAME_PARTS and c.i < token.i]
    words = tuple(t.lower_ for t in (*parts, token) if t.is_alpha or t.like_num)
    if not words:
        return None
    return Argument(words, token.pos_ == "PROPN")


_PERSONAL = {"he", "she"}


def _person_before(pronoun: "Token") -> "Token | None":
    """The name a "he"/"she" subject most likely stands for: the last proper-noun subject
    before it in its sentence or the one before ("Fleming discovered penicillin when he
    noticed ..."). Only persons: "it" and "they" have too many candidates to guess."""
    sentence = pronoun.sent
    start = sentence.start
    previous = pronoun.doc[start - 1].sent if start > 0 else None
    lo = previous.start if previous is not None else start
    for token in reversed(pronoun.doc[lo:pronoun.i]):
        if token.dep_ in ("nsubj", "nsubjpass") and token.pos_ == "PROPN":
            return token
    return None


def _subject(verb: "Token") -> "Token | None":
    for child in verb.children:
        if child.dep_ in ("nsubj", "nsubjpass"):
            return child
    return None


def _frame(verb: "Token") -> Frame | None:
    agent: "Token | None" = None
    patient: "Token | None" = None
    for child in verb.children:
        if child.dep_ == "nsubj":
            agent = child
        elif child.dep_ == "nsubjpass":
            patient = child
        elif child.dep_ == "dobj" and patient is None:
            patient = child
        elif child.dep_ == "agent":
            agent = next((c for c in child.children if c.dep_ == "pobj"), agent)
    head = verb
    passive = any(c.dep_ == "nsubjpass" for c in verb.children)
    # "X was born in Ulm and studied in Zurich": studied's subject is X; "Lubeck served as
    # the leading city and hosted most of its assemblies": hosted has an object of its own
    # but still Lubeck's subject (before, only a verb with no argument at all inherited it,
    # so "Hamburg hosted most of the Diets" met no agent to conflict with)
    while agent is None and not passive and head.dep_ == "conj" and head.head is not head:
        head = head.head
        shared = _subject(head)
        if shared is not None:
            if shared.dep_ == "nsubjpass" and verb.tag_ == "VBN":
                if patient is None:
                    patient = shared
                break
            agent = shared
    for role in ("agent", "patient"):
        token = agent if role == "agent" else patient
        if token is not None and token.lower_ in _RELATIVE and verb.dep_ == "relcl":
            if role == "agent":
                agent = verb.head  # "Fleming, who discovered penicillin"
            else:
                patient = verb.head
    a = _argument(agent) if agent is not None else None
    p = _argument(patient) if patient is not None else None
    if a is None and p is None:
        return None
    return Frame(verb.lemma_.lower(), a, p, _negated(verb, patient))


_NEGATORS = {"not", "n't", "never", "no"}


def _negated(verb: "Token", patient: "Token | None") -> bool:
    """Whether the verb is denied: a "not"/"never" on it or its auxiliaries ("did not
    have", "cannot be refunded"), or "no" on its object ("has no moons")."""
    if any(c.dep_ == "neg" or c.lower_ in _NEGATORS for c in verb.children):
        return True
    return patient is not None and any(c.dep_ == "det" and c.lower_ == "no"
                                       for c in patient.children)


def frames(span: "Span | Iterable[Token]") -> list[Frame]:
    """The frames of a parsed text: one per verb that has an agent or a patient."""
    out: list[Frame] = []
    for token in span:
        if token.pos_ == "VERB":
            frame = _frame(token)
            if frame is not None:
                out.append(frame)
    return out


def _agrees(claim: Frame, premise: Frame, polarity: bool = True) -> bool:
    if (claim.agent is None or claim.patient is None) and stem(claim.verb) != stem(premise.verb):
        return False  # one argument alone says little: "Florey noticed" is not "Florey developed"
    if polarity and claim.negated != premise.negated:
        return False
    for mine, theirs in ((claim.agent, premise.agent), (claim.patient, premise.patient)):
        if mine is not None and (theirs is None or not mine.same(theirs)):
            return False
    return True


def _other_name(mine: Argument | None, theirs: Argument | None) -> bool:
    return (mine is not None and theirs is not None and mine.named and theirs.named
            and not mine.same(theirs))


def _conflicts(claim: Frame, premise: Frame) -> bool:
    if (claim.negated != premise.negated and stem(claim.verb) == stem(premise.verb)
            and _agrees(claim, premise, polarity=False)):
        return True  # the same statement, one side denying it
    a, p = claim.agent, claim.patient
    if a is not None and p is not None and premise.agent is not None \
            and premise.patient is not None and a.same(premise.patient) \
            and p.same(premise.agent) and not a.same(p):
        return True  # swapped roles
    if stem(claim.verb) != stem(premise.verb):
        # another verb may be another event with other actors: Fleming discovered penicillin,
        # Florey developed it; both true
        return False
    return _other_name(a, premise.agent) or _other_name(p, premise.patient)


def role_agreement(claim: Sequence[Frame], premise: Sequence[Frame]) -> float:
    """``AGREES`` (1) when every claim frame that can be checked agrees with a premise frame,
    ``CONFLICTS`` (0) when some claim frame has no agreeing premise frame and a conflicting
    one (see the module docstring), else ``UNKNOWN`` (0.5)."""
    verdicts: list[float] = []
    for c in claim:
        if any(_agrees(c, p) for p in premise):
            if c.agent is not None and c.patient is not None:
                verdicts.append(AGREES)
        elif any(_conflicts(c, p) for p in premise):
            verdicts.append(CONFLICTS)
    if not verdicts:
        return UNKNOWN
    return min(verdicts)
