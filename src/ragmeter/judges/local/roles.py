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
showed it to Watson" where her colleague Maurice Wilkins did) and no faithful claim. On the
blind splits (checks, not read) with the antonym list widened at the same time, faithful
answers fell from 0.789 to 0.769 (fresh3) and 0.808 to 0.792 (fresh4): two faithful answer
claims there now meet a role conflict.

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

Tried and dropped: which figure goes with what, each figure with a unit ("25 pounds", "a
week") carrying the content words of its part of its sentence, a claim figure crossed when
its every place in the evidence is outdone by a rival figure of its kind in the same
sentence ("50 pounds for every weekday night" where the passage pays 25 pounds for a
weekday night and 50 for a Saturday). On dev and heldout it took 12 claims of unfaithful
variants (8 swapped-role claims; heldout swapped_roles 0.833 -> 0.481) and no faithful
claim, but on the blind splits it crossed 4 ground-truth claims the contexts state and one
faithful answer claim (context recall of the fresh split 0.525 -> 0.475), as a word-
proximity version had before it: a paraphrase that rewords the figure's own words while
keeping a word its neighbour's part has reads as a swap. It lives in the history of the
``roles2`` branch (commit 13d951a).

A *title frame* (``title_frames``) says who holds which office: "The Managing Director of
FoodFutureCo is Shen Tong", "Priya Raman, the Managing Director", "serves as managing
director". A claim's title agrees where the premise ties it to the same holder (a title
frame, a verb whose doer the title names: "founded by Shen Tong" for "the founder", or one
argument carrying title and name: "Managing Director Priya Raman joined"); it conflicts
where the premise gives it to another name, or, for an office of a named organisation,
names the holder while never naming the office. Word alignment could not see it: both
names and the title's words were in "FoodFutureCo was founded by Shen Tong. Its Managing
Director is Priya Raman", and "The Managing Director of FoodFutureCo is Shen Tong" scored
0.76. Measured on the hand-written support pairs (development): AUROC 0.772 -> 0.775,
wrong-entity and swapped-role claims lower, no faithful claim newly in conflict.

Anything else is unknown: most claims, which is what keeps this check from hurting
paraphrase. Pure functions of parsed text; the parse is ``syntax.parse`` (cached).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Collection, Iterable, Sequence

