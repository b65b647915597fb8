"""Does a retrieved chunk help answer the question, or does it only share its topic?

The chunk-level ``context_relevance`` of the local judge. A retriever's hard negatives share
the question's words by construction, so counting shared words (``RelevanceScorer``) is not
enough. A passage that answers a question has two things a same-topic passage lacks:

* **the focus, whole** (``presence``): every word naming what the question is about, rarer
  words weighing more. A page on bladder infections does not answer "what causes *gall*
  bladder infections?"; one on college hockey does not give the average age of *NHL* teams.
* **an answer of the expected kind beside the focus** (``evidence``): a sentence about the
  focus (it, or the sentence before it, names the focus) that holds what the question asks
  for (``question_focus``): a county for "what county", a date for "when", an amount for
  "how much", a definition (the focus as subject of "is", "means", "refers to"...) for
  "what does X mean", a cause ("caused by", "due to", "leads to"...) for "what causes" and
  "what does it mean when...", an instruction (a clause opening on a base-form verb, "you"
  with a modal: ``instructions``) for "how do I / how to", the property named for "what
  are the symptoms of X" (the word "symptoms", not a sentence saying what X is), a person
  or place other than the ones the question names for "who" / "where".
* **an answer of the expected kind at all** (``answer_type``): a passage with no sentence of
  that kind cannot answer, however much of the focus it holds (no date: it cannot say
  when). This is what separates the negatives that answer *another* question about the
  same terms (what causes X, when asked for its symptoms; what X is, when asked how to do it).

All are combined with the lexical signals of ``RelevanceScorer`` (how much of the passage
is about the question's terms) in one logistic score; see ``ChunkRelevanceScorer.combine``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Sequence

from ragmeter.local import nlp
from ragmeter.local.nlp import Sentence
from ragmeter.local.question_focus import PLACE_NOUNS, QuestionFocus, question_focus
from ragmeter.local.relevance import RelevanceScorer, best_sentence_coverage, key_terms
from ragmeter.local.verifier import SentenceEncoder

DEFINING_WORDS = frozenset(
    "is are was were means mean meaning refers refer describes describe defined denotes denote "
    "stands stand consists consist called known abbreviation definition".split())
UNTYPED = frozenset(("yesno", "description"))
"""Question kinds with no expected answer type: the focus alone decides."""
# "since", "from" and "by" stay: dropping them (they occur in most sentences) cost one MS MARCO
# pair and changed nothing on either own set (bench/README.md).
CAUSAL_WORDS = frozenset(
    "cause causes caused causing because due result results resulting lead leads leading trigger "
    "triggers triggered reason reasons responsible factor factors risk since from by".split())
STEP_OPENERS = frozenset("then next first finally now also".split())
CLAUSE_BREAKS = frozenset(", ; : and then or . ) - * •".split())
"""Before a clause (or a list item: "1. Press...", "- Press..."): where an instruction's verb opens."""
COLOUR_WORDS = frozenset(
    "red orange yellow green blue purple violet pink brown black white grey gray amber golden "
    "silver tan beige cream maroon turquoise indigo cyan magenta colorless colourless pale dark "
    "yellowish reddish bluish greenish whitish brownish".split())
GROUP_HEADS = {"ethnicity": ("NORP",), "nationality": ("NORP",), "race": ("NORP",), "religion": ("NORP",),
               "language": ("LANGUAGE", "NORP"), "ancestry": ("NORP",), "heritage": ("NORP",)}
ENTITY_KINDS = {
    "person": ("PERSON", "ORG", "NORP"),
    "date": ("DATE", "TIME"),
    "place": ("GPE", "LOC", "FAC"),
    "money": ("MONEY",),
    "number": ("CARDINAL", "QUANTITY", "PERCENT", "MONEY", "DATE", "TIME"),
}
NAMED_KINDS = frozenset(("person", "date", "place", "money", "number"))
"""Kinds whose answers are found by the entity recogniser (the others skip it: half the time)."""
_MONEY = re.compile(r"[$£€¥₹]|\b(?:rs|usd|eur|dollars?|cents?|pounds?|euros?|rupees?|paise|per hour|an hour|a year|per year|salary)\b", re.I)


