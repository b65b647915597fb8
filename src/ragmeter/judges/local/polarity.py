"""Negation read from the dependency parse: does a claim deny what its evidence asserts?

The claim verifier's first negation check (``verifier``'s ``_negation_agrees``) is cheap and
parser-free: a cue ("not", "no", "never", ...) negates the next few content words. A window
of words does not know which of them the cue denies, and on the project's RAG development
set it set faithful paraphrases against their evidence (24 faithful claims over four
splits), always the same way: a word the window took in was an *argument* the two sides
share, while the denied *predicates* differed or agreed:

* "Don't put basil in the fridge" against "its leaves turn black in the refrigerator": the
  claim denies putting, not the fridge;
* "Keep tea ... apart from the tablets" against "Do not take them at the same time as
  antacids, tea or coffee": the evidence denies taking them together, which the claim
  does not assert;
* "VAT not included" against "includes up to 5 users": the same verb, other things included.

Here a denial is a *statement*: the word a cue denies (the verb of "not"/"never"/"cannot",
the adjective or noun of a denied copula, the noun of "no", the complement of "without",
"rather than", "instead of") and its *arguments* (the content words of its clause). A claim
and its evidence disagree when one side denies a predicate the other asserts (same word,
not denied there) about the same thing (an argument in common, an object when both verbs
have objects, or no argument to compare on one side), or when the claim denies with another
verb what an asserted clause of the evidence states about two of the same things
(``_denies_restated``). A denial said under "if" is not compared. Two uses of a cue deny nothing and are left out: a bound ("no more than four
doses", "never more than three tablets") and a requirement, a denial undone by a second
("do not take it for longer than 14 days without talking to your doctor").

Measured on the RAG development set (claims of faithful answers against the changed claim
of each variant, dev/heldout/fresh/fresh2): faithful claims vetoed 24 -> 0; negation variants
caught 37 -> 28 (the rest deny with a verb the evidence does not use, "do not gather the
lamp's rays" against "bends the light": word vectors put those verbs far apart, 0.15-0.36,
and a faithful "may not match" close to "can differ", 0.64, so meaning does not settle it).

Pure functions of a parsed text (``syntax.parse``); the verifier asks it only about the
pairs the word window found at odds, so a parse is paid for a few pairs, not all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from ragmeter.text.normalise import same_word
from ragmeter.judges.local.families import enabled
from ragmeter.judges.local.support import stem

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc, Token

_NEGATIVE_DEPENDENTS = frozenset({"nothing", "nobody", "none", "nowhere", "neither"})
"""Words that deny the verb they depend on ("the airline owes nothing")."""

_CLAUSES = frozenset({"advcl", "ccomp", "xcomp", "relcl", "conj", "cc", "mark", "punct",
                      "parataxis", "acl", "csubj", "preconj"})
"""Dependencies that open another clause: their words are not this predicate's arguments."""

_BOUND_WORDS = frozenset("more less fewer greater later earlier longer shorter bigger larger "
                         "smaller higher lower older younger heavier lighter wider".split())
_REQUIREMENT = frozenset({"without", "unless"})
_CONTENT_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ", "ADV", "NUM"})


@dataclass(frozen=True)
class Statement:
    """One predicate of a text: its lemma, whether it is denied, and its arguments (content
    lemmas of its clause, the predicate itself left out)."""

    predicate: str
    negated: bool
    arguments: frozenset[str]
    objects: frozenset[str] = frozenset()
    """A verb's arguments outside its subject: what is done, had, given ("VAT" in "prices
    do not include VAT"). None for a noun or adjective, which says something of its
    subject ("Lubeck was not its chief city")."""
    denial: bool = False
    """Whether a cue denies this very word (not only the clause it stands in)."""
    verb: bool = False
    """Whether the word is a verb heading its own clause (what the denial of another verb
    is compared with in ``_denies_restated``)."""
    unneeded: bool = False
    """Whether the word is what a denied "need to"/"have to" says is not needed ("you
    don't need to run a rinse cycle"): against an instruction to do it only."""
    instruction: bool = False
    """Whether the word is an imperative verb ("then run a rinse cycle")."""
    supposed: bool = False
    """Whether the word stands in a clause of condition or time ("if you have no codes
    left", "before taking it"), which supposes rather than asserts."""


