"""Semantic support: does a premise state what a claim says, in other words?

The alignment verifier (``verifier.AlignmentVerifier``) finds the premise sentences that
carry a claim's content by shared words. That is exact for extractive answers and blind
to paraphrase: "trees cease making chlorophyll" against "trees stop producing chlorophyll"
shares two of four words. This module reads the same aligned text by meaning:

1. **Word counterparts in context.** The claim and its candidate evidence sentences are
   encoded once each with MiniLM (``token_encoder``: one vector per word, in its sentence).
   Each content word of the claim takes the most similar content word of the evidence as
   its counterpart. Measured: "cease"->"stop" 0.83, "making"->"producing" 0.74,
   "soldiers"->"army" 0.70 (a sentence about an army of "men"), against "glucose"->"ATP"
   0.40 and "architect"->(nothing better than) 0.61 on a function word. A word spelled
   like a premise word counts as found whatever its vector.
2. **Semantic coverage.** Each content word's credit ramps from 0 at cosine ``LOW`` to 1 at
   ``HIGH``; coverage is the rarity-weighted mean credit (``nlp.word_weight``). A content
   word with no counterpart (an unsupported addition: "first frost", "liver damage") keeps
   its credit near 0.
3. **Togetherness.** Neighbouring content words of the claim must find their counterparts
   in the same or adjacent premise sentences (``pairs``): words gathered from unrelated
   sentences are a recombination, not a paraphrase.
4. **Contrast.** A claim word the evidence does not state, while it states its antonym
   ("raise" where the claim says "cut", "stop" for "keep", "shorter" for "longer"),
   breaks support, however similar the vectors (contextual vectors put antonyms close:
   they share their contexts).

Numbers, dates, named entities and negation stay the lexical verifier's symbolic checks:
embeddings do not tell 1889 from 1901 or Paris from London reliably, rules do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from ragmeter.text import nlp
from ragmeter.judges.local.families import enabled
from ragmeter.judges.local.token_encoder import TokenEncoder, WordVectors, default_token_encoder

LOW = 0.40
"""Cosine at or below which a word's best counterpart gives it no credit. Measured on words in
context: unrelated pairs and category swaps ("glucose"/"ATP" 0.40) sit at or below it."""

HIGH = 0.70
"""Cosine from which a counterpart gives full credit: synonyms in context ("cease"/"stop"
0.83, "making"/"producing" 0.74, "soldiers"/"army" 0.70) reach it; a word against itself in
another sentence scores 0.85-0.99."""

_STOP = None


def _stopwords() -> frozenset[str]:
    global _STOP
    if _STOP is None:
        from spacy.lang.en.stop_words import STOP_WORDS

        _STOP = frozenset(STOP_WORDS) | frozenset(
            "also just about approximately roughly around nearly some".split())
    return _STOP


_WORD = re.compile(r"^[a-z][a-z'\-]*$")


def content_positions(words: Sequence[str]) -> list[int]:
    """Positions of the content words: alphabetic, not a stopword, not a number word."""
    stop = _stopwords()
    return [i for i, w in enumerate(words)
            if len(w) >= 2 and _WORD.match(w) and w not in stop and nlp.number_value(w) is None]


_SUFFIXES = ("ing", "ed", "es", "er", "est", "ly", "s")


def stem(word: str) -> str:
    """A crude stem for spelling matches and antonym look-up: one common suffix off, then a
    final "e" and a doubled final consonant ("producing" and "produce" -> "produc",
    "cutting" -> "cut", "shorter" -> "short", "raises" and "raised" -> "rais")."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if word.endswith("e") and len(word) >= 4:
        word = word[:-1]
    if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]
    return word


