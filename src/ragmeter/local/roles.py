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
noun of a relative clause ("Fleming, who discovered ...") are filled in. So is the agent of
a "to" clause, from the verb it depends on: its object for verbs that make their object do
something ("lead the head teacher to fine", "order you to pay"), else its subject ("the
authority has to alert the controller", "the lens uses the rays to bend the rings"); and a
noun's role in a participle that modifies it ("a bakery owned by Thomas Farriner": the
bakery is owned). An argument is its head word with its compound words ("Alexander
Fleming"), an apposition's ("her colleague Maurice Wilkins": a name, though its head is
"colleague") and, after a partitive head, what it measures out ("a group of local farmers",
"most of its assemblies"); nouns coordinated with it are fillers of their own ("Armstrong
and Collins": each must be found). "he"/"she" stand for the last proper-noun subject of
the sentence or the one before; any other pronoun is no argument (unknown, never guessed).
Measured on the RAG development set (dev and heldout, claims of every answer): these took
five claims of swapped-role and wrong-entity variants from supported to a conflict
("the supervisory authority has to alert the controller" where the controller notifies
the authority; "Bingham led a group of local farmers" where farmers guided him; "Gosling
showed it to Watson" where her colleague Maurice Wilkins did) and no faithful claim.

The check (``role_agreement``), for each claim frame with arguments:

* **agrees** when a premise frame has the same arguments in the same roles and polarity
  (any verb, when the claim frame has both: the verb is the word a paraphrase changes most,
  "beat" for "defeated"; the same verb, when it has one);
* **conflicts** when no frame agrees and either a premise frame states the same (same verb,
  same arguments) with the other polarity ("Mitochondria do not have their own DNA" where
  the passage says they have it; a "not"/"never" on the verb or "no" on its object), or
  holds the claim's two arguments the other way round (swapped roles), or a premise frame
  with the same verb (not a light one: "use", "have", "make") holds one claim argument in the
  other role while the claim's filler of that role is something else ("the lens bends the
  rings" where each ring bends the light), or a premise frame
  with the same verb gives this role to a different *name* (both proper nouns: "Fleming
  discovered" where the claim says "Florey discovered"). Common nouns are never a conflict: a paraphrase changes them
  freely ("pigments" for "anthocyanins"); nor is a name with another verb, which may be
  another event with its own actors (Fleming discovered penicillin, Florey developed it).
  Tried and dropped: a common noun in the role counted as a conflict when the passage
  speaks of it in another role ("lead the head teacher to fine", where the council fines
  and the head teacher grants leave). It broke faithful claims that name what the passage
  calls by its kind ("The Mona Lisa was painted by Leonardo" where Leonardo painted "the
  portrait"; the bacterium caused "the plague" where it caused "the disease").

A frame also keeps the fillers of three prepositional roles (``Frame.obliques``): "with"
(who shares it), "against" (who it is aimed at) and the receiver ("to Watson", "pay them").
Where both frames have one, another name there breaks agreement ("shared the prize with
Frederic Joliot" where she shared it with Pierre Curie), and the agent and that filler the
other way round is a swap ("the landlord can bring a claim against you" where you bring one
against the landlord). "you" is an argument: the reader, in the passage and in the answer
(but not one that lets another verb agree: the reader does most things a passage speaks
of). Measured on the RAG development set (dev and heldout), these changed no verdict.

Which figure goes with what (``crossed_figures``) is a role too: "50 pounds for every
weekday night" where the passage pays 25 pounds for a weekday night and 50 for a Saturday,
"up to 110 km in Turbo" where 110 km is the range in Eco. Every figure with a unit carries
the content words of its part of its sentence, and a claim figure whose every place in the
evidence is outdone by a rival figure of the same kind in the same sentence is crossed
(see the function). Two numbers joined by "or"/"to"/"and" are one range, said of one thing
("two or three times a day"), and the "an hour" of a rate ("4 centimetres an hour") is no
duration. Measured on the RAG development set (dev and heldout, claims of every answer): 12
claims of unfaithful variants went from supported to a conflict (8 of them swapped-role
claims), no faithful claim; before the rivals were kept to the figure's own sentence and
figures of different kinds were cut apart at clause marks, two faithful claims were crossed
("fit a fresh filter every six months" against a 5-second button press two sentences on;
"Starter covers 50 pages, while Plus costs 7.99 dollars" read as one part). Read against
every sentence of its passage (the verifier reads the best three), no ground-truth or
faithful-answer claim of dev and heldout is crossed; 4 ground-truth and 3 faithful-answer
claims of the blind splits are (not read; through the verifier none of their verdicts
changed). Tried and dropped: a rival's word counting only when no other figure's part holds
it (the passage's topic, "bamboo", ties nothing): it lost two catches ("Starter costs 7.99
dollars" where Plus does: "Starter" names two parts) and freed no faithful claim.

Anything else is unknown: most claims, which is what keeps this check from hurting
paraphrase. Pure functions of parsed text; the parse is ``syntax.parse`` (cached).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Sequence

from ragmeter.local.support import stem

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc, Span, Token

AGREES, UNKNOWN, CONFLICTS = 1.0, 0.5, 0.0

_RELATIVE = {"who", "which", "that", "whom"}
_NAME_PARTS = {"compound", "flat", "amod"}
_PARTITIVE = frozenset("group number set most majority part share some all one many few team "
                       "pair couple handful lot lots rest kind type member members portion "
                       "fraction half quarter third percent".split())
"""Head nouns that only measure out what their "of" names: "a group of local farmers" is
the farmers, "most of its assemblies" the assemblies."""


@dataclass(frozen=True)
class Argument:
    """A role filler: its words (lowercased, head last; an apposition's and a partitive's
    words after them) and whether it is a name; ``also``: the fillers coordinated with it
    ("Watson, Crick and Wilkins"), each an argument of its own."""

    words: tuple[str, ...]
    named: bool
    also: tuple["Argument", ...] = ()

    def members(self) -> tuple["Argument", ...]:
        """This filler and the ones coordinated with it, one argument each."""
        return (Argument(self.words, self.named), *self.also)

    def _meets(self, other: "Argument") -> bool:
        mine = {stem(w) for w in self.words}
        return any(stem(w) in mine for w in other.words)

    def same(self, other: "Argument") -> bool:
        """Whether two arguments name the same thing: each filler of this one has a word in
        common, by stem, with a filler of the other ("Fleming" and "Alexander Fleming";
        "army" and "armies"; "Watson and Crick" within "Watson, Crick and Wilkins"; not
        "Armstrong and Collins" within "Armstrong and Aldrin")."""
        theirs = other.members()
        return all(any(m._meets(o) for o in theirs) for m in self.members())


@dataclass(frozen=True)
class Frame:
    """A verb (its lemma) with its logical agent and patient (either may be missing)."""

    verb: str
    agent: Argument | None
    patient: Argument | None
    negated: bool = False
    obliques: tuple[tuple[str, Argument], ...] = ()
    """Fillers of the roles a preposition marks, by preposition: "with" (who shares it:
    "shared the prize with Pierre Curie"), "against" (who it is aimed at: "a claim against
    the landlord"), "to" (who receives it: "showed the photograph to Watson", "pay them")."""

    def oblique(self, preposition: str) -> Argument | None:
        return next((a for p, a in self.obliques if p == preposition), None)


def _words(token: "Token") -> list["Token"]:
    parts = [c for c in token.children if c.dep_ in _NAME_PARTS and c.i < token.i]
    return [t for t in (*parts, token) if t.is_alpha or t.like_num]


def _argument(token: "Token", coordinated: bool = True) -> Argument | None:
    if token.lower_ in _PERSONAL:
        token = _person_before(token) or token
    if token.lower_ == "you":
        # the reader, in the passage and in the answer alike ("the landlord must pay you")
        return Argument(("you",), False)
    if token.pos_ == "PRON" or token.lower_ in _RELATIVE:
        return None
    tokens = _words(token)
    named = token.pos_ == "PROPN"
    # "her colleague Maurice Wilkins": the apposition names the same filler
    for child in token.children:
        if child.dep_ == "appos" and child.pos_ in ("NOUN", "PROPN"):
            tokens += _words(child)
            named = named or child.pos_ == "PROPN"
    # "a group of local farmers": the group is the farmers; "the firm of Gustave Eiffel",
    # "the Head of HR": the name says whose
    for prep in token.children:
        if prep.dep_ == "prep" and prep.lower_ == "of":
            tokens += [t for o in prep.children if o.dep_ == "pobj" and (
                token.lemma_.lower() in _PARTITIVE or o.pos_ == "PROPN") for t in _words(o)]
    if not tokens:
        return None
    also: list[Argument] = []
    if coordinated:
        for other in _conjuncts(token):
            arg = _argument(other, coordinated=False)
            if arg is not None:
                also.append(arg)
    return Argument(tuple(t.lower_ for t in tokens), named, tuple(also))


def _conjuncts(token: "Token") -> list["Token"]:
    """The nouns coordinated with ``token``: "Crick" and "Wilkins" of "Watson, Crick and
    Wilkins" (spaCy chains them, each the conjunct of the one before)."""
    out: list["Token"] = []
    for child in token.children:
        if child.dep_ == "conj" and child.pos_ in ("NOUN", "PROPN"):
            out += [child, *_conjuncts(child)]
    return out


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


_OBJECT_CONTROL = frozenset("lead push force ask tell order allow permit enable cause require "
                            "persuade urge encourage help get let make want expect invite "
                            "remind instruct advise forbid drive compel oblige teach "
                            "authorise authorize".split())
"""Verbs whose object does what their "to" clause says: "lead the head teacher to fine",
"order you to pay". With any other verb the subject does it: "has to alert", "uses the
rays to bend"."""


def _roles(verb: "Token", depth: int = 0) -> "tuple[Token | None, Token | None, bool]":
    """The tokens of the logical agent and patient of ``verb``, and whether it is passive."""
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
    if (agent is None and not passive and depth < 3 and verb.dep_ in ("xcomp", "advcl")
            and any(c.dep_ == "aux" and c.lower_ == "to" for c in verb.children)):
        # a "to" clause does what its controller does: the object of "lead X to fine", the
        # subject (logical agent) of "has to alert", "uses the rays to bend"
        controller = verb.head
        c_agent, c_patient, c_passive = _roles(controller, depth + 1)
        if controller.lemma_.lower() in _OBJECT_CONTROL and c_patient is not None:
            agent = c_patient
        elif not c_passive:
            agent = c_agent
    if verb.dep_ == "acl" and verb.head.pos_ in ("NOUN", "PROPN"):
        # "a bakery owned by Thomas Farriner": the bakery is owned; "a farmer owning land":
        # the farmer owns
        if verb.tag_ == "VBN" and patient is None:
            patient = verb.head
        elif verb.tag_ == "VBG" and agent is None:
            agent = verb.head
    return agent, patient, passive


def _frame(verb: "Token") -> Frame | None:
    agent, patient, _ = _roles(verb)
    for role in ("agent", "patient"):
        token = agent if role == "agent" else patient
        if token is not None and token.lower_ in _RELATIVE and token.head.dep_ == "relcl":
            if role == "agent":
                agent = token.head.head  # "Fleming, who discovered penicillin"
            else:
                patient = token.head.head
    a = _argument(agent) if agent is not None else None
    p = _argument(patient) if patient is not None else None
    if a is None and p is None:
        return None
    return Frame(verb.lemma_.lower(), a, p, _negated(verb, patient), _obliques(verb, patient))


_OBLIQUE = frozenset({"with", "against"})


def _obliques(verb: "Token", patient: "Token | None") -> tuple[tuple[str, Argument], ...]:
    """The "with", "against" and "to" (receiver) fillers of a verb or of its object ("bring
    a claim against the landlord"). "to" only as spaCy's dative ("showed it to Watson",
    "pay them"): a "to" of place ("flew to the surface") is no participant."""
    out: list[tuple[str, Argument]] = []
    for head in (verb, patient):
        if head is None:
            continue
        for child in head.children:
            if child.dep_ == "dative":
                target = child if child.lower_ != "to" else next(
                    (c for c in child.children if c.dep_ == "pobj"), None)
                key = "to"
            elif child.dep_ == "prep" and child.lower_ in _OBLIQUE:
                target = next((c for c in child.children if c.dep_ == "pobj"), None)
                key = child.lower_
            else:
                continue
            arg = _argument(target) if target is not None else None
            if arg is not None and all(k != key for k, _ in out):
                out.append((key, arg))
    return tuple(out)


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


_READER = ("you",)


def _agrees(claim: Frame, premise: Frame, polarity: bool = True) -> bool:
    if (claim.agent is None or claim.patient is None) and stem(claim.verb) != stem(premise.verb):
        return False  # one argument alone says little: "Florey noticed" is not "Florey developed"
    if stem(claim.verb) != stem(premise.verb) and any(
            arg is not None and arg.words == _READER for arg in (claim.agent, claim.patient)):
        # the reader does most things a passage speaks of: "you can upload new files" is
        # not "you can read and download your files"
        return False
    if polarity and claim.negated != premise.negated:
        return False
    for mine, theirs in ((claim.agent, premise.agent), (claim.patient, premise.patient)):
        if mine is not None and (theirs is None or not mine.same(theirs)):
            return False
    # "shared the prize with Frederic Joliot" is not "shared the prize with Pierre Curie"
    return not any(_other_name(a, premise.oblique(k)) for k, a in claim.obliques)


def _other_name(mine: Argument | None, theirs: Argument | None) -> bool:
    """Whether the claim puts a name where the premise has only other names: a named filler
    of ``mine`` that no filler of ``theirs`` matches ("Armstrong and Collins flew" where
    Armstrong and Aldrin flew)."""
    if mine is None or theirs is None or not all(t.named for t in theirs.members()):
        return False
    return any(m.named and not any(m.same(t) for t in theirs.members())
               for m in mine.members())


_LIGHT = frozenset("be have do get make take give use include become".split())
"""Verbs too general to tie their arguments to one event: "the lens uses the rays" and "the
rays use ..." may both be said of different things."""


def _one_sided_swap(claim: Frame, premise: Frame) -> bool:
    """The same verb, and a claim argument is the premise's filler of the other role while
    the claim's filler of that role is something else: "the lens bends the rings" against
    "each ring bends the light" (the rings do the bending); "the collapse set off the quake"
    against "the quake triggered the landslide" needs the same verb and is not caught."""
    if stem(claim.verb) != stem(premise.verb) or claim.verb in _LIGHT:
        return False
    a, p = claim.agent, claim.patient
    pa, pp = premise.agent, premise.patient
    if a is None or p is None or pa is None or pp is None or a.same(p):
        return False
    return (p.same(pa) and not p.same(pp) and not a.same(pa)) or (
        a.same(pp) and not a.same(pa) and not p.same(pp))


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
    if _one_sided_swap(claim, premise):
        return True
    for key, mine in claim.obliques:
        theirs = premise.oblique(key)
        if _other_name(mine, theirs):
            return True
        # "the landlord can bring a claim against you" where you bring one against the landlord
        if (theirs is not None and a is not None and premise.agent is not None
                and a.same(theirs) and mine.same(premise.agent) and not a.same(mine)):
            return True
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


# --- which figure goes with what --------------------------------------------------------

_TIME_UNITS = {"second": 1 / 86400, "minute": 1 / 1440, "hour": 1 / 24, "day": 1.0,
               "week": 7.0, "month": 30.0, "year": 365.0}
"""Durations in days: "within a week" restates "within 7 days", and "a year" is a rival of
"30 days" (both say how long)."""

_BOUNDARIES = {";": 3, ":": 3, "while": 2, "whereas": 2, "but": 2, ",": 2, "and": 1, "or": 1}
"""Where one figure's part of a sentence ends and the next one's begins, strongest first:
the strongest mark between two figures (the last of equals) splits them."""


_RANGE = frozenset({"or", "to", "and", "-", "\u2013"})
"""Words between two numbers that make them one range or choice, said of one thing."""


@dataclass(frozen=True)
class _Figure:
    """A number with its unit, and the stems of the words of its part of the sentence."""

    kind: str
    value: float
    keys: frozenset[str]


def _unit(token: "Token") -> "Token | None":
    """The noun a number counts or measures: its head ("25 pounds"), or the noun right
    after it ("a 7-year warranty")."""
    if token.head.pos_ == "NOUN" and 0 < token.head.i - token.i <= 3:
        return token.head
    doc = token.doc
    for t in doc[token.i + 1: min(len(doc), token.i + 3)]:
        if t.is_alpha:
            return t if t.pos_ in ("NOUN", "PROPN") else None
    return None


def _figure_tokens(span: "Span | Doc") -> "list[tuple[Token, str, float]]":
    """(token, kind, value) of each figure with a unit: "25 pounds", "7 days" and "a week"
    (durations in days, ``_TIME_UNITS``), "110 km"; a bare number (a year, a count) is no
    figure here."""
    from ragmeter.local.nlp import number_value

    out: list[tuple["Token", str, float]] = []
    last: tuple[str, float] | None = None  # the kind and scale of the figure before
    for token in span:
        if token.tag_ == "CD":
            value = number_value(token.lower_)
            try:
                number = float(value) if value is not None else None
            except ValueError:
                number = None
            if number is None:
                continue
            unit = _unit(token)
            if unit is None:
                # "the frame for seven years, the motors only for two": the unit of the
                # figure before, when this one names none and is no year
                if last is not None and number < 1000 and not (
                        token.i + 1 < len(token.doc) and token.doc[token.i + 1].is_alpha):
                    out.append((token, last[0], number * last[1]))
                continue
            name = unit.lemma_.lower()
            if name in _TIME_UNITS:
                last = ("time", _TIME_UNITS[name])
            else:
                last = (stem(name), 1.0)
            out.append((token, last[0], number * last[1]))
        elif token.lemma_.lower() in _TIME_UNITS and not any(
                c.dep_ == "nummod" for c in token.children) and any(
                c.lower_ in ("a", "an", "past", "last") for c in token.children) and not any(
                t.tag_ == "CD" for t in token.doc[max(0, token.i - 4): token.i]):
            # "within a week", "from the past year"; not the "an hour" of a rate ("4
            # centimetres an hour", "95 pounds a year")
            out.append((token, "time", _TIME_UNITS[token.lemma_.lower()]))
    return out


def _cut(tokens: "list[Token]", a: "Token", b: "Token", weakest: int) -> int | None:
    """Where the part of ``a`` ends and that of ``b`` begins: the last of the strongest
    marks between them (``_BOUNDARIES``) at least ``weakest`` strong, else None."""
    gap = [t for t in tokens if a.i < t.i < b.i and _BOUNDARIES.get(t.lower_, 0) >= weakest]
    if not gap:
        return None
    best = max(_BOUNDARIES[t.lower_] for t in gap)
    return [t for t in gap if _BOUNDARIES[t.lower_] == best][-1].i


def _figures(span: "Span | Doc") -> list[_Figure]:
    """The figures of a sentence, each with the content words of its part of it.

    The sentence is cut between two figures of one kind at the strongest mark between them
    (``_BOUNDARIES``; right before the second when there is none), between two neighbouring
    figures of different kinds at a clause mark only ("50 pages, while Plus costs 7.99
    dollars"; not "3.99 dollars a month for up to 50 pages", one offer), and at a ";" or ":"
    before the first figure and after the last."""
    tokens = list(span)
    found = sorted(_figure_tokens(span), key=lambda f: f[0].i)
    if not found:
        return []
    cuts: set[int] = set()
    for kind in dict.fromkeys(k for _, k, _ in found):
        mine = [t for t, k, _ in found if k == kind]
        for a, b in zip(mine, mine[1:]):
            if all(t.lower_ in _RANGE for t in tokens if a.i < t.i < b.i):
                continue  # "two or three times a day", "60 to 130 years": one place
            at = _cut(tokens, a, b, 1)
            cuts.add(b.i if at is None else at)
    for (a, ka, _), (b, kb, _) in zip(found, found[1:]):
        at = _cut(tokens, a, b, 2)
        if ka != kb and at is not None:
            cuts.add(at)
    first, last = found[0][0].i, found[-1][0].i
    start = max([t.i + 1 for t in tokens if t.i < first and _BOUNDARIES.get(t.lower_) == 3],
                default=tokens[0].i)
    end = min([t.i for t in tokens if t.i > last and _BOUNDARIES.get(t.lower_) == 3],
              default=tokens[-1].i + 1)
    figure_words = {t.i for t, _, _ in found} | {
        u.i for t, _, _ in found for u in [_unit(t)] if u is not None}
    out: list[_Figure] = []
    for token, kind, value in found:
        lo = max([c for c in cuts if c <= token.i] + [start])
        hi = min([c for c in cuts if c > token.i] + [end])
        keys = frozenset(stem(t.lemma_.lower()) for t in tokens
                         if lo <= t.i < hi and t.i not in figure_words and t.is_alpha
                         and not t.is_stop and t.pos_ in ("NOUN", "PROPN", "VERB", "ADJ"))
        out.append(_Figure(kind, value, keys))
    return out


def crossed_figures(claim: "Span | Doc", evidence: "Sequence[Span | Doc]") -> bool:
    """Whether the claim gives a figure to what its evidence gives another figure of the same
    kind: "50 pounds for every weekday night" where the passage says "25 pounds for each
    weekday night and 50 pounds for each Saturday, Sunday or public holiday"; "up to 110 km
    in Turbo" where it says "up to 110 km in Eco ... about 40 km in Turbo".

    Each figure carries the content words of its part of its sentence (``_figures``). A claim
    figure is crossed when every place the evidence states it is outdone by a rival (another
    value of its kind in the same sentence: one in another sentence may be about anything,
    "hold the Reset button for 5 seconds after fitting a new filter" is no rival of "replace
    the filter every 6 months"): the rival's part holds claim words that the figure's
    part lacks, and the figure's part holds none that the rival's lacks. A figure stated
    where some claim word is that its rivals' parts lack, or in a part with no content word
    ("or 6 hours with it on"), is not crossed: a paraphrase that rewords the rest is never
    held against itself."""
    sentences = [_figures(sentence) for sentence in evidence]
    for mine in _figures(claim):

        def outdone(place: _Figure, rivals: list[_Figure]) -> bool:
            if not place.keys:
                return False  # "or 6 hours with it on": nothing there to compare
            here = mine.keys & place.keys
            return any((mine.keys & r.keys) - here and not here - r.keys for r in rivals)

        places = [(f, [r for r in figures if r.kind == mine.kind
                       and abs(r.value - mine.value) >= 1e-9])
                  for figures in sentences for f in figures
                  if f.kind == mine.kind and abs(f.value - mine.value) < 1e-9]
        if places and all(outdone(place, rivals) for place, rivals in places):
            return True
    return False