def _lemma(token: "Token") -> str:
    return (token.lemma_ or token.text).lower()


_LIGHT = frozenset({"be", "have", "do"})


def _is_predicate(token: "Token") -> bool:
    """A word that can be asserted or denied: a content word, light verbs left out. Not
    spaCy's stopword test: it lists "take", "put", "keep", "give", the verbs of most
    instructions ("Don't take it on an empty stomach")."""
    return (token.pos_ in _CONTENT_POS and token.is_alpha and len(token.text) >= 2
            and _lemma(token) not in _LIGHT)


def _is_content(token: "Token") -> bool:
    return _is_predicate(token) and not token.is_stop


def _bound(token: "Token") -> bool:
    """A cue that states a bound, not a denial: "not more than", "no later than", "never
    more than three tablets" (a comparative then "than" within the next four words)."""
    doc = token.doc
    ahead = doc[token.i + 1: min(len(doc), token.i + 5)]
    for k, t in enumerate(ahead):
        if t.is_punct:
            return False
        if (t.tag_ in ("JJR", "RBR") or t.lower_ in _BOUND_WORDS) and any(
                u.lower_ == "than" for u in ahead[k + 1: k + 3]):
            return True
    return False


def _requirement(head: "Token") -> bool:
    """A denial undone by a second one: "cannot reproduce without a host cell", "do not
    take it for longer than 14 days without talking to your doctor"."""
    return any(t.lower_ in _REQUIREMENT for t in head.subtree if t.i > head.i)


def _clause_words(head: "Token") -> Iterable["Token"]:
    """The tokens of ``head``'s own clause: its subtree without the clauses it opens (a
    coordinated noun stays: "bacteria and viruses" are both arguments)."""

    def inside(token: "Token") -> bool:
        return token.dep_ not in _CLAUSES or (token.dep_ == "conj"
                                              and token.pos_ not in ("VERB", "AUX"))

    stack = [c for c in head.children if inside(c)]
    while stack:
        token = stack.pop()
        yield token
        stack.extend(c for c in token.children if inside(c))


def _predicates_of(token: "Token") -> list["Token"]:
    """The words a denial of ``token`` is about: the verb an auxiliary serves ("are not
    walled off"); a copula's complement ("was not a physicist", "did not become cheaper");
    what "have" has ("do not have their own DNA"); else the token itself."""
    if token.pos_ == "AUX" and token.dep_ in ("aux", "auxpass") and token.head != token:
        token = token.head
    complements = [c for c in token.children if c.dep_ in ("attr", "acomp")]
    if _lemma(token) == "have":
        complements += [c for c in token.children if c.dep_ == "dobj"]
    if _lemma(token) == "let":  # "don't let the bird stand": it must not stand
        complements += [c for c in token.children if c.dep_ in ("ccomp", "xcomp")]
    return [token, *complements]


def _with_conjuncts(token: "Token") -> list["Token"]:
    """``token`` and its conjuncts, unless joined by "but" ("not chew or crush" denies
    both; "kill bacteria but have no effect" is two statements)."""
    out = [token]
    for child in token.children:
        if child.dep_ == "conj" and not any(c.lower_ == "but" for c in token.children
                                            if c.dep_ == "cc"):
            out.extend(_with_conjuncts(child))
    return out


def _superlative_denial(no: "Token") -> bool:
    """ "no desert is drier", "nothing is faster": a denial that asserts a superlative."""
    verb = no.head.head
    return any(c.tag_ in ("JJR", "RBR") for c in verb.children)


