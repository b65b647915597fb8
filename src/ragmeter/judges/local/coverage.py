"""Answer relevancy without generating questions: how much of each question its answer covers.

``question_coverage`` matches each part of the question (``question_parts``) against the
answer's clauses (``claims.clauses_of``) by embedding, key terms and expected answer type,
and zeroes a noncommittal answer (``hedges.noncommittal``). One ``encoder.encode`` call per
batch, one spaCy pass per text (cached).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

import numpy as np

from ragmeter.text import nlp as _nlp
from ragmeter.judges.local.claims import Clause, clauses_of
from ragmeter.judges.local.hedges import noncommittal
from ragmeter.judges.local.question_parts import QuestionPart, question_parts

__all__ = ["CoverageResult", "Encoder", "PartCoverage", "question_coverage"]


class Encoder(Protocol):
    """Anything with ``encode(texts) -> array`` of unit rows (``verifier.SentenceEncoder``)."""

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


@dataclass(frozen=True)
class PartCoverage:
    """How well the answer addresses one part of the question.

    ``covered`` in [0, 1]; ``evidence``: the answer clause that matches it best;
    ``similarity``: cosine between part and evidence; ``terms``: weighted share of the part's
    key terms found in the answer; ``expected``: the answer type the part asks for and
    ``type_found`` whether a matching clause has one (``None`` when no type is expected).
    """

    part: str
    covered: float
    evidence: str
    similarity: float
    terms: float
    expected: str | None
    type_found: bool | None


@dataclass(frozen=True)
class CoverageResult:
    """Answer relevancy without generation: ``score`` in [0, 1], its parts and the reason.

    ``noncommittal`` is the flag (probability >= 0.5; the score is then 0);
    ``noncommittal_probability`` the probability from ``noncommittal``; ``reason`` a
    sentence a person can read (which parts are addressed, by which clause).
    """

    score: float
    parts: tuple[PartCoverage, ...]
    noncommittal: bool
    noncommittal_probability: float

    @property
    def reason(self) -> str:
        if self.noncommittal:
            return "the answer is noncommittal (a refusal, an 'I don't know' or a hedge with no content)"
        if not self.parts:
            return "no question to cover"
        covered = [p for p in self.parts if p.covered >= 0.5]
        bits = []
        for p in self.parts:
            what = f'"{p.part}" {p.covered:.2f}'
            if p.covered >= 0.5:
                what += f' (by "{p.evidence}")'
            elif p.expected and not p.type_found:
                what += f" (no {p.expected} in the matching clause)"
            else:
                what += " (not addressed)"
            bits.append(what)
        return (f"the answer addresses {len(covered)} of {len(self.parts)} part(s) of the "
                f"question: " + "; ".join(bits))


# The weights of part coverage (see question_coverage): round numbers, checked (not
# fitted) on the hand-written triples of bench/local_answer_check.py. MiniLM gives an
# unrelated sentence a cosine of about 0.1-0.2 with a question and a sentence answering it
# 0.7-0.9, hence the rescaling range; a part whose expected type is missing keeps 35% of
# its topical match (it is on topic, but does not answer).
SIM_LOW, SIM_HIGH = 0.15, 0.85
W_SIM, W_TERMS = 0.6, 0.4
TYPE_FLOOR = 0.35
# A name is an instance of the class a "what N" part asks for when its MiniLM cosine with the
# class noun reaches CLASS_MIN. Read (not fitted) from 13 names x 9 class nouns: each name
# with its own class 0.41-0.71 ("Seine"/river 0.51, "Toyota"/company 0.41, "Jupiter"/planet
# 0.71), with the other classes at most 0.37 ("Apple"/planet), but "London"/river 0.41.
CLASS_MIN = 0.40


class _Lexicon:
    """Answer words for fuzzy term look-up (shared prefix of 4+ letters covering 80%)."""

    def __init__(self, words: set[str]) -> None:
        self.words = words
        self.by_prefix: dict[str, list[str]] = {}
        for w in words:
            if len(w) >= 4:
                self.by_prefix.setdefault(w[:4], []).append(w)

    def has(self, word: str) -> bool:
        if word in self.words:
            return True
        if len(word) < 4:
            return False
        for other in self.by_prefix.get(word[:4], ()):
            common = 0
            for a, b in zip(word, other):
                if a != b:
                    break
                common += 1
            if common >= 0.8 * min(len(word), len(other)):
                return True
        return False


def _answer_words(clauses: Sequence["Clause"]) -> set[str]:
    words: set[str] = set()
    for c in clauses:
        words.update(_nlp.normalise_text(c.text).split())
        words.update(c.content)
        words.update(c.proper_nouns)
    return words


_TYPE_LABELS = {
    "date": frozenset({"DATE", "TIME"}),
    "number": frozenset({"CARDINAL", "QUANTITY", "MONEY", "PERCENT", "ORDINAL"}),
    "person": frozenset({"PERSON", "ORG", "NORP"}),
    "place": frozenset({"GPE", "LOC", "FAC"}),
}
_PLACE_WORDS = frozenset("""north south east west northern southern eastern western central
northeast northwest southeast southwest coast border continent near""".split())


def _names(clause: "Clause") -> list[str]:
    """The names a clause gives (entity texts, then proper nouns): candidate instances of a
    class the question asks for."""
    return list(dict.fromkeys([t for t, _ in clause.entities] + list(clause.proper_nouns)))


def _has_type(clause: "Clause", part: QuestionPart, instance: bool = False,
              strict: bool = False) -> bool:
    """The clause states a value of the type the part asks for, not one the part names.

    ``instance``: the clause names an instance of the part's class noun (``CLASS_MIN``): the
    small recogniser calls the Seine an organisation, yet it answers "what river".
    ``strict``: only a recognised value of the type or such an instance counts, not a bare
    proper noun nor a place word (what a one-phrase answer needs to stand for the question:
    "The Seine." answers "What river...?", not "Who wrote Hamlet?")."""
    expected = part.expected
    assert expected is not None
    asked = set(part.entities)
    if expected == "date":
        return bool(clause.dates) or any(l in _TYPE_LABELS["date"] for _, l in clause.entities)
    if expected == "number":
        if any(n not in part.numbers for n in clause.numbers):
            return True
        return any(l in _TYPE_LABELS["number"] for _, l in clause.entities) or bool(clause.dates)
    if instance:
        return True
    for text, label in clause.entities:
        if label in _TYPE_LABELS[expected] and _nlp.normalise_entity(text) not in asked:
            return True
    if strict:
        return False
    asked_words = {w for e in asked for w in e.split()} | set(part.terms)
    if expected == "place":
        if any(p not in asked_words for p in clause.places):
            return True
        words = set(_nlp.normalise_text(clause.text).split())
        return bool(words & _PLACE_WORDS)
    return any(p not in asked_words for p in clause.proper_nouns)


def _rescale(sim: float) -> float:
    return min(1.0, max(0.0, (sim - SIM_LOW) / (SIM_HIGH - SIM_LOW)))


def _distinct_terms(parts: Sequence[QuestionPart]) -> list[tuple[str, ...]]:
    """Each part's own terms: those not shared by every part of the question.

    "Where do penguins live and what do they eat?": the second part's own term is "eat";
    "penguins" is the topic of both and says nothing about which part an answer covers.
    A part with no term of its own keeps all of them."""
    if len(parts) < 2:
        return [p.terms for p in parts]

    def stem(w: str) -> str:  # "penguins" (a pronoun's referent) and "penguin" (a lemma)
        return w[:-1] if len(w) > 3 and w.endswith("s") else w

    common = {stem(w) for w in parts[0].terms}
    for p in parts[1:]:
        common &= {stem(w) for w in p.terms}
    return [tuple(w for w in p.terms if stem(w) not in common) or p.terms for p in parts]


def _term_share(terms: Sequence[str], lexicon: _Lexicon) -> float:
    if not terms:
        return 1.0
    weights = [_nlp.word_weight(w) for w in terms]
    found = sum(wt for w, wt in zip(terms, weights) if lexicon.has(w))
    return found / sum(weights)


def question_coverage(questions: Sequence[str], answers: Sequence[str],
                      encoder: Encoder) -> list[CoverageResult]:
    """How much of each question its answer addresses, part by part (no generation).

    Why not one cosine between question and answer: a complete answer carries more content
    than an incomplete one and so drifts further from the question's embedding (measured:
    plain cosine ranks the incomplete answer first more often than not). Here each part of
    the question (``question_parts``) is matched on its own against the answer's clauses
    (``claims.clauses_of``, pronouns resolved), so extra content costs nothing:

        sim    = max over answer clauses of cos(part, clause), rescaled from
                 [SIM_LOW, SIM_HIGH] to [0, 1]
        terms  = rarity-weighted share of the part's own key terms (content lemmas and
                 entity words, pronoun referents included; minus the terms every part
                 shares, the question's topic) found anywhere in the answer
        topic  = W_SIM * sim + W_TERMS * terms
        type   = 1 if no answer type is expected, else whether one of the two best-matching
                 clauses has one ("when" -> a date, "how many" -> a number, "who" -> a
                 person or organisation, "where" -> a place, "what river" -> a name close
                 to "river"), other than what the part names; an instance of the class
                 noun need not repeat it (the noun leaves the terms)
        part coverage = topic * (TYPE_FLOOR + (1 - TYPE_FLOOR) * type)

    An elliptical answer of the expected type ("1879." to "When was Einstein born?", a
    verbless clause of at most 8 words) counts its terms as found: it answers the part
    without repeating it. To a one-part question, when its type is sure (a recognised date,
    number, person or place, or an instance of the class noun asked for: "The Seine." to
    "What river...?", ``CLASS_MIN``), it is the whole answer and its sim counts as SIM_HIGH:
    it scores as the sentence repeating the question does (about 0.95); with several parts,
    or a type read only from a bare proper noun, it keeps its own sim (about 0.5). The
    topical non-answer "Einstein was born in Germany." scores about 0.3; "Yes." is
    noncommittal, and "In 1989." has no type of "Who wrote Hamlet?" (0).
        score  = mean part coverage * (1 - p_noncommittal), and 0 if p_noncommittal >= 0.5

    ``encoder.encode`` is called once for the whole batch (unit rows expected). Limits: a
    clause that talks about the part's topic with a value of the expected type counts as an
    answer even if it answers something else ("born in Ulm" for "where did he die"); a
    question with no wh-word has no type cue; sim is MiniLM's and English-centred.
    """
    if len(questions) != len(answers):
        # internal: the local judge pairs them itself; a bug if hit
        raise ValueError(f"{len(questions)} questions but {len(answers)} answers")
    probs = noncommittal(answers, questions)
    all_parts = question_parts(questions)
    all_clauses = clauses_of(answers, questions)
    units = [[c for c in cl if c.kind != "filler"] or list(cl) for cl in all_clauses]
    texts = list(dict.fromkeys([p.text for ps in all_parts for p in ps]
                               + [c.text for us in units for c in us]
                               + [p.head for ps in all_parts for p in ps if p.head and p.expected]
                               + [n for ps, us in zip(all_parts, units) if any(p.head for p in ps)
                                  for c in us for n in _names(c)]))
    vectors = encoder.encode(texts) if texts else np.zeros((0, 1), dtype=np.float32)
    row = {t: i for i, t in enumerate(texts)}
    out: list[CoverageResult] = []
    for parts, clauses, p_nc in zip(all_parts, units, probs):
        flag = p_nc >= 0.5
        if not parts or not clauses:
            out.append(CoverageResult(0.0, tuple(
                PartCoverage(p.text, 0.0, "", 0.0, 0.0, p.expected, False if p.expected else None)
                for p in parts), flag, float(p_nc)))
            continue
        lexicon = _Lexicon(_answer_words(clauses))
        cvecs = np.stack([vectors[row[c.text]] for c in clauses])
        results: list[PartCoverage] = []
        for part, own_terms in zip(parts, _distinct_terms(parts)):
            sims = cvecs @ vectors[row[part.text]]
            order = np.argsort(-sims, kind="stable")
            best = int(order[0])
            sim = float(sims[best])
            terms = _term_share(own_terms, lexicon)
            type_found: bool | None = None
            if part.expected:
                instances = [part.head != "" and any(
                    float(vectors[row[n]] @ vectors[row[part.head]]) >= CLASS_MIN for n in _names(c)
                    if _nlp.normalise_entity(n) not in part.entities) for c in clauses]
                typed = [int(j) for j in order[:2] if _has_type(clauses[int(j)], part, instances[int(j)])]
                type_found = bool(typed)
                if typed and instances[typed[0]]:
                    # an instance need not repeat its class: "the Seine" is the river asked for
                    terms = _term_share([w for w in own_terms if w != part.head], lexicon)
                if typed and clauses[typed[0]].verbless and len(clauses[typed[0]].text.split()) <= 8:
                    # an elliptical answer ("1879.", "Paris.") leaves the question's words
                    # implied: it cannot repeat them, and its embedding is far from any question
                    terms = 1.0
                    best = typed[0]
                    sim = float(sims[best])
                    if len(parts) == 1 and _has_type(clauses[best], part, instances[best], strict=True):
                        # one phrase of the sure type to a one-part question is its whole answer
                        # ("Shakespeare." to "Who wrote Hamlet?"): it fills the one slot the
                        # question leaves open, so it addresses the question as the sentence
                        # repeating it would; with several parts it fills only one of them
                        sim = max(sim, SIM_HIGH)
            topic = W_SIM * _rescale(sim) + W_TERMS * terms
            if part.expected:
                topic *= TYPE_FLOOR + (1.0 - TYPE_FLOOR) * float(bool(type_found))
            results.append(PartCoverage(part.text, round(float(topic), 4), clauses[best].text,
                                        round(sim, 4), round(terms, 4), part.expected,
                                        type_found))
        mean = sum(r.covered for r in results) / len(results)
        score = 0.0 if flag else mean * (1.0 - p_nc)
        out.append(CoverageResult(round(min(1.0, max(0.0, score)), 4), tuple(results), flag,
                                  float(p_nc)))
    return out