_ANTONYM_PAIRS = """
increase decrease; increase reduce; increase lower; increase cut; raise cut; raise lower;
raise reduce; rise fall; rise drop; rise decline; grow shrink; expand shrink; more less;
more fewer; higher lower; larger smaller; bigger smaller; longer shorter; long short;
faster slower; quick slow; quicker slower; early late; earlier later; before after;
first last; start stop; begin end; begin stop; keep stop; continue stop; open close;
win lose; won lost; victory defeat; accept reject; allow forbid; allow ban; allow prohibit;
permit forbid; include exclude; cover exclude; add remove; gain lose; strong weak;
stronger weaker; hot cold; warm cool; warmer cooler; heavy light; high low; maximum minimum;
most least; always never; all none; full empty; alive dead; male female; men women;
north south; east west; inside outside; above below; cheap expensive; cheaper costlier;
safe dangerous; harmless harmful; beneficial harmful; legal illegal; true false;
success failure; positive negative; strengthen weaken; internal external; upper lower;
import export; buy sell; push pull; father mother; son daughter; husband wife; king queen;
boy girl; day night; summer winter; wet dry; young old; new old; ancient modern;
deep shallow; wide narrow; broad narrow; sharp blurred; sharp blurry;
sharp fuzzy; crisp blurred; dear cheap; tight loose; permanent temporary;
reusable disposable; absorb reflect; absorb emit; sink float; expand contract;
tighten loosen; attach detach; arrive depart; enter exit; ascend descend; inhale exhale;
lend borrow; send receive; pass fail; present absent; visible invisible; common rare;
frequent rare; often rarely; usually rarely; public private; domestic foreign;
natural artificial; smooth rough; soft hard; simple complex; bright dim; bright dark;
loud quiet; noisy quiet; fresh stale; raw cooked; clean dirty; rich poor; inner outer;
interior exterior; top bottom; forward backward; minor major; junior senior; past future;
earliest latest; gain loss; profit loss; benefit harm; advantage disadvantage;
agree disagree; approve reject; confirm deny; admit deny; accept refuse; obey disobey;
remember forget; freeze melt; sunrise sunset; dawn dusk; horizontal vertical;
acidic alkaline; predator prey; winner loser; buyer seller;
landlord tenant; plaintiff defendant; host guest; lender borrower; sender recipient
"""
ANTONYM_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (a, b) for pair in _ANTONYM_PAIRS.replace("\n", " ").split(";") if pair.strip()
    for a, b in [pair.split()])
"""The antonym list as written (unstemmed word pairs, one way): what ``ANTONYMS`` is built
from, and what a data maker needs to write the opposite word in full."""
ANTONYMS: frozenset[tuple[str, str]] = frozenset(
    (stem(b), stem(a)) if swap else (stem(a), stem(b))
    for a, b in ANTONYM_PAIRS for swap in (False, True))
"""Stemmed antonym pairs, both ways. A fixed list: contextual vectors cannot tell an
antonym from a synonym (both fill the same slot), and no lexical database ships offline.

The second half of the list (from "deep shallow") was added as common English opposites of
shape, light, direction, frequency and the parties of a transaction. Measured on the RAG
development set (dev and heldout, claims of every answer): two antonym claims more caught
("grow shallower" where beaks grew deeper; cells that "absorb" light where they reflect it),
no faithful claim lost. Left out after that measure: "thick thin" (a faithful "thick and
deep for breaking hard seeds" against "large, deep beaks crack hard seeds, while thin,
pointed beaks pick insects": the evidence says both sides, of different things),
"employer employee" (the stems of "employees" and "employer" meet), and a rule reading
"un"/"non" + a word as its opposite ("the oldest unlocked clips" against "the oldest
unprotected clips are overwritten ... clips are locked": the same binding problem)."""


def _spelled_alike(a: str, b: str) -> bool:
    if a == b:
        return True
    sa, sb = stem(a), stem(b)
    return len(sa) >= 4 and sa == sb


@dataclass(frozen=True)
class SemanticMatch:
    """What the meaning-level reading found for one (evidence, claim) pair, each in [0, 1].

    ``coverage``: rarity-weighted mean credit of the claim's content words (1 if none);
    ``pairs``: rarity-weighted share of neighbouring content-word pairs whose counterparts lie
    in the same or adjacent candidate sentences (``pair_share``); ``contrast``: 1 when the
    evidence says the antonym of a claim word and never the word (``opposed``); ``similarity``: cosine of the claim with its closest
    candidate sentence (whole-text embeddings); ``missing``: the claim words with no
    counterpart (credit below one half), for reasons; ``weakest``: the lowest credit of a
    content word of the claim (one invented detail in an otherwise faithful claim shows
    here, where the rarity-weighted mean dilutes it); ``together``: neighbouring claim words
    whose counterparts stand close in one sentence (``pair_share``).
    """

    coverage: float
    pairs: float
    contrast: float
    similarity: float
    missing: tuple[str, ...] = ()
    weakest: float = 1.0
    together: float = 1.0