from ragmeter.text.normalise import same_word
from ragmeter.judges.local.families import enabled
from ragmeter.judges.local.support import stem

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Span, Token

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
        # the crude stem takes one suffix off: "Montgolfiers" -> "montgolfier" but
        # "Montgolfier" -> "montgolfi"; ``same_word`` meets them
        return any(stem(w) in mine or any(same_word(w, m) for m in self.words)
                   for w in other.words)

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
    the landlord"), "to" (who receives it: "showed the photograph to Watson", "pay them");
    in a title frame, "of": whose title it is ("the Managing Director of FoodFutureCo")."""
    title: bool = False
    """A title frame (``title_frames``): ``verb`` is the title's head noun ("director"),
    ``agent`` its holder (None for a pronoun or a common noun: someone unknown)."""

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
            # "the brothers Joseph-Michel and Jacques-Etienne Montgolfier": all of them
            for one in (child, *_conjuncts(child)):
                tokens += _words(one)
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
    while agent is None and not passive and head.dep_ == "conj" and head.head != head:
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
    """The frames of a parsed text: one per verb that has an agent or a patient, then its
    title frames (``title_frames``)."""
    tokens = list(span)
    out: list[Frame] = []
    for token in tokens:
        if token.pos_ == "VERB":
            frame = _frame(token)
            if frame is not None:
                out.append(frame)
    return out + title_frames(tokens)


# --- titles: who holds which office ------------------------------------------------------


_NOT_TITLES = frozenset({"one", "same", "ones"})
"""Heads and modifiers of a definite noun that say no office: "the one nearest the Sun",
"the same size as Earth" (both read as titles on the support pairs)."""


def _bare_name(token: "Token") -> bool:
    """A proper noun with no determiner or possessor: a name ("Shen Tong"), not a title
    ("the Managing Director", capitalised and so a proper noun to the tagger too)."""
    return token.pos_ == "PROPN" and not any(
        c.dep_ in ("det", "poss") for c in token.children)


def _definite_role(token: "Token") -> bool:
    """A noun that names one office: definite ("the founder"), possessed ("its managing
    director", "FoodFutureCo's chair") or of something ("managing director of X"). "A
    physicist" names a class, not an office: no title frame."""
    if token.pos_ not in ("NOUN", "PROPN") or token.lower_ in _NOT_TITLES or any(
            c.lower_ in _NOT_TITLES for c in token.children):
        return False
    if token.pos_ == "PROPN":
        # a capitalised title is definite or "its"/"her": "France's Lucien Laurent" is a name
        # (read as a title, it put a faithful support pair in conflict)
        return any((c.dep_ == "det" and c.lower_ == "the")
                   or (c.dep_ == "poss" and c.pos_ == "PRON") for c in token.children)
    return any((c.dep_ == "det" and c.lower_ == "the") or c.dep_ == "poss"
               or (c.dep_ == "prep" and c.lower_ == "of") for c in token.children)


def _holder(token: "Token") -> Argument | None:
    """The holder of a title: the name's own words (not its apposition, which may be the
    title itself); "he"/"she" read as ``_person_before`` does, else unknown (None)."""
    if token.lower_ in _PERSONAL:
        token = _person_before(token) or token
    if token.pos_ != "PROPN":
        return None
    words = tuple(t.lower_ for t in _words(token))
    return Argument(words, True) if words else None


def _title_frame(holder: "Token", role: "Token", negated: bool) -> Frame:
    whose: Argument | None = None
    for child in role.children:
        target = None
        if child.dep_ == "prep" and child.lower_ == "of":
            target = next((c for c in child.children if c.dep_ == "pobj"), None)
        elif child.dep_ == "poss":
            target = child
        if target is not None and target.pos_ == "PROPN":
            whose = Argument(tuple(t.lower_ for t in _words(target)), True)
    return Frame(role.lemma_.lower(), _holder(holder), None, negated,
                 (("of", whose),) if whose is not None else (), title=True)


def title_frames(tokens: "Sequence[Token]") -> list[Frame]:
    """Who holds which office, as the text says it: a copula ("The Managing Director of
    FoodFutureCo is Shen Tong", "Shen Tong is the founder"), an apposition ("Priya Raman,
    the Managing Director", "its managing director, Priya Raman") or "as" ("serves as
    managing director"). One side must be a bare name or a "he"/"she", the other a
    definite role (``_definite_role``; after "as", any noun).

    Why: the title's words and the two names are often all in one passage, and word
    alignment finds them ("FoodFutureCo was founded by Shen Tong. Its Managing Director is
    Priya Raman." supported "The Managing Director of FoodFutureCo is Shen Tong" at 0.76).
    What ties a title to a person is the syntax that says so."""
    out: list[Frame] = []
    for token in tokens:
        pair: "tuple[Token, Token] | None" = None
        if token.lemma_ == "be" and token.pos_ == "AUX" and token.dep_ != "aux":
            subject = next((c for c in token.children if c.dep_ in ("nsubj", "nsubjpass")), None)
            attr = next((c for c in token.children if c.dep_ == "attr"), None)
            if subject is not None and attr is not None:
                if (_bare_name(subject) or subject.lower_ in _PERSONAL) and _definite_role(attr):
                    pair = (subject, attr)
                elif _bare_name(attr) and _definite_role(subject):
                    pair = (attr, subject)
            if pair is not None:
                out.append(_title_frame(*pair, negated=_negated(token, None)))
        elif token.dep_ == "appos" and token.head != token:
            head = token.head
            if _bare_name(head) and _definite_role(token):
                out.append(_title_frame(head, token, negated=False))
            elif _bare_name(token) and _definite_role(head):
                out.append(_title_frame(token, head, negated=False))
        elif token.pos_ == "VERB":
            subject = _subject(token)
            for prep in token.children:
                role = _as_role(prep) if prep.dep_ == "prep" and prep.lower_ == "as" else None
                if (subject is not None and role is not None and role.pos_ in ("NOUN", "PROPN")
                        and (_bare_name(subject) or subject.lower_ in _PERSONAL)):
                    out.append(_title_frame(subject, role, negated=_negated(token, None)))
    return out


def _as_role(prep: "Token") -> "Token | None":
    """The noun after "as": its object, or the object of a gerund the parser put there
    ("serves as managing director" is read as "as managing [the] director")."""
    for child in prep.children:
        if child.dep_ == "pobj":
            return child
        if child.dep_ == "pcomp" and child.tag_ == "VBG":
            return next((c for c in child.children if c.dep_ == "dobj"), None)
    return None


def _same_title(claim: Frame, premise: Frame) -> bool:
    return premise.title and same_word(claim.verb, premise.verb)


def _acts(title: str, verb: str) -> bool:
    """Whether a title names the doer of a verb: "founder" of "found", "owner" of "own",
    "creator" of "create", "director" of "direct"."""
    base = stem(verb)
    return same_word(title, verb) or title in (base + "er", base + "or", base + "r")


def _org_agrees(claim: Frame, theirs: Argument | None) -> bool:
    return not _other_name(claim.oblique("of"), theirs)


def _ties(claim: Frame, premise: Frame) -> bool:
    """The premise gives the claim's title to the claim's holder: a title frame of the same
    title and holder ("Its Managing Director is Priya Raman"), a frame whose verb is the
    title's act with the holder as agent ("founded by Shen Tong" for "the founder"), or an
    argument that carries the title and the name together ("Managing Director Priya Raman
    joined")."""
    holder = claim.agent
    if holder is None or premise.negated != claim.negated:
        return False
    if _same_title(claim, premise):
        return (premise.agent is not None and holder.same(premise.agent)
                and _org_agrees(claim, premise.oblique("of")))
    if not premise.title and _acts(claim.verb, premise.verb):
        if (premise.agent is not None and holder.same(premise.agent)
                and _org_agrees(claim, premise.patient)):
            return True
    return any(arg is not None and holder.same(arg)
               and any(same_word(claim.verb, w) for w in arg.words)
               for arg in (premise.agent, premise.patient))


def _titled_other(claim: Frame, arg: Argument | None) -> bool:
    """A named argument that carries the claim's title with a name the holder does not meet
    ("Managing Director Priya Raman", where the claim's holder is Shen Tong); the words of
    the claim's organisation are not a name here ("Director of FoodFutureCo")."""
    if arg is None or not arg.named or claim.agent is None:
        return False
    whose = claim.oblique("of")
    org = set(whose.words) if whose is not None else set()
    if not any(same_word(claim.verb, w) for w in arg.words):
        return False
    rest = tuple(w for w in arg.words if not same_word(claim.verb, w) and w not in org)
    return bool(rest) and not claim.agent.same(Argument(rest, True))


def _title_verdict(claim: Frame, premise: Sequence[Frame], words: Collection[str]) -> float | None:
    """``AGREES`` when the premise ties the claim's title to its holder (``_ties``);
    ``CONFLICTS`` when it does not and it gives that title to another name, or, for an
    office of a named organisation, names the holder while its ``words`` never name the
    office ("FoodFutureCo was founded by Shen Tong" for "The Managing Director of
    FoodFutureCo is Shen Tong"); else None."""
    holder = claim.agent
    if holder is None:
        return None
    if any(_ties(claim, p) for p in premise):
        return AGREES
    holders = [p for p in premise if p.negated == claim.negated and _org_agrees(
        claim, p.oblique("of") if p.title else p.patient) and (
        _same_title(claim, p) or (not p.title and _acts(claim.verb, p.verb)))]
    if any(_other_name(holder, p.agent) for p in holders):
        return CONFLICTS  # the title is someone else's
    if any(_titled_other(claim, arg) for p in premise for arg in (p.agent, p.patient)):
        return CONFLICTS  # "Managing Director Priya Raman joined" for Shen Tong
    if holders or claim.oblique("of") is None:
        return None  # held by someone the premise does not name here ("she", "a chef")
    if not any(arg is not None and holder.same(arg)
               for p in premise for arg in (p.agent, p.patient, *(a for _, a in p.obliques))):
        return None
    # the holder is named, the office nowhere. Measured on the hand-written support pairs:
    # holding the holder's other roles against the claim whenever no frame gave the title
    # broke 7 faithful claims whose passage words the title another way ("often called the
    # First Lady of Song", "similar in size to Earth"), and without "of" an organisation
    # ("Manchester United, the first Premier League champions" where they "won the first
    # title") the title word itself may be a paraphrase
    return None if any(same_word(claim.verb, w) for w in words) else CONFLICTS


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


def role_agreement(claim: Sequence[Frame], premise: Sequence[Frame],
                   words: Collection[str] = ()) -> float:
    """``AGREES`` (1) when every claim frame that can be checked agrees with a premise frame,
    ``CONFLICTS`` (0) when some claim frame has no agreeing premise frame and a conflicting
    one (see the module docstring), else ``UNKNOWN`` (0.5). ``words``: the premise's words
    (lowercased), where a title frame of the claim looks for its office (``_title_verdict``)."""
    if not enabled("roles"):
        return UNKNOWN
    verdicts: list[float] = []
    plain = [p for p in premise if not p.title]
    for c in claim:
        if c.title:
            verdict = _title_verdict(c, premise, words)
            if verdict is not None:
                verdicts.append(verdict)
            continue
        if any(_agrees(c, p) for p in plain):
            if c.agent is not None and c.patient is not None:
                verdicts.append(AGREES)
        elif any(_conflicts(c, p) for p in plain):
            verdicts.append(CONFLICTS)
    if not verdicts:
        return UNKNOWN
    return min(verdicts)