def denied(doc: "Doc") -> set[int]:
    """Positions of the words that a cue in ``doc`` denies (see the module docstring)."""
    out: set[int] = set()
    for token in doc:
        lower = token.lower_.replace("\u2019", "'")
        targets: list["Token"] = []
        if token.dep_ == "neg" or lower in ("never", "not", "n't") and token.dep_ == "advmod":
            if _bound(token) or _requirement(token.head):
                continue
            targets = _predicates_of(token.head)
        elif lower == "no" and token.dep_ == "det":
            if _bound(token) or _superlative_denial(token):
                continue
            targets = [token.head]
            if token.head.dep_ in ("nsubj", "nsubjpass", "dobj") and _is_predicate(
                    token.head.head):
                # "no charger is needed", "keeps no version history": the verb is denied too
                targets.append(token.head.head)
        elif lower in _NEGATIVE_DEPENDENTS and token.head != token:
            if _requirement(token.head) or _superlative_denial(token):
                continue
            targets = _predicates_of(token.head)
        elif lower == "without" or (lower == "than" and token.i > 0
                                    and doc[token.i - 1].lower_ == "rather") or (
                lower == "of" and token.i > 0 and doc[token.i - 1].lower_ == "instead"):
            if lower == "without" and any(c.dep_ == "neg" for c in token.head.children):
                continue  # the second denial of a requirement
            following = [t for t in doc[token.i + 1:] if _is_content(t)][:1]
            targets = [c for c in token.children if c.dep_ in ("pobj", "pcomp")] or following
        for target in targets:
            out.update(t.i for t in _with_conjuncts(target))
    return out


def unneeded(doc: "Doc") -> set[int]:
    """Positions of the verbs a denied "need to"/"have to" says are not needed. Not denied:
    "you don't have to re-register for each election" agrees with "you must register
    again if you move"; it contradicts only an instruction to do it ("then run a rinse
    cycle" against "you don't need to run a rinse cycle")."""
    out: set[int] = set()
    for token in doc:
        if token.dep_ == "neg" and _lemma(token.head) in ("need", "have"):
            out.update(c.i for c in token.head.children if c.dep_ == "xcomp")
    return out


def _instruction(token: "Token") -> bool:
    """An imperative: a bare verb with no subject nor auxiliary, heading the sentence or
    coordinated with such a verb ("rinse the tank ..., then run a rinse cycle")."""
    if token.tag_ != "VB" or any(c.dep_ in _SUBJECTS or c.dep_ == "aux" for c in token.children):
        return False
    if token.dep_ == "ROOT":
        return True
    return token.dep_ in ("conj", "dep") and token.head != token and _instruction(token.head)


def statements(doc: "Doc") -> list[Statement]:
    """Every content word of ``doc`` as a predicate: denied when a cue denies it or the
    predicate of its clause, with the content lemmas of its clause as arguments."""
    negative = denied(doc)
    not_needed = unneeded(doc)
    out: list[Statement] = []
    for token in doc:
        if not _is_predicate(token):
            continue
        # a word inside a denied clause ("Flash ... are not allowed") is denied with it
        clause = token
        while clause.dep_ not in _CLAUSES and clause.dep_ != "ROOT" and clause.pos_ not in (
                "VERB", "AUX") and clause.head != clause:
            clause = clause.head
        is_denied = token.i in negative or (clause.i in negative and clause is not token)
        head = clause if clause.pos_ in ("VERB", "AUX") else token
        words = [t for t in (head, *_clause_words(head)) if _is_content(t) and t.i != token.i]
        subject = {t.i for c in head.children if c.dep_ in _SUBJECTS for t in c.subtree}
        out.append(Statement(_lemma(token), is_denied, frozenset(map(_lemma, words)),
                             frozenset(_lemma(t) for t in words
                                       if t.i not in subject and t.i != head.i)
                             if token.pos_ == "VERB" else frozenset(),
                             token.i in negative,
                             head is token and token.pos_ == "VERB", token.i in not_needed,
                             _instruction(token), _supposed(token)))
    return out


_CONDITIONS = frozenset({"if", "unless"})