@dataclass(frozen=True)
class ChunkSignals:
    """What ``ChunkRelevanceScorer.combine`` weighs, per passage, each in [0, 1] (``focus`` in
    [0, 2.2], BM25's saturation), and the sentence that gave ``evidence``."""

    coverage: float
    focus: float
    presence: float
    evidence: float
    best_sentence: str
    cosine: float | None = None
    answer_type: bool = True


@dataclass(frozen=True)
class ChunkJudgement:
    relevance: float
    reason: str
    signals: ChunkSignals


def _matches(term: str, word: str) -> bool:
    """A question word found in a passage word: equal, or one a prefix of the other covering
    at least 80% of the longer ("nhl"/"nhler", "german"/"germany"; not "car"/"career")."""
    if term == word:
        return True
    short, long_ = (term, word) if len(term) <= len(word) else (word, term)
    return len(short) >= 3 and long_.startswith(short) and len(short) >= 0.6 * len(long_) or (
        len(short) >= 5 and long_[:5] == short[:5] and _common(short, long_) >= 0.8 * len(short))


def _common(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _has(sentence: Sentence, term: str) -> bool:
    words = sentence.words
    if any(_matches(term, w) for w in words) or any(_matches(term, w) for w in sentence.content):
        return True
    # "gall bladder" / "gallbladder": a question word may be half of a passage word
    return len(term) >= 3 and any(w.startswith(term) or w.endswith(term) for w in words if len(w) >= len(term) + 4)


def _share(terms: Sequence[str], weights: Sequence[float], sentences: Sequence[Sentence]) -> float:
    if not terms:
        return 1.0
    found = sum(w for t, w in zip(terms, weights) if any(_has(s, t) for s in sentences))
    return found / sum(weights)


def instructions(sentences: Sequence[str]) -> frozenset[str]:
    """The sentences that give an instruction: a clause opening on a verb in the base form
    ("Soak the bolt...", "On the sign-in screen, select...", "..., then tighten them") or
    "you" with a modal ("you can renew it by mail"). A passage that answers "how do I V"
    tells the reader what to do; one that only describes the thing does not.

    Each sentence is tagged on its own (the passage's own sentence split, so a list of steps
    on separate lines is read line by line, as ``nlp.analyse`` reads it)."""
    out = set()
    for text, doc in zip(sentences, nlp.parse(list(sentences))):
        toks = [t for t in doc if not t.is_space]
        prev = ""
        for k, t in enumerate(toks):
            if t.tag_ == "VB" and (k == 0 or prev in CLAUSE_BREAKS or prev in STEP_OPENERS or prev.isdigit()) or (
                    t.lower_ == "you" and k + 1 < len(toks) and toks[k + 1].tag_ == "MD"):
                out.add(text)
                break
            prev = t.lower_
    return frozenset(out)


def _new_entity(sentence: Sentence, labels: Sequence[str], focus_terms: Sequence[str]) -> bool:
    """An entity of one of ``labels`` that is not the question's own focus: what a question
    names cannot be its answer ("Where is the Great Barrier Reef?" is not answered by "the
    Great Barrier Reef"; the small recogniser's "Moon" as a PERSON does not answer "who")."""
    return any(e.label in labels and not all(any(_matches(t, w) for t in focus_terms) for w in e.norm.split())
               for e in sentence.entities)


def holds_answer(asks: QuestionFocus, sentence: Sentence, focus_terms: Sequence[str],
                 steps: frozenset[str] = frozenset()) -> bool:
    """Whether ``sentence`` holds something of the kind ``asks`` expects.

    Entity labels come from spaCy's recogniser; the other kinds from cue words, because
    what they look for is a construction, not a name."""
    labels = {e.label for e in sentence.entities}
    words = sentence.words
    kind = asks.kind
    if kind in UNTYPED:
        return True  # no answer type: the focus alone decides
    if kind == "definition":
        # the focus as the subject of a defining verb, or a dictionary entry "X - the act of..."
        head = words[:12]
        for i, w in enumerate(head):
            if any(_matches(t, w) for t in focus_terms):
                rest = head[i + 1 : i + 6]
                if any(r in DEFINING_WORDS for r in rest):
                    return True
        return bool(re.match(r"^\W*[\w\s'-]{1,40}?\s*(?:[-–—:=(]|\bis\b|\bmeans\b)", sentence.text)) and any(
            _matches(t, w) for t in focus_terms for w in words[:6])
    if kind == "procedure":
        return sentence.text in steps
    if kind == "attribute":
        return any(_matches(asks.head, w) for w in words)
    if kind == "reason":
        return any(w in CAUSAL_WORDS for w in words)
    if kind == "money":
        return "MONEY" in labels or bool(_MONEY.search(sentence.text)) and bool(sentence.numbers)
    if kind == "number":
        return bool(sentence.numbers) or bool(labels & set(ENTITY_KINDS["number"]))
    if kind == "date":
        return bool(sentence.dates) or bool(labels & set(ENTITY_KINDS["date"]))
    if kind == "person":
        return _new_entity(sentence, ENTITY_KINDS["person"], focus_terms)
    if kind == "place":
        if asks.head and asks.head in PLACE_NOUNS:
            return any(_matches(asks.head, w) for w in words)
        return _new_entity(sentence, ENTITY_KINDS["place"], focus_terms)
    if kind == "category":
        if asks.head in ("color", "colour"):
            return any(w in COLOUR_WORDS for w in words)
        if asks.head in GROUP_HEADS:
            return bool(labels & set(GROUP_HEADS[asks.head]))
        return any(_matches(asks.head, w) for w in words)
    return True


class ChunkRelevanceScorer:
    """``relevance(question, passages)``: a ``ChunkJudgement`` per passage, in order.

    ``embeddings=False`` leaves the MiniLM cosine out (no encoder needed; weaker, see
    ``W_LEXICAL``). Deterministic; a passage's score does not depend on the other passages
    of the call.
    """

    # Topic overlap is what a hard negative shares with the answer, so it counts for half; a
    # missing focus word is the surest sign of another topic. On the 100 MS MARCO dev pairs,
    # 18 settings of (lexical, presence, evidence) in {1, 0.5, 0.25} x {2, 4, 8} x {0, 3, 6}
    # without the cosine gave 0.695-0.735 pairwise; this one (0.735) is the best of them, so
    # read the figure with that selection in mind. With the MiniLM cosine in z_lexical (the
    # default): 0.755 on MS MARCO, 0.94 on 34 pairs written afterwards (0.87 without it).
    # W_ANSWER_TYPE was set by reasoning, not search (the one value tried): a passage with no
    # answer of the expected kind loses as much as the evidence term gives one holding it
    # (3), so it sits below an answering passage that misses up to ~3/8 of the focus. With it
    # and the question kinds added after (procedure, attribute, "who was the", "what does it
    # mean when"): 0.785 MS MARCO, 1.00 on the 34 pairs, 0.59 on 66 pairs over seven domains
    # written before those changes (0.455 before them); bench/README.md has every step.
    W_LEXICAL = 0.5
    W_PRESENCE = 8.0
    W_EVIDENCE = 3.0
    W_ANSWER_TYPE = 3.0

    def __init__(self, embeddings: bool = True, encoder: SentenceEncoder | None = None) -> None:
        self.lexical = RelevanceScorer(encoder=encoder, embeddings=embeddings)

    def signals(self, question: str, passages: Sequence[str]) -> list[ChunkSignals]:
        if not passages:
            return []
        asks = question_focus(question)
        named = asks.kind in NAMED_KINDS or asks.head in GROUP_HEADS
        q = nlp.analyse([question], entities=False)[0]
        analyses = nlp.analyse(list(passages), entities=named)
        terms = key_terms(q)
        focus = list(asks.focus) or terms
        weights = [nlp.word_weight(t) for t in focus]
        cosines: list[float | None] = [None] * len(passages)
        if self.lexical.embeddings:
            rows = self.lexical.encoder.encode([question, *passages])
            cosines = [max(0.0, float(rows[0] @ rows[i + 1])) for i in range(len(passages))]
        out = []
        for passage, cosine in zip(analyses, cosines):
            sentences = passage.sentences
            presence = _share(focus, weights, sentences)
            steps = instructions([s.text for s in sentences]) if asks.kind == "procedure" else frozenset()
            evidence, best, typed = 0.0, "", False
            for i, s in enumerate(sentences):
                if not holds_answer(asks, s, focus, steps):
                    continue
                typed = True
                # the focus may be named in the sentence before ("Ackley, Iowa. It is a city in...")
                about = _share(focus, weights, sentences[max(0, i - 1) : i + 1])
                if about > evidence:
                    evidence, best = about, s.text
            out.append(ChunkSignals(
                coverage=best_sentence_coverage(terms, passage),
                focus=self.lexical.focus(terms, passage),
                presence=presence,
                evidence=evidence,
                best_sentence=best,
                answer_type=typed or asks.kind in UNTYPED,
                cosine=cosine,
            ))
        return out

    @classmethod
    def combine(cls, s: ChunkSignals) -> float:
        """relevance = 1 / (1 + exp(-z)), where

            z = 0.5 z_lexical + 8 (presence - 1) + 3 (evidence - 0.5) - 3 [no answer_type]

        where ``z_lexical`` is the log-odds of ``RelevanceScorer`` (best-sentence coverage and
        BM25 focus; plus the MiniLM cosine with ``embeddings=True``) and [no answer_type] is 1
        when the question expects a kind of answer and no sentence of the passage holds one.
        A passage holding the whole focus with an answer of the expected kind beside it gains
        4.5 over one with no answer of that kind anywhere; one missing a quarter of the focus
        (by rarity) loses 2."""
        p = RelevanceScorer.combine(s.cosine, s.coverage, s.focus)
        z = math.log(max(1e-9, p)) - math.log(max(1e-9, 1 - p))
        z *= cls.W_LEXICAL
        z += cls.W_PRESENCE * (s.presence - 1.0) + cls.W_EVIDENCE * (s.evidence - 0.5)
        z -= 0.0 if s.answer_type else cls.W_ANSWER_TYPE
        return 1.0 / (1.0 + math.exp(-z))

    def relevance(self, question: str, passages: Sequence[str]) -> list[ChunkJudgement]:
        asks = question_focus(question)
        out = []
        for s in self.signals(question, passages):
            p = self.combine(s)
            out.append(ChunkJudgement(p, _reason(asks, s, p), s))
        return out


def _reason(asks: QuestionFocus, s: ChunkSignals, p: float) -> str:
    wanted = {"procedure": "steps", "reason": "cause"}.get(asks.kind, asks.head or asks.kind)
    if not s.answer_type:
        why = f"no sentence about the focus holds the {wanted} asked for ({s.presence:.0%} of the focus)"
    elif s.presence < 0.7:
        why = f"it lacks part of what the question is about ({s.presence:.0%} of the focus)"
    elif s.evidence >= 0.7:
        why = f'a sentence about the focus holds the {wanted} asked for: "{s.best_sentence[:80]}"'
    elif asks.kind not in UNTYPED:
        why = f"no sentence about the focus holds the {wanted} asked for"
    else:
        why = f"{s.evidence:.0%} of the focus in its best sentence"
    return f"local relevance {p:.2f}: {why}"
