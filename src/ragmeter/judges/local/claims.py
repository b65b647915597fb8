"""Claims of a text without an LLM: sentences split into clauses, pronouns resolved, by rules.

Faithfulness (and answer correctness, noise sensitivity, factual correctness) checks an
answer claim by claim, so a claim must be *atomic* (one assertion) and *self-contained*
(readable without the sentence before it). An LLM does both by rewriting; here the text's own
words are cut and at most a pronoun is replaced or a subject repeated, by deterministic rules
over spaCy's part-of-speech tags and entities. The shared pipeline (``nlp.load_nlp``) has no
dependency parser, the slowest pipe, so no rule needs one.

What happens to each sentence, in order:

1. **Sentences** are spaCy's, also cut at line breaks, glued back where the splitter broke
   after an abbreviation ("Lindzen et al. | in 2001"); list markers ("1.", "a)") and a lead-in
   with no content before a colon ("Here is the answer: ...") are dropped.
2. **Non-restrictive relative clauses** after a name become their own claim: "Marie Curie,
   who was born in Warsaw, won two Nobel Prizes." -> "Marie Curie won two Nobel Prizes." +
   "Marie Curie was born in Warsaw." ("which" only after a name that is not a person.)
3. **Coordinated clauses** split at "and", "but", "yet", ";" (and ", so", ", while",
   ", whereas", ", although", ", though") when the words after it are a subject and a finite
   verb ("X was born in Germany and he won ..."), or a finite verb alone, sharing the left
   clause's subject, when the left clause ends on a complement ("X was born in Germany and
   won ..." -> "X won ..."). "X was born in Ulm, studied in Zurich and died in Princeton" is
   a predicate list: three claims about X. After ";" any clause with a finite verb stands
   alone, its subject read or not ("...; accidents like spills need the extended plan").
4. **Pronouns.** A subject pronoun (he, she, it, they) or a possessive (his, her, its, their)
   opening a claim, or right after a fronted phrase ("In 1921, he ..."), is replaced by its
   referent: PERSON for he/she; ORG, GPE, LOC, FAC, PRODUCT, WORK_OF_ART, EVENT, LAW or
   LANGUAGE for it; ORG, NORP or a plural name for they; a proper-noun subject the NER left
   unlabelled agrees in number only. The referent is sought in earlier claims, most recent
   first, each claim's subject first; "it"/"they" only ever go to the previous claim's
   subject. A possessive in the complement of "be" points back too ("France is in Europe
   and Paris is *its* capital" -> "France's capital"). With no referent in the text, the
   question's main entity is used if it is the question's subject, not inside a
   prepositional phrase (for "What is the capital of France?", "It is Paris" is about the
   capital, not France).

Limits, on purpose (a wrong rewrite is worse than none):

* No parse: a clause boundary is found only where the words after a conjunction look like a
  subject and a finite verb (or a finite verb alone). Coordinated nouns ("Tom and Jerry are
  friends"), verbs sharing a complement ("born and raised in Ulm") and subordinate clauses
  ("After he won, he retired") stay whole; so do appositions and participle phrases.
* "It"/"they" are left as they are when the previous claim's subject is a common noun ("The
  company ... It ...": the referent is probably that noun), is unknown, or is a person;
  when "it" is expletive ("It is important to note that", "It seems", "It is raining");
  and when no compatible entity exists. Object pronouns ("him", "them") and subject
  pronouns inside a claim are not touched.
* spaCy's small model labels the entities; a wrong label can pick a wrong referent.
* Sentences that ask a question, and hedges, refusals and fillers ("I'm not sure", "Hope
  this helps", see ``ragmeter.judges.local.hedges.noncommittal``) are not claims; a text that is
  noncommittal as a whole has none.
* English rules: other languages are split into sentences only.

Public clause API (what question parts, coverage and the critiques build on): ``Clause``
and ``clauses_of``; ``Piece`` (a clause's tokens and pronoun replacements), ``trim``,
``render``; ``entities_of``, ``mention_text``, ``is_head_entity`` and ``can_refer`` (may a
pronoun point to an entity of this label).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from ragmeter.text import nlp as _nlp
from ragmeter.judges.local.families import enabled
from ragmeter.judges.local.comparisons import COMPARING
from ragmeter.judges.local.hedges import noncommittal, piece_kind
from ragmeter.text.nlp import VALUE_LABELS, parse

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc, Token

# --- word classes ----------------------------------------------------------------------

FINITE = frozenset({"VBD", "VBZ", "VBP", "MD"})
"""Penn tags of finite verbs: a clause needs one (participles and infinitives do not count)."""

_NP_POS = frozenset({"DET", "ADJ", "PROPN", "NOUN", "NUM"})
_HEAD_POS = frozenset({"NOUN", "PROPN", "NUM"})
_NOMINATIVE = {"he": "m", "she": "f", "it": "n", "they": "p"}
_POSSESSIVE = {"his": "m", "her": "f", "its": "n", "their": "p"}
_SUBJECT_PRONOUNS = frozenset({"i", "you", "he", "she", "it", "we", "they"})
_CLAUSE_CONJ = frozenset({"and", "but", "yet"})
_COMMA_CONJ = frozenset({"so", "while", "whereas", "although", "though"})
_SUBORDINATORS = frozenset({
    "if", "when", "whenever", "because", "although", "though", "while", "after", "before",
    "since", "unless", "until", "once", "as", "whereas", "whether"})
_IT_LABELS = frozenset({"ORG", "GPE", "LOC", "FAC", "PRODUCT", "WORK_OF_ART", "EVENT", "LAW",
                        "LANGUAGE"})
_THEY_LABELS = frozenset({"ORG"})
_EXPLETIVE_VERBS = frozenset({"seem", "appear", "take", "rain", "snow", "follow", "matter",
                              "depend", "turn", "get"})
_EXPLETIVE_NEXT = frozenset({"that", "to", "whether", "if", "how", "why", "what", "when"})
_TERMINAL = ".!?"
_LOCATIVE = frozenset({"in", "at", "near", "on", "off", "from", "outside", "inside", "within",
                       "across", "along", "between", "to", "into", "above", "below"})


def can_refer(gender: str, label: str, plural: bool) -> bool:
    """Can a pronoun of this gender ("m", "f", "n" for it, "p" for they) refer to an entity
    with this spaCy label? ``label`` "" is a proper-noun subject the NER left unlabelled: it
    may be "it" or "they" (number agreeing), never "he"/"she" (too often a title or a genus);
    a nationality (NORP) is "they" only as a plural noun ("the Germans", not "German")."""
    if label == "":
        return gender in ("n", "p") and plural == (gender == "p")
    if gender in ("m", "f"):
        return label == "PERSON"
    if gender == "n":
        return label in _IT_LABELS and not plural
    if label == "NORP":
        return plural
    return label in _THEY_LABELS or (plural and label not in VALUE_LABELS)


# --- the clause record -----------------------------------------------------------------


@dataclass(frozen=True)
class Clause:
    """One clause of a text, made a standalone sentence.

    ``text``: the claim ("Marie Curie won two Nobel Prizes."); ``sentence``: index of the
    text's sentence it comes from; ``kind``: "claim", "hedge" (a refusal or hedge such as
    "I'm not sure"), "filler" ("Sure!", "Hope this helps.") or "question" (the text asks
    something); ``entities``: (text, spaCy label) pairs, a replaced pronoun's referent
    included; ``numbers`` and ``dates``: canonical values (``nlp.number_value``,
    ``nlp.dates``); ``content``: lemmas of content words; ``negations``: negation cues;
    ``proper_nouns``: lowercased proper nouns outside any named entity (for answer-type
    checks when NER misses one); ``places``: lowercased proper nouns right after a locative
    preposition ("in", "at", "near", ...), whatever their label; ``verbless``: a fragment
    with no verb ("Paris.", "On 14 March 1879."), an elliptical answer.
    """

    text: str
    sentence: int
    kind: str = "claim"
    entities: tuple[tuple[str, str], ...] = ()
    numbers: tuple[str, ...] = ()
    dates: tuple[str, ...] = ()
    content: tuple[str, ...] = ()
    negations: tuple[str, ...] = ()
    proper_nouns: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    verbless: bool = False


@dataclass
class Piece:
    """Tokens of one clause in order (not always contiguous), and pronoun replacements."""

    tokens: "list[Token]"
    sentence: int
    question: bool = False
    subject: "list[Token] | None" = None  # a subject copied from the clause before
    replace: dict[int, str] = field(default_factory=dict)
    referents: list[tuple[str, str]] = field(default_factory=list)


# --- splitting -------------------------------------------------------------------------


def _subject_verb(toks: "Sequence[Token]", start: int = 0) -> int | None:
    """Index of the finite verb if ``toks[start:]`` opens with a subject and that verb.

    Subject: a nominative pronoun, or up to 8 tokens of determiners, adjectives, nouns,
    numbers, possessives, "of", "and" and "or" with a noun or number in them. Up to two adverbs may
    stand before the subject ("then he") and between subject and verb ("also won").
    """
    n = len(toks)
    k = start
    while k < n and k - start < 2 and toks[k].pos_ == "ADV" and toks[k].tag_ not in FINITE:
        k += 1
    if k >= n:
        return None
    if toks[k].lower_ in _SUBJECT_PRONOUNS and toks[k].tag_ == "PRP":
        end = k + 1
    else:
        m = k
        while m < n and m - k < 8:
            t = toks[m]
            if t.pos_ in _NP_POS or t.tag_ in ("PRP$", "POS") or t.text in ("-", "'s", "’s"):
                m += 1
            elif t.tag_ in ("VBN", "VBG") and m + 1 < n and toks[m + 1].pos_ in ("NOUN", "ADJ"):
                m += 1  # a participle before its noun: "worn zips", "running water"
            elif (t.lower_ in ("of", "and", "or") and m > k and m + 1 < n
                  and (toks[m + 1].pos_ in _NP_POS or toks[m + 1].tag_ == "PRP$")):
                # "of": "the capital of France"; "and"/"or": a coordinated subject ("worn
                # zips and buckles can be fixed"): without it the clause after "but" or
                # "whereas" had no subject and was cut at its "and" into two broken claims
                m += 1
            else:
                break
        if m == k or not any(t.pos_ in _HEAD_POS for t in toks[k:m]):
            return None
        if toks[k].tag_ in FINITE:
            return None
        end = m
    v = end
    while v < n and v - end < 2 and toks[v].pos_ == "ADV" and toks[v].tag_ not in FINITE:
        v += 1
    if v < n and toks[v].tag_ in FINITE:
        return v
    return None


def _fronted_end(toks: "Sequence[Token]") -> int:
    """Index right after a fronted phrase ("In 1921,", "Born in Derby,", "Later,"), else 0.

    The phrase opens with a preposition, an adverb or a participle, has no finite verb and
    ends on a comma within 8 tokens."""
    if not toks or not (toks[0].pos_ in ("ADP", "ADV") or toks[0].tag_ in ("VBN", "VBG")):
        return 0
    if toks[0].lower_ in _SUBORDINATORS:
        return 0
    for j in range(1, min(len(toks) - 1, 9)):
        if toks[j].tag_ in FINITE:
            return 0
        if toks[j].text == ",":
            return j + 1
    return 0


def _subject_tokens(toks: "Sequence[Token]") -> "list[Token] | None":
    """The subject of a clause that opens with subject + finite verb (after a fronted phrase
    such as "In 1921,"), else ``None``."""
    k = 0
    v = _subject_verb(toks, 0)
    if v is None:
        k = _fronted_end(toks)
        v = _subject_verb(toks, k) if k else None
    if v is None:
        return None
    while k < v and toks[k].pos_ == "ADV":
        k += 1
    end = v
    while end > k and toks[end - 1].pos_ == "ADV":
        end -= 1
    return list(toks[k:end]) if end > k else None


def _has_finite(toks: "Sequence[Token]") -> bool:
    return any(t.tag_ in FINITE for t in toks)


def _starts_subordinate(toks: "Sequence[Token]") -> bool:
    return bool(toks) and toks[0].lower_ in _SUBORDINATORS


def _first_finite_after(toks: "Sequence[Token]", j: int) -> int | None:
    """``j`` (or ``j`` + up to two adverbs) if a finite verb stands there."""
    k = j
    while k < len(toks) and k - j < 2 and toks[k].pos_ == "ADV" and toks[k].tag_ not in FINITE:
        k += 1
    if k < len(toks) and toks[k].tag_ in FINITE:
        return k
    return None


def _listed_predicate(toks: "Sequence[Token]", j: int) -> bool:
    """"born in Ulm, *studied* in Zurich and died in Princeton": the tagger often reads the
    middle verb of a predicate list as a participle; the list's last verb, after "and", is
    finite, so the middle one is too. (A passive list "was born in Ulm, raised in Munich and
    educated in Berlin" ends on a participle and is left whole.)"""
    if j >= len(toks) or toks[j].tag_ not in ("VBN", "VBD"):
        return False
    for k in range(j + 1, len(toks) - 1):
        if toks[k].text in (",", ";"):
            return False
        if toks[k].lower_ == "and":
            return _first_finite_after(toks, k + 1) is not None and toks[k + 1].tag_ != "VBN"
    return False


def _agrees(subject: "Sequence[Token]", verb: "Token") -> bool:
    """Whether a present-tense ``verb`` can take ``subject`` in number: not a plural noun
    with "-s" ("Central banks ... dampens"), nor a singular noun without it.

    A predicate after a comma whose verb does not agree with the clause's subject belongs
    to something else, most often a relative clause before it ("Central banks respond by
    raising rates, which makes loans costlier, dampens spending and so takes pressure off
    prices"): given the subject, it became "Central banks dampens spending", a claim the
    answer does not make. Past tenses and modals do not mark number and always agree.
    """
    heads = [t for t in subject if t.pos_ in ("NOUN", "PROPN")]
    if not heads or any(t.lower_ in ("and", "or") for t in subject):
        return True
    plural = heads[-1].tag_ in ("NNS", "NNPS")
    if verb.tag_ == "VBZ":
        return not plural
    if verb.tag_ == "VBP":
        return plural
    return True


def _split_coordination(piece: Piece) -> list[Piece]:
    """Split a clause at coordinating conjunctions, ";" and predicate-list commas."""
    toks = piece.tokens
    for i in range(1, len(toks) - 1):
        t = toks[i]
        low = t.lower_
        prev_comma = toks[i - 1].text == ","
        if t.text == ";":
            kind = "semi"
        elif low in _CLAUSE_CONJ and t.pos_ == "CCONJ":
            kind = "conj"
        elif low in _COMMA_CONJ and prev_comma:
            kind = "sub"
        elif t.text == ",":
            kind = "comma"
        else:
            continue
        left = toks[:i - 1] if (kind != "semi" and prev_comma) else toks[:i]
        right_start = i + 1
        if kind == "comma":
            # ", studied in Zurich and ...": a predicate list sharing the subject
            if _first_finite_after(toks, right_start) is None and not _listed_predicate(toks, right_start):
                continue
            own = False
        else:
            own = _subject_verb(toks, right_start) is not None
        copied = piece.subject if piece.subject and left[:len(piece.subject)] == piece.subject else None
        if not left or _starts_subordinate(left):
            continue
        if not _has_finite(left) and not (copied and any(x.tag_ in ("VBN", "VBD") for x in left)):
            continue
        right = list(toks[right_start:])
        if not right:
            continue
        if own or (kind == "semi" and _has_finite(right) and _first_finite_after(toks, right_start) is None):
            # after ";" stands a clause of its own even when its subject is more than the
            # subject rule reads ("; accidents like spills need ...")
            pieces = [Piece(list(left), piece.sentence, piece.question),
                      Piece(right, piece.sentence, piece.question)]
        elif kind in ("conj", "comma", "semi") and (
                _first_finite_after(toks, right_start) is not None
                or kind == "comma" and _listed_predicate(toks, right_start)):
            # shared subject: the left clause must open with subject + verb and end on a
            # complement, not on a verb ("born and raised in Ulm" stays whole)
            subject = _subject_tokens(left) or copied
            if subject is None or left[-1].pos_ in ("VERB", "AUX") or left[-1].tag_ in FINITE:
                continue
            verb = _first_finite_after(toks, right_start)
            if verb is not None and not _agrees(subject, toks[verb]):
                continue
            if kind == "comma" and not any(x.lower_ in _CLAUSE_CONJ for x in toks[right_start:]):
                continue  # a lone ", verb ..." is too often an apposition or a parenthesis
            pieces = [Piece(list(left), piece.sentence, piece.question),
                      Piece(subject + right, piece.sentence, piece.question, subject=subject)]
        else:
            continue
        return [pieces[0], *_split_coordination(pieces[1])]
    return [piece]


def _entity_span(tok: "Token") -> "list[Token]":
    """The named entity containing ``tok`` (with a leading "the"), or the run of proper
    nouns ending at it."""
    doc = tok.doc
    for ent in doc.ents:
        if ent.start <= tok.i < ent.end:
            start = ent.start
            if start > 0 and doc[start - 1].lower_ == "the" and doc[start].lower_ != "the":
                start -= 1
            return [doc[j] for j in range(start, tok.i + 1)]
    j = tok.i
    while j > 0 and doc[j - 1].pos_ == "PROPN":
        j -= 1
    return [doc[x] for x in range(j, tok.i + 1)]


def _split_relative(piece: Piece) -> list[Piece]:
    """Take non-restrictive relative clauses after a name out as their own claim."""
    toks = piece.tokens
    for r in range(2, len(toks) - 1):
        word = toks[r].lower_
        if word not in ("who", "which") or toks[r - 1].text != ",":
            continue
        ante = toks[r - 2]
        if ante.pos_ != "PROPN":
            continue
        label = ante.ent_type_
        if word == "who" and label not in ("", "PERSON", "ORG", "NORP"):
            continue
        if word == "which" and label in ("PERSON", ""):
            continue
        if _first_finite_after(toks, r + 1) is None:
            continue
        end = None
        for e in range(r + 1, len(toks) - 1):
            if toks[e].text == "," and _first_finite_after(toks, e + 1) is not None:
                end = e
                break
        left_ids = {x.i for x in toks[:r - 1]}
        antecedent = [t for t in _entity_span(ante) if t.i in left_ids]
        if end is None:
            main = list(toks[:r - 1])
            rel = list(toks[r + 1:])
        else:
            main = list(toks[:r - 1]) + list(toks[end + 1:])
            rel = list(toks[r + 1:end])
        if not _has_finite(main) or not antecedent:
            continue
        first = Piece(main, piece.sentence, piece.question)
        second = Piece(antecedent + rel, piece.sentence, piece.question, subject=antecedent)
        return [*_split_relative(first), second]
    return [piece]


def trim(toks: "Sequence[Token]") -> "list[Token]":
    """Drop leading conjunctions/punctuation and trailing punctuation (kept apart: the
    sentence's end mark is added back when rendering)."""
    out = [t for t in toks if not t.is_space]
    while out and (out[0].is_punct or out[0].lower_ in _CLAUSE_CONJ or out[0].lower_ in _COMMA_CONJ
                   and out[0].pos_ in ("CCONJ", "SCONJ")):
        out = out[1:]
    while out and (out[-1].is_punct and out[-1].text not in (")", "]", '"', "'", "%")):
        out = out[:-1]
    return out


def _drop_lead_in(toks: "list[Token]") -> "list[Token]":
    """"Here is the answer: X" -> "X": a lead-in before a colon with no content word."""
    for k, t in enumerate(toks[:8]):
        if t.text == ":" and 0 < k < len(toks) - 1:
            if piece_kind(_render_tokens(toks[:k], {})) == "filler":
                return toks[k + 1:]
            break
    return toks


def _sentence_pieces(doc: "Doc") -> list[Piece]:
    """Clauses of every sentence of ``doc`` (a line break also ends a sentence)."""
    pieces: list[Piece] = []
    for index, group in enumerate(_sentence_groups(doc)):
        group = _drop_lead_in(group)
        question = any(t.text == "?" for t in group[-2:])
        base = Piece(trim(group), index, question)
        if not base.tokens:
            continue
        for rel in _split_relative(base):
            for p in _split_coordination(rel):
                p.tokens = trim(p.tokens)
                if p.tokens and any(t.is_alpha or t.like_num for t in p.tokens):
                    pieces.append(p)
    return pieces


_ABBREVIATION = re.compile(r"^(?:[A-Za-z]|al|etc|e\.g|i\.e|vs|approx|ca|cf|no|st|dr|mr|mrs|ms|prof|jr|sr|"
                           r"inc|ltd|co|corp|dept|univ|fig|vol|ed|eds)\.$", re.I)


def _sentence_groups(doc: "Doc") -> "list[list[Token]]":
    """spaCy's sentences, also cut at line breaks, and glued back where the sentence
    splitter broke after an abbreviation ("Lindzen et al. | in 2001 ...")."""
    groups: "list[list[Token]]" = []
    for sent in doc.sents:
        run: "list[Token]" = []
        fresh = True
        for tok in sent:
            if tok.is_space and "\n" in tok.text:
                if run:
                    groups.append(run)
                run = []
                fresh = True
                continue
            if tok.is_space:
                continue
            if not run and fresh and groups and tok.text[:1].islower() and len(groups[-1]) > 1:
                prev = groups[-1]
                last = prev[-1].text if prev[-1].text != "." else prev[-2].text + "."
                if _ABBREVIATION.match(last) and tok.i == prev[-1].i + 1:
                    run = groups.pop()
            fresh = False
            run.append(tok)
        if run:
            groups.append(run)
    out: "list[list[Token]]" = []
    pending_marker = False
    for n, g in enumerate(groups):
        # list markers, "1." / "a)": alone (the sentence splitter cuts after them) or leading
        marker = len(g) >= 2 and g[1].text in (".", ")") and (
            g[0].is_digit and len(g[0].text) <= 2 or len(g[0].text) == 1 and g[0].is_alpha)
        if marker and len(g) == 2 and n + 1 < len(groups):
            pending_marker = True
            continue
        if marker and len(g) > 2 and (pending_marker or g[0].i == 0 or g[0].nbor(-1).is_space):
            g = g[2:]
        pending_marker = False
        if any(t.is_alpha or t.like_num for t in g):
            out.append(g)
    return out


# --- pronouns ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Mention:
    text: str
    label: str
    plural: bool


def entities_of(toks: "Sequence[Token]") -> list[tuple["Token", "Token", str]]:
    """(first token, last token, label) of every named entity starting inside ``toks``."""
    ids = {t.i for t in toks}
    if not toks:
        return []
    out = []
    for ent in toks[0].doc.ents:
        if ent.start in ids:
            out.append((ent[0], ent[-1], ent.label_))
    return out


def mention_text(first: "Token", last: "Token", toks: "Sequence[Token]") -> str:
    """The words of ``toks`` from ``first`` to ``last``, as written."""
    ids = [t for t in toks if first.i <= t.i <= last.i]
    return _render_tokens(ids, {})


def is_head_entity(first: "Token", toks: "Sequence[Token]") -> bool:
    """The entity is not inside a prepositional phrase or after a possessive."""
    pos = [t.i for t in toks]
    if first.i not in pos:
        return False
    k = pos.index(first.i)
    if k > 0:
        prev = toks[k - 1]
        if prev.lower_ == "the" and k > 1:
            prev = toks[k - 2]
        if prev.pos_ == "ADP" or prev.tag_ in ("POS", "PRP$"):
            return False
    return True


def _expletive(toks: "Sequence[Token]", at: int) -> bool:
    """"It" at ``at`` is expletive: "It is important to note that", "It seems", "It takes"."""
    if at + 1 >= len(toks):
        return True
    verb = toks[at + 1]
    if verb.lemma_.lower() in _EXPLETIVE_VERBS:
        return True
    if verb.lemma_.lower() != "be" and verb.tag_ != "MD":
        return False
    rest = list(toks[at + 2: at + 7])
    if rest and rest[0].lemma_.lower() in _EXPLETIVE_VERBS:
        return True  # "it is raining", "it is getting late"
    for j, t in enumerate(rest):
        if t.lower_ in _EXPLETIVE_NEXT and j >= 1:
            return True
        if t.pos_ in ("NOUN", "PROPN", "NUM", "PRON", "ADP") and j == 0 and t.lower_ != "not":
            return False
    return False


def _pronoun_at(piece: Piece) -> int | None:
    """Position of a replaceable pronoun: the first token, or the one right after a fronted
    phrase ("In 1921, he ...") opened by a preposition or an adverb."""
    toks = piece.tokens
    if not toks:
        return None
    candidates = [0]
    fronted = _fronted_end(toks)
    if fronted and fronted < len(toks):
        candidates.append(fronted)
    for at in candidates:
        t = toks[at]
        low = t.lower_
        if low in _NOMINATIVE and t.tag_ == "PRP":
            return at
        if low in _POSSESSIVE and t.tag_ == "PRP$":
            return at
    return None


class _Resolver:
    """Walks the claims of one text in order, replacing leading pronouns by referents."""

    def __init__(self, question_doc: "Doc | None") -> None:
        # per claim: its subject's mention (if a name), its other mentions (last first) and
        # what its subject is: "name", "pronoun" (left unresolved), "noun" or "unknown"
        self.history: list[tuple[_Mention | None, list[_Mention], str]] = []
        self.question = self._question_mentions(question_doc)
        self.names: list[_Mention] = []
        self.genders: dict[str, str] = {}  # a person once called "he" is not later "she"

    @staticmethod
    def _question_mentions(doc: "Doc | None") -> list[_Mention]:
        if doc is None:
            return []
        out = []
        toks = [t for t in doc if not t.is_space]
        for first, last, label in entities_of(toks):
            if label in VALUE_LABELS or not is_head_entity(first, toks):
                continue
            out.append(_Mention(mention_text(first, last, toks), label, last.tag_ == "NNPS"))
        return out

    @staticmethod
    def _opening_name(toks: "Sequence[Token]") -> _Mention | None:
        """A claim whose subject the rules cannot delimit ("The Lei Aurea (...), adopted in
        1888, was ...") is taken to be about the name it opens with."""
        k = 1 if toks and toks[0].lower_ == "the" else 0
        if k >= len(toks) or toks[k].pos_ != "PROPN":
            return None
        for f, last, label in entities_of(toks):
            if f.i in (toks[0].i, toks[k].i) and label not in VALUE_LABELS:
                return _Mention(mention_text(f, last, toks), label, last.tag_ == "NNPS")
        end = k
        while end + 1 < len(toks) and toks[end + 1].pos_ == "PROPN" and toks[end + 1].i == toks[end].i + 1:
            end += 1
        return _Mention(mention_text(toks[0], toks[end], toks), "", toks[end].tag_ == "NNPS")

    @staticmethod
    def _named_complement(toks: "Sequence[Token]", ents: list) -> _Mention | None:
        """"The capital of France is Paris.": subject and name are one thing, so a later
        "it" means Paris. Only for "be" directly followed by a name that ends the claim."""
        v = _subject_verb(toks, 0)
        if v is None or toks[v].lemma_.lower() != "be" or v + 1 >= len(toks):
            return None
        for f, last, label in ents:
            if f.i == toks[v + 1].i and last.i == toks[-1].i:
                return _Mention(mention_text(f, last, toks), label, last.tag_ == "NNPS")
        return None

    def _find(self, gender: str) -> _Mention | None:
        """The referent of a pronoun, from the claims before this one (most recent first).

        * A claim whose subject is a name: that name if compatible; if not, "it"/"they" stop
          here (the pronoun more likely continues the subject than jumps to another name),
          "he"/"she" look at the claim's other names.
        * A claim whose subject is a pronoun left unresolved, a common noun ("The company")
          or cannot be found: the chain is broken, nothing is replaced ("he"/"she" may still
          take a person named elsewhere in that claim).
        * "he"/"she" take a person named in a claim only if it names exactly one: "starring
          Michael Palin and Maggie Smith. He ..." is left alone.
        * With nothing in the text, the question's subject entity (``_question_mentions``).
        """
        def fits(m: _Mention) -> bool:
            return can_refer(gender, m.label, m.plural) and self.genders.get(
                self._full(m).text, gender) == gender

        for entry in reversed(self.history):
            head, others, kind = entry
            if head is not None and fits(head):
                return self._full(head)
            if gender in ("n", "p"):
                return None
            if kind == "pronoun":
                return None
            people = list(dict.fromkeys(m.text for m in others if fits(m)))
            if len(people) == 1:
                return self._full(next(m for m in others if m.text == people[0]))
            if len(people) > 1:
                return None
        if all(head is None and not others for head, others, _ in self.history):
            for m in self.question:
                if can_refer(gender, m.label, m.plural):
                    return m
        return None

    def _full(self, m: _Mention) -> _Mention:
        """The longest earlier mention ending with this one ("Curie" -> "Marie Curie")."""
        if " " in m.text:
            return m
        for other in self.names:
            if other.label == m.label and other.text.endswith(" " + m.text):
                return other
        return m

    def _resolve_possessives(self, piece: Piece) -> None:
        """A possessive that opens the complement of "be" refers back to an earlier claim
        ("France is in Europe and Paris is *its* capital" -> "France's capital"): a thing is
        not its own capital. Deeper in the claim ("Kranz is known for his role") or after any
        other verb ("Apple released its phone") it usually means the claim's own subject and
        is left alone."""
        toks = piece.tokens
        v = _subject_verb(toks, 0)
        if v is None or toks[v].lemma_.lower() != "be":
            return
        at = v + 1
        while at < len(toks) and toks[at].pos_ == "ADV":
            at += 1
        if at >= len(toks) or toks[at].tag_ != "PRP$" or toks[at].lower_ not in _POSSESSIVE:
            return
        subject = _subject_tokens(toks) or []
        subject_text = _render_tokens(subject, piece.replace if subject and subject[0] is toks[0] else {})
        ref = self._find(_POSSESSIVE[toks[at].lower_])
        if ref is None or ref.text == subject_text:
            return
        piece.replace[at] = ref.text + ("'" if ref.text.endswith("s") else "'s")
        piece.referents.append((ref.text, ref.label))

    def resolve(self, piece: Piece) -> None:
        if not enabled("claim_pronouns"):
            return
        toks = piece.tokens
        at = _pronoun_at(piece)
        subject_mention: _Mention | None = None
        if at is not None:
            low = toks[at].lower_
            possessive = toks[at].tag_ == "PRP$"
            gender = (_POSSESSIVE if possessive else _NOMINATIVE)[low]
            named_before = any(can_refer(gender, label, last.tag_ == "NNPS")
                               for _, last, label in entities_of(toks[:at]))
            if not named_before and not (low == "it" and _expletive(toks, at)):
                ref = self._find(gender)
                if ref is not None:
                    if gender in ("m", "f"):
                        self.genders.setdefault(ref.text, gender)
                    text = ref.text
                    if possessive:
                        text += "'" if text.endswith("s") else "'s"
                    if at == 0 and text[:1].islower():
                        text = text[:1].upper() + text[1:]
                    piece.replace[at] = text
                    piece.referents.append((ref.text, ref.label))
                    if not possessive:
                        subject_mention = ref
        if at is None or at not in piece.replace:
            self._resolve_possessives(piece)
        # remember this claim's names, its subject's first
        ents = [(f, last, label) for f, last, label in entities_of(toks) if label not in VALUE_LABELS]
        subject = _subject_tokens(toks)
        subject_ids = {t.i for t in subject} if subject else set()
        head: _Mention | None = subject_mention
        for f, last, label in ents:
            m = _Mention(mention_text(f, last, toks), label, last.tag_ == "NNPS")
            self.names.append(m)
            if head is None and f.i in subject_ids and is_head_entity(f, toks):
                head = m
        if head is None and subject is None:
            head = self._opening_name(toks)
        if head is None and subject and not any(t.ent_type_ for t in subject):
            names = [t for t in subject if t.pos_ == "PROPN"]
            if names and names[-1] is subject[-1] and is_head_entity(names[0], toks):
                first = names[0]
                if first.i > 0 and first.doc[first.i - 1].lower_ == "the" and \
                        first.doc[first.i - 1] in subject:
                    first = first.doc[first.i - 1]
                head = _Mention(mention_text(first, names[-1], toks), "", names[-1].tag_ == "NNPS")
        if head is None and subject:
            head = self._named_complement(toks, ents)
        others = [_Mention(mention_text(f, last, toks), label, last.tag_ == "NNPS")
                  for f, last, label in reversed(ents)]
        if head is not None:
            kind = "name"
        elif subject and len(subject) == 1 and subject[0].tag_ == "PRP":
            kind = "pronoun"
        elif subject:
            kind = "noun"
        else:
            kind = "unknown"
        self.history.append((head, [m for m in others if m != head], kind))


# --- rendering --------------------------------------------------------------------------


def _render_tokens(toks: "Sequence[Token]", replace: dict[int, str]) -> str:
    parts: list[str] = []
    for k, t in enumerate(toks):
        if k > 0:
            prev = toks[k - 1]
            if t.i == prev.i + 1:
                parts.append(prev.whitespace_)
            elif not (t.is_punct and t.text in ",.;:!?)]%") and t.tag_ != "POS":
                parts.append(" ")
        parts.append(replace.get(k, t.text))
    return "".join(parts).strip()


def render(piece: Piece) -> str:
    """The clause as a sentence: replacements applied, capitalised, an end mark added."""
    text = _render_tokens(piece.tokens, piece.replace)
    first = piece.tokens[0]
    if text[:1].islower() and first.pos_ != "PROPN" and 0 not in piece.replace:
        text = text[:1].upper() + text[1:]
    if text and text[-1] not in _TERMINAL:
        text += "?" if piece.question else "."
    return text


def _facts(piece: Piece, text: str) -> dict[str, Any]:
    """The typed facts of a claim (entities, numbers, dates, content lemmas, negations)."""
    toks = piece.tokens
    entities = list(piece.referents)
    ent_ids = {k for k in piece.replace}
    for f, last, label in entities_of(toks):
        entities.append((mention_text(f, last, toks), label))
    date_values = _nlp.dates(text)
    numbers: list[str] = []
    content: list[str] = []
    propns: list[str] = []
    places: list[str] = []
    date_words = {w for d in date_values for w in d.split("-") if w}
    for k, t in enumerate(toks):
        if k in ent_ids or t.is_punct or t.is_space:
            continue
        if t.like_num:
            value = _nlp.number_value(t.text)
            if value is not None and value not in date_words:
                numbers.append(value)
            continue
        if t.pos_ == "PROPN":
            if not t.ent_type_:
                propns.append(t.lower_)
            j = k - 1
            while j >= 0 and (toks[j].pos_ in ("DET", "ADJ", "PROPN") and toks[j].lower_ not in _LOCATIVE):
                j -= 1
            if j >= 0 and toks[j].lower_ in _LOCATIVE and k - j <= 4:
                places.append(t.lower_)
        if t.is_stop or t.pos_ not in ("NOUN", "PROPN", "VERB", "ADJ", "ADV", "X"):
            continue
        lemma = _nlp.normalise_text(t.lemma_ or t.text)
        if lemma and lemma not in ("be", "have", "do") and len(lemma) > 1:
            content.append(lemma)
    return {
        "entities": tuple(entities),
        "numbers": tuple(numbers),
        "dates": tuple(date_values),
        "content": tuple(content),
        "negations": tuple(_nlp.negation_cues(t.text for t in toks)),
        "proper_nouns": tuple(dict.fromkeys(propns)),
        "places": tuple(dict.fromkeys(places)),
        "verbless": not any(t.pos_ in ("VERB", "AUX") or t.tag_ in FINITE for t in toks),
    }


# --- public API -------------------------------------------------------------------------


def clauses_of(texts: Sequence[str], questions: Sequence[str | None] | None = None,
               docs: "Sequence[Doc] | None" = None) -> list[list[Clause]]:
    """Every clause of every text, each a standalone sentence with its facts, in text order.

    Unlike ``extract_claims`` this keeps the hedges, fillers and questions (marked by
    ``Clause.kind``): question coverage and the critiques look at all of an answer. Texts and
    questions are parsed together in one ``nlp.pipe`` (``nlp.parse``, cached).
    """
    qs = list(questions) if questions is not None else [None] * len(texts)
    if len(qs) != len(texts):
        # internal: the claim extractor pairs them itself; a bug if hit
        raise ValueError(f"{len(texts)} texts but {len(qs)} questions")
    wanted = [q for q in qs if q and q.strip()]
    parsed = parse(list(texts) + wanted) if docs is None else list(docs) + parse(wanted)
    qdocs = dict(zip(wanted, parsed[len(texts):]))
    out: list[list[Clause]] = []
    for text, question, doc in zip(texts, qs, parsed[: len(texts)]):
        if not text or not text.strip():
            out.append([])
            continue
        resolver = _Resolver(qdocs.get(question) if question else None)
        clauses: list[Clause] = []
        for piece in _sentence_pieces(doc):
            if not piece.question:
                resolver.resolve(piece)
            text_ = render(piece)
            if piece.question:
                kind = "question"
            else:
                kind = piece_kind(text_)
            clauses.append(Clause(text=text_, sentence=piece.sentence, kind=kind,
                                  **_facts(piece, text_)))
        out.append(clauses)
    return out


def extract_claims(texts: Sequence[str],
                   questions: Sequence[str | None] | None = None) -> list[list[str]]:
    """Atomic, self-contained claims of each text (batched: one spaCy pass for all texts).

    ``questions`` (optional, one per text, ``None`` allowed) lend their main entity to a
    leading pronoun the text itself cannot resolve ("He was born in 1879." answering "When
    was Einstein born?" -> "Einstein was born in 1879."). A text that is noncommittal as a
    whole ("I don't know.", ``hedges.noncommittal`` >= 0.5) has no claims; so has a blank
    one. Hedges, fillers and questions inside a text are left out; order is kept, and
    duplicate claims are kept once.
    """
    qs = list(questions) if questions is not None else [None] * len(texts)
    flags = noncommittal(list(texts), qs)
    out: list[list[str]] = []
    for clauses, p, question in zip(clauses_of(texts, qs), flags, qs):
        if p >= 0.5:
            out.append([])
            continue
        out.append(list(dict.fromkeys(_compared_with(c.text, question)
                                      for c in clauses if c.kind == "claim")))
    return out


_ALTERNATIVES = re.compile(r"[,:]\s*(?P<a>[^,:;?]+?)\s+or\s+(?P<b>[^,:;?]+?)\s*\?\s*$",
                           re.IGNORECASE)
_ARTICLE = re.compile(r"^the\s+", re.IGNORECASE)
_COMPARATIVE = re.compile(r"\b(?P<w>" + "|".join(sorted(COMPARING - {"before", "after"}))
                          + r")\b(?!\s+than\b)", re.IGNORECASE)


def _compared_with(claim: str, question: str | None) -> str:
    """The claim with the other thing its comparative compares with, when only the question
    names it: "Hinder was formed earlier." answering "Which band was formed earlier, Hinder
    or Alice in Chains?" -> "Hinder was formed earlier than Alice in Chains."; "first"
    becomes "first, before Alice in Chains".

    A claim must be self-contained; without the other band "formed earlier" asserts
    nothing a passage can check, and word alignment supported it and its reverse alike
    (``comparisons`` decides the completed claim from the years of each). Only an answer
    that opens on one of the question's two alternatives ("..., A or B?") and does not
    name the other is completed."""
    match = _ALTERNATIVES.search(question or "")
    if match is None or not enabled("comparisons"):
        return claim
    options = (match["a"].strip(), match["b"].strip())
    for mine, other in (options, options[::-1]):
        if (not re.match(r"(?:the\s+)?" + re.escape(_ARTICLE.sub("", mine)) + r"\b", claim,
                         re.IGNORECASE)
                or re.search(r"\b" + re.escape(_ARTICLE.sub("", other)) + r"\b", claim,
                             re.IGNORECASE)):
            continue
        word = _COMPARATIVE.search(claim)
        if word is None:
            return claim
        end = word.end()
        if word["w"].lower() == "first":
            tail = claim[end:]
            added = f", before {other}" + ("" if not tail or tail[0] in _TERMINAL + ",;" else ",")
        else:
            added = f" than {other}"
        return claim[:end] + added + claim[end:]
    return claim