def _supposed(token: "Token") -> bool:
    """Whether ``token`` is said only under a condition: it stands in an "if"/"unless"
    clause ("if you have no codes left"), or its clause has one ("don't take them at all
    if aspirin has ever made you wheezy"). A clause of time ("before taking it", "after
    standing") presupposes what it says, and counts as said."""
    for node in (token, *token.ancestors):
        if node.dep_ == "advcl" and any(c.dep_ == "mark" and c.lower_ in _CONDITIONS
                                        for c in node.children):
            return True
        if node.pos_ in ("VERB", "AUX") and any(
                c.dep_ == "advcl" and any(m.dep_ == "mark" and m.lower_ in _CONDITIONS
                                          for m in c.children) for c in node.children):
            return True
        if node.pos_ in ("VERB", "AUX"):
            break
    return False


def _same(a: str, b: str) -> bool:
    """The same word, or one derived from the other ("effect" and "effective": a stem of
    five letters or more that begins the other)."""
    if stem(a) == stem(b) or same_word(a, b):
        return True
    short, long = sorted((stem(a), stem(b)), key=len)
    return len(short) >= 5 and long.startswith(short)


_SUBJECTS = frozenset({"nsubj", "nsubjpass", "csubj", "expl"})


def _overlap(a: frozenset[str], b: frozenset[str]) -> bool:
    return any(_same(x, y) for x in a for y in b)


def _shared(s: Statement, t: Statement) -> bool:
    """Whether two statements are about the same thing: when both have objects, an object
    of one is an argument of the other ("prices do not include VAT" is not about "the
    price includes delivery"; "there is no cap on the deposit" is about "the deposit is
    capped", where the deposit is the subject); else any arguments meet, or one side has
    none to compare."""
    if s.objects and t.objects:
        return _overlap(s.objects, t.arguments) or _overlap(s.arguments, t.objects)
    return not s.arguments or not t.arguments or _overlap(s.arguments, t.arguments)


def _denies(one: list[Statement], other: list[Statement]) -> bool:
    """Whether ``one`` denies a predicate that ``other`` asserts (and never denies) about a
    shared argument."""
    for s in one:
        if not (s.denial or s.unneeded) or s.supposed:
            continue
        same = [t for t in other if _same(s.predicate, t.predicate)
                and (t.instruction or not s.unneeded)]
        if any(t.negated for t in same):
            continue
        if any(_shared(s, t) for t in same if not t.supposed):
            return True
    return False


RESTATED = 2
"""Arguments a claim's denied verb must share with one asserted clause of the evidence, when
the evidence does not use the verb, for the denial to count against it."""


def _denies_restated(claim: list[Statement], evidence: list[Statement]) -> bool:
    """Whether the claim denies, with a verb the evidence does not use, what an asserted
    clause of the evidence states about ``RESTATED`` of the same things: "The Hanseatic
    League never controlled commerce on the Baltic or North Sea" against "It dominated
    Baltic and North Sea trade". One direction only: a faithful answer often turns a
    denial into its positive counterpart ("walled off from your devices" for "cannot
    connect to your devices"; "keep it away from your face" for "do not use it on the
    face"), so an evidence denial against a claim's other verb proves nothing."""
    for s in claim:
        if not s.denial or s.supposed or len(s.arguments) < RESTATED:
            continue
        if any(_same(s.predicate, t.predicate) for t in evidence):
            continue  # the same verb: ``_denies`` has compared the two
        for t in evidence:
            if not t.verb or t.negated or t.supposed:
                continue
            shared = {a for a in s.arguments if any(_same(a, b) for b in t.arguments)}
            if len(shared) >= RESTATED:
                return True
    return False


def polarity_conflict(claim: "Doc", evidence: "Doc") -> bool:
    """Whether the claim denies what its evidence asserts, or asserts what it denies, as
    read from their parses (``statements``)."""
    if not enabled("negation"):
        return False
    mine, theirs = statements(claim), statements(evidence)
    return _denies(mine, theirs) or _denies(theirs, mine) or _denies_restated(mine, theirs)