def credit(cosine: float) -> float:
    """A counterpart's credit: 0 at or below ``LOW``, 1 at or above ``HIGH``, linear between.

        credit = clip((cosine - LOW) / (HIGH - LOW), 0, 1)
    """
    return float(min(1.0, max(0.0, (cosine - LOW) / (HIGH - LOW))))


@dataclass(frozen=True)
class Candidates:
    """A claim and the premise sentences that may carry it: ``sentences`` are texts in premise
    order, ``positions`` their indices in the premise (adjacent = neighbouring sentences);
    ``vocabulary`` every word and lemma of the whole premise (for spelling matches)."""

    claim: str
    sentences: tuple[str, ...]
    positions: tuple[int, ...]
    vocabulary: frozenset[str]


class SemanticMatcher:
    """Reads (candidate sentences, claim) pairs by meaning; see the module docstring.

    Batched: ``match`` encodes every text of every pair not seen before in one call.
    """

    def __init__(self, encoder: TokenEncoder | None = None) -> None:
        self._encoder = encoder

    @property
    def encoder(self) -> TokenEncoder:
        if self._encoder is None:
            self._encoder = default_token_encoder()
        return self._encoder

    def match(self, jobs: Sequence[Candidates]) -> list[SemanticMatch]:
        if not jobs:
            return []
        texts = list(dict.fromkeys(t for j in jobs for t in (j.claim, *j.sentences)))
        encoded = dict(zip(texts, self.encoder.encode(texts)))
        return [_match(job, encoded) for job in jobs]


def _match(job: Candidates, encoded: dict[str, WordVectors]) -> SemanticMatch:
    claim = encoded[job.claim]
    own = content_positions(claim.words)
    if not own:
        return SemanticMatch(1.0, 1.0, 0.0, 1.0)
    words: list[str] = []
    rows: list[np.ndarray] = []
    where: list[int] = []
    spot: list[tuple[int, int]] = []  # (sentence position, content-word index in it)
    similarity = 0.0
    for text, position in zip(job.sentences, job.positions):
        sentence = encoded[text]
        similarity = max(similarity, float(sentence.pooled @ claim.pooled))
        for n, i in enumerate(content_positions(sentence.words)):
            words.append(sentence.words[i])
            rows.append(sentence.vectors[i].astype(np.float32))
            where.append(position)
            spot.append((position, n))
    mine = claim.vectors[own].astype(np.float32)
    sims = (mine @ np.vstack(rows).T) if rows else np.zeros((len(own), 0))
    credits: list[float] = []
    located: list[set[int]] = []
    spots: list[set[tuple[int, int]]] = []
    for k, i in enumerate(own):
        word = claim.words[i]
        spelled = [n for n, w in enumerate(words) if _spelled_alike(word, w)]
        if spelled:
            credits.append(1.0)
            located.append({where[n] for n in spelled})
            spots.append({spot[n] for n in spelled})
            continue
        if sims.shape[1] == 0:
            credits.append(1.0 if word in job.vocabulary else 0.0)
            located.append(set())
            spots.append(set())
            continue
        best = int(np.argmax(sims[k]))
        c = credit(float(sims[k, best]))
        if word in job.vocabulary or stem(word) in job.vocabulary:
            c = max(c, 0.5)  # stated elsewhere in the premise, as the lexical verifier credits
        credits.append(c)
        near = np.flatnonzero(sims[k] >= max(LOW, sims[k, best] - 0.05))
        located.append({where[n] for n in near})
        spots.append({spot[n] for n in near})
    # squared rarity: a missing "looks" or "takes" (common verbs a paraphrase swaps freely)
    # weighs a third of a missing "firmware" or "frost"
    weights = [nlp.word_weight(claim.words[i]) ** 2 for i in own]
    coverage = sum(c * w for c, w in zip(credits, weights)) / sum(weights)
    # pairs among the words that found a counterpart: a missing word already costs through
    # coverage; here only where the found ones lie counts
    pairs = pair_share(credits, weights, lambda a, b: any(
        abs(x - y) <= 1 for x in located[a] for y in located[b]))
    # stricter: in ONE sentence, close together (a wrong name taken from elsewhere in the
    # passage finds every word, each in its own sentence, but not side by side)
    together = pair_share(credits, weights, lambda a, b: any(
        x[0] == y[0] and abs(x[1] - y[1]) <= TOGETHER_WINDOW
        for x in spots[a] for y in spots[b]))
    missing = tuple(claim.words[i] for i, c in zip(own, credits) if c < 0.5)
    evidence = [encoded[text].words for text in job.sentences]
    contrast = 1.0 if opposed(claim.words, evidence) else 0.0
    return SemanticMatch(coverage=coverage, pairs=pairs, contrast=contrast,
                         similarity=similarity, missing=missing, weakest=min(credits),
                         together=together)


TOGETHER_WINDOW = 6
"""Content words apart, at most, for two counterparts to count as stated together."""


def pair_share(credits: Sequence[float], weights: Sequence[float],
               stated: Callable[[int, int], bool]) -> float:
    """Rarity-weighted share of the claim's neighbouring content-word pairs (both found:
    credit at least one half) whose counterparts ``stated(a, b)`` places as the premise
    states them; 1 when there is no such pair.

        share = sum_{pairs stated} w_ab / sum_{pairs} w_ab,   w_ab = max(w_a, w_b)

    ``pairs`` asks for the same or adjacent sentences; ``together`` for one sentence, at
    most ``TOGETHER_WINDOW`` content words apart ("Howard Florey noticed the mould", where
    Florey only developed the drug two sentences later, finds every word but not side by
    side).
    """
    total = found = 0.0
    for a in range(len(credits) - 1):
        if min(credits[a], credits[a + 1]) < 0.5:
            continue
        weight = max(weights[a], weights[a + 1])
        total += weight
        if stated(a, a + 1):
            found += weight
    return found / total if total else 1.0


def opposed(claim: Sequence[str], evidence: Sequence[Sequence[str]]) -> bool:
    """Whether the evidence says the opposite of a claim word, and never the word itself:
    "keep" in the claim, "stop" and no "keep" in the evidence.

    Over all words, stopwords included: most antonym pairs are stopwords to spaCy ("keep",
    "more"/"less", "first"/"last", "before"/"after", "always"/"never", "all"/"none"), so a
    check over content words only never saw them.
    """
    if not enabled("antonyms"):
        return False
    said = {k for sentence in evidence for k in _keys(sentence, plain=False)}
    own = set(_keys(claim, plain=False))
    said_plainly = {k for sentence in evidence for k in _keys(sentence)}
    sides = {a for a, _ in ANTONYMS}
    for mine in set(_keys(claim)) - said:
        for other in said_plainly - own:
            if (mine, other) not in ANTONYMS:
                continue
            # the evidence says the claim's side in other words too ("raise" for the claim's
            # "increasing", beside "reducing the purchasing power"): no contrast
            if not any((k, other) in ANTONYMS for k in said & sides if k != other):
                return True
    return False


_REVERSERS = frozenset({"less", "not", "n't", "never", "no", "nor"})
_REVERSED_SPAN = 4
_DIRECTION_SUFFIXES = ("wards", "ward", "erly", "ern")
_COMPASS = frozenset({"north", "south", "east", "west"})  # not "afterwards" -> "after"


def _keys(words: Sequence[str], plain: bool = True) -> list[str]:
    """The stems of ``words`` for the antonym check; "westward" and "easterly" read as
    "west" and "east". ``plain``: leaving out words that a "less", "not" or "never" up to
    ``_REVERSED_SPAN`` words before turns around ("less than half as strong" says weaker,
    not strong): such a word is said, but its opposite is not denied by it."""
    keys: list[str] = []
    reversed_until = -1
    for i, word in enumerate(words):
        if word in _REVERSERS:
            reversed_until = i + _REVERSED_SPAN
            continue
        if plain and i <= reversed_until:
            continue
        for suffix in _DIRECTION_SUFFIXES:
            if word.endswith(suffix) and word[: -len(suffix)] in _COMPASS:
                word = word[: -len(suffix)]
                break
        keys.append(stem(word))
    return keys
