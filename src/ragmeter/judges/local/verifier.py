"""Claim verifiers: (premise, claim) -> probability that the premise supports the claim.

No natural-language-inference model ships on PyPI, so the default verifier is ours:
``AlignmentVerifier`` finds the premise sentence that best matches the claim and checks that
what the claim asserts is there, together (its key terms and their pairings, entities,
numbers, dates, negations), by its words and, where they differ, by their meaning in context
(``support.SemanticMatcher``). Users who have an NLI
cross-encoder (HHEM, MiniCheck, DeBERTa-NLI) plug it in with ``get_verifier("nli:NAME_OR_PATH")``
(``cross_encoder.CrossEncoderVerifier``, re-exported here; its options: ``verifier_spec``).

``SentenceEncoder`` (cached MiniLM rows) lives here too, shared with ``relevance``.

Verifiers are synchronous and batched: the judge calls ``support`` with every pair of a
sample (or of many samples) at once, from a worker thread.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Iterable, Protocol, Sequence, runtime_checkable

import numpy as np

from ragmeter.extras import require
from ragmeter.text import caches, nlp, quantities
from ragmeter.text.nlp import Analysis, LocalModelUnavailable, Sentence
from ragmeter.text.normalise import same_word as _same_word
from ragmeter.judges.local.alignment import Alignment
from ragmeter.judges.local.cross_encoder import CrossEncoderVerifier
from ragmeter.judges.local.families import enabled
from ragmeter.judges.local.verifier_spec import NLISpec, parse_verifier_spec
from ragmeter.judges.local.comparisons import comparison, ordering_first
from ragmeter.judges.local.support import Candidates, SemanticMatcher, stem
from ragmeter.text import syntax
from ragmeter.judges.local.polarity import polarity_conflict
from ragmeter.judges.local.roles import frames, role_agreement
from ragmeter.judges.local.support_head import DEFAULT_HEAD, SupportHead, features
from ragmeter.judges.local.token_encoder import TokenEncoder, default_token_encoder
from ragmeter.errors import InvalidOptionType

@runtime_checkable
class Verifier(Protocol):
    """Scores whether premises support claims."""

    name: str

    def support(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """For each (premise, claim): probability in [0, 1] that the premise supports it."""
        ...


# --- sentence embeddings (shared with relevance) ------------------------------------------


class SentenceEncoder:
    """MiniLM sentence embeddings for the local judges, synchronous and cached by text.

    Shares the process-wide model (loaded once, also used by the local embedder), its lock
    (one forward pass at a time) and its thread setting. Texts recur across the claims of a
    sample and across metrics, so rows are kept in an LRU cache and each call encodes only
    the texts it has not seen, in one batched call, longest first (less padding).

    The rows come from the word encoder's forward pass (``tokens``, a ``TokenEncoder`` of the
    same model): that pass yields the sentence-transformers row too, and the verifier reads
    many of the same texts for their word vectors (claims that are answer clauses, premise
    sentences that are chunks), which then cost no second pass. A text too long for the word
    encoder's window goes through ``SentenceTransformerEmbedder``'s blocking path (the
    model's own, longer window).
    """

    def __init__(self, model: str | None = None, threads: int | None = None,
                 batch_size: int = 32, cache_size: int = 20_000,
                 tokens: TokenEncoder | None = None) -> None:
        from ragmeter.embedders.sentence_transformer import SentenceTransformerEmbedder

        self.model = model
        self.cache_size = cache_size
        self._embedder = SentenceTransformerEmbedder(model, threads=threads,
                                                     batch_size=batch_size, micro_batch=False)
        if tokens is not None and tokens.model_name != model:
            # internal: the local judge builds the pair from one model name; a bug if hit
            raise ValueError(f"the word encoder reads {tokens.model_name!r}, not {model!r}")
        self._tokens = tokens if tokens is not None else (
            default_token_encoder() if model is None else TokenEncoder(model))
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        caches.track(self)

    def clear_cache(self) -> None:
        """Forget every cached row (``caches.clear_caches`` calls this on every encoder)."""
        with self._lock:
            self._cache.clear()

    @property
    def tokens(self) -> TokenEncoder:
        """The word encoder whose forward pass gives this encoder's rows: a text encoded here
        (and short enough for its window) has its words-in-context vectors cached there."""
        return self._tokens

    @property
    def threads(self) -> int | None:
        """torch's CPU threads for this encoder's forward passes (None: torch's default)."""
        return self._embedder.threads

    @threads.setter
    def threads(self, threads: int | None) -> None:
        self._embedder.threads = threads
        self._tokens.threads = threads

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit rows, one per text (a blank text gets a zero row)."""
        from ragmeter.errors import EmbedderError

        with self._lock:
            rows = {t: self._cache[t] for t in texts if t in self._cache}
            todo = sorted({t for t in texts if t.strip() and t not in rows}, key=len,
                          reverse=True)
            if todo:
                whole = [t for t, fits in zip(todo, self._tokens.fits(todo)) if fits]
                rows.update((t, e.pooled) for t, e in zip(whole, self._tokens.encode(whole)))
                longer = [t for t in todo if t not in rows]
                if longer:
                    try:
                        fresh = self._embedder._encode_blocking(longer)
                    except EmbedderError as exc:
                        raise LocalModelUnavailable(str(exc)) from exc
                    rows.update(zip(longer, fresh))
            for text, row in rows.items():
                self._cache[text] = row
                self._cache.move_to_end(text)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        dim = next(iter(rows.values())).shape[0] if rows else self._embedder.dim
        out = np.zeros((len(texts), dim), dtype=np.float32)
        for i, text in enumerate(texts):
            if text in rows:
                out[i] = rows[text]
        return out


_DEFAULT_ENCODER: SentenceEncoder | None = None


def default_encoder() -> SentenceEncoder:
    """The encoder the local judges share by default (one cache per process)."""
    global _DEFAULT_ENCODER
    if _DEFAULT_ENCODER is None:
        _DEFAULT_ENCODER = SentenceEncoder()
    return _DEFAULT_ENCODER


# --- lexical matching --------------------------------------------------------------------


class _Lexicon:
    """The words and lemmas of some premise sentences, for fuzzy look-up (``_same_word``)."""

    def __init__(self, sentences: Sequence[Sentence]) -> None:
        self.sentences = tuple(sentences)
        self.words: set[str] = set()
        self._sentence_words = [s.words for s in sentences]
        for s in sentences:
            self.words.update(s.words)
            self.words.update(s.content)
        self._by_prefix: dict[str, list[str]] = {}
        for w in self.words:
            if len(w) >= 4:
                self._by_prefix.setdefault(w[:4], []).append(w)
        self.text = " " + " ".join(nlp.normalise_text(s.text) for s in sentences) + " "
        self.raw = " ".join(s.text for s in sentences)
        self.values: set[str] = set()
        self.date_parts: set[str] = set()
        for s in sentences:
            self.values.update(s.numbers)
            for d in s.dates:
                self.date_parts.update(str(int(part)) for part in d.split("-") if part)
        self.values.update(self.date_parts)

    def has(self, word: str) -> bool:
        if word in self.words:
            return True
        if len(word) < 4:
            return False
        return any(_same_word(word, other) for other in self._by_prefix.get(word[:4], ()))

    def entity(self, norm: str) -> float:
        """1 if the entity occurs as a phrase (its words in a row, each matched as by
        ``_same_word``: "Germany" is found in "German-born"); else half the rarity-weighted
        share of its words found anywhere ("Denver Avalanche", where the premise names Denver
        and the Colorado Avalanche, gets 0.5, not 1: the words are there, the name is not)."""
        if f" {norm} " in self.text:
            return 1.0
        words = norm.split()
        if not words:
            return 1.0
        n = len(words)
        for sentence in self._sentence_words:
            for start in range(len(sentence) - n + 1):
                if all(_same_word(w, sentence[start + k]) for k, w in enumerate(words)):
                    return 1.0
        weights = [nlp.word_weight(w) for w in words]
        found = sum(wt for w, wt in zip(words, weights) if self.has(w))
        return 0.5 * found / sum(weights)


def _coverage(words: Sequence[str], lexicon: _Lexicon) -> float:
    """Rarity-weighted share of ``words`` found in ``lexicon`` (1 when there are none)."""
    unique = list(dict.fromkeys(words))
    if not unique:
        return 1.0
    weights = [nlp.word_weight(w) for w in unique]
    found = sum(wt for w, wt in zip(unique, weights) if lexicon.has(w))
    return found / sum(weights)


_PAIR_WINDOW = 5
"""Two claim words that are neighbours must lie within this many content words of each
other in one premise sentence (either order) for the pair to count as stated."""


def _pair_coverage(content: Sequence[str], premise: Sequence[Sentence]) -> float:
    """Rarity-weighted share of the claim's neighbouring content-word pairs that the premise
    states close together, in one sentence, in either order.

    This is what catches recombination, the commonest fabrication: "Thomas Talbot, 21st Earl
    of Arundel" or "Every Poisonous Thorn Has a Rose" use only words of the passage, but not
    together. Working on content lemmas with a window (not on exact bigrams) keeps a
    paraphrase that reorders words ("Hong Kong's stock exchange") from being punished.
    Each pair weighs its rarer word's ``word_weight``.
    """
    pairs = list(dict.fromkeys(zip(content, content[1:])))
    if not pairs:
        return 1.0
    found = total = 0.0
    for a, b in pairs:
        weight = max(nlp.word_weight(a), nlp.word_weight(b))
        total += weight
        for sentence in premise:
            words = sentence.content
            pos_a = [i for i, w in enumerate(words) if _same_word(a, w)]
            if not pos_a:
                continue
            pos_b = [j for j, w in enumerate(words) if _same_word(b, w)]
            if any(abs(i - j) <= _PAIR_WINDOW for i in pos_a for j in pos_b):
                found += weight
                break
    return found / total


# --- the alignment verifier --------------------------------------------------------------


class AlignmentVerifier:
    """Default verifier: is what the claim asserts present, together, in the premise?

    For each (premise, claim):

    1. **Premise preparation.** The premise's sentences as the text toolkit parses them.
       (Reading a sentence that opens with a pronoun with the subject of the sentence
       before, and holding a claim's names and figures to its own evidence sentence, were
       deleted on 2026-11-27: switched off on blind data, neither moved a figure the right
       way; the ablation table is in bench/HISTORY.md.)
    2. **Evidence.** The premise sentence, or pair of neighbouring sentences, that covers
       most of the claim's content words (rarity-weighted) is the evidence; word pairs may
       also be stated across two neighbouring sentences. Why pairs of sentences: a
       paraphrasing answer sums up in one claim what a passage says over two ("the oxygen is
       released ...; the sugar is built in the Calvin cycle"); with single sentences only,
       such faithful claims scored 0.0-0.3 on the bundled demo data (0.3-0.8 with pairs), at
       a cost of about 0.01 AUROC on HaluEval QA dev (all 8,000 questions: 0.976 -> 0.967
       overall, 0.946 -> 0.938 length-matched). With ``embeddings=True`` the choice is ``0.5 *
       lexical coverage + 0.5 * MiniLM cosine`` over single sentences instead.
    3. **Signals**, each in [0, 1], see ``Alignment``: content coverage, word pairs,
       entities, numbers and dates, negation (scoped: ``_negation_agrees``).
    4. **Combination: the learned head** (``support_head``, the default). A logistic
       regression over the signals, with non-negative weights (agreeing never counts
       against support), its weights a few hundred bytes of JSON beside the module, trained
       by ``bench/train_support_head.py`` on the 1,100 development (premise, claim) pairs
       written by hand (paraphrased positives; negatives of every kind below, as
       paraphrased as the positives; 240 of them written blind and retired) and 2,954 weak
       FactCC-style pairs (sentences of HaluEval passages as
       positives, the same with a number, date, name or role swapped, a negation or an
       antonym as negatives), each source weighted equally; never on the evaluation sets.
       Besides the signals of step 3 it reads the meaning signals of step 5, the role
       check (``roles``: who did what to whom, and the polarity of the same statement).
       Measured (refitted 2026-11-27 without ``anchored``): cross-validated by premise, AUROC
       0.877 against 0.807 for the hand formula below; before that refit, on the RAG development set (claims of faithful
       answers against claims of wholly wrong variants) 0.738 against 0.691.

       **The hand formula** (``learned=False``, and the ``"lexical"`` verifier), a logistic
       in "penalty" form with hand-set round weights:

           z = 3 - 8 (1 - coverage) - 8 (1 - pairs) - 4 (1 - entities)
                 - 5 (1 - values) - 5 (1 - negation) [+ 4 (similarity - 0.5)]
           support = 1 / (1 + exp(-z))

       A claim that aligns fully gets 0.95. One wrong number or date, or a negation the
       evidence does not share, costs 5 (support 0.12). A content word the premise lacks
       costs twice, through coverage and through the pairs it belongs to: one of three key
       words missing typically leaves 0.02-0.3. The weights were set by hand to these
       meanings, then checked, not fitted, on the HaluEval QA development set.

    5. **Meaning** (``semantic=True``, the default; ``get_verifier("lexical")`` turns it
       off). A claim whose words are not all found together is read again by meaning
       (``support.SemanticMatcher``): its content words look for counterparts among the
       words of its ``CANDIDATES`` best premise sentences, as MiniLM vectors in context, so
       "trees cease making chlorophyll" finds "stop producing"; an antonym in place of a
       claim word breaks support. The head weighs these signals itself; the hand formula
       raises its lexical coverage and pairs toward them in proportion to
       ``Alignment.trust``. Measured, ``judge="local"``, on the project's RAG development
       set (82 questions, paraphrasing answers; careful reader 0.998 / 0.227 / 1.0): mean
       faithfulness of the faithful answers / of the unfaithful variants / context recall
       of paraphrased ground truths 0.510 / 0.275 / 0.401 with the earlier hand-tuned
       reading, 0.674 / 0.347 / 0.540 with the head; HaluEval QA dev length-matched AUROC
       0.929. Cost: one encoder pass per claim and candidate sentence not seen before
       (cached), one parse per claim and per premise sentence that shares a word with a
       claim's arguments.

    What it cannot do: tell a synonym from a co-hyponym in the same slot ("an architect"
    for "an engineer" finds a counterpart; "the Finance Director approves every claim" where
    the line manager does: common nouns in a role are never held against a claim), see who
    did what to whom where the parse gives no role ("basil keeps best in the refrigerator"
    where the passage says it blackens there and keeps best at room temperature; "the
    collapse set off the quake" where the quake triggered the landslide), tell which figure
    goes with what ("50 pounds for every weekday night" where the passage pays 50 pounds for
    a Saturday), or weigh a claim's gist against its details. The role check reads
    subjects and objects, "to" clauses, appositions and "with"/"against"/receiver fillers
    (``roles``). A cascade to an LLM judge,
    or an NLI model (``CrossEncoderVerifier``), covers them.

    Embeddings are off by default. On HaluEval, MiniLM similarity between a claim and its
    evidence is confounded with claim length (short right answers are dissimilar to whole
    sentences: similarity alone has AUROC below 0.5). With ``embeddings=True``, on all
    8,000 questions, the length-matched AUROC moved from 0.946 to 0.950 but the overall one
    fell from 0.976 to 0.956, and judge-shaped samples ran 2.5 times slower (27.7 -> 10.8
    samples/s: every premise sentence is encoded, about 100 sentences/s on 2 cores, against
    about 4,000 pairs/s for the lexical checks once spaCy has read the premise).

    Deterministic: the same (premise, claim) gets the same score, whatever else is in the
    batch. Claims are scored independently: text in one claim (or an instruction injected
    into it) cannot change another claim's score.
    """

    name = "alignment"

    Z_ALIGNED = 3.0
    W_COVERAGE = 8.0
    W_PAIRS = 8.0
    W_ENTITIES = 4.0
    W_VALUES = 5.0
    W_NEGATION = 5.0
    W_SIMILARITY = 4.0

    CANDIDATES = 3
    """Premise sentences (best lexical coverage first) read by meaning for one claim."""

    MIN_COVERAGE = 0.25
    """Below this lexical coverage a claim has too little in common with the premise for a
    paraphrase to be likely; it is not read by meaning (which costs an encoder pass)."""

    def __init__(self, embeddings: bool = False, encoder: SentenceEncoder | None = None,
                 semantic: bool = True, matcher: SemanticMatcher | None = None,
                 head: SupportHead | None = None, learned: bool = True) -> None:
        self.embeddings = embeddings
        self._encoder = encoder
        self.semantic = semantic
        self.matcher = matcher or SemanticMatcher()
        # the head was trained on the meaning reading's signals: without it, the hand formula
        self.head = (head or DEFAULT_HEAD) if (semantic and learned) else None
        if not semantic:
            self.name = "lexical"
        # premises recur across calls (the contexts behind faithfulness and context recall,
        # each chunk for context precision): their look-up tables are built once per analysis
        self._premises: OrderedDict[str, _Premise] = OrderedDict()
        self._premises_lock = threading.Lock()
        caches.track(self)

    PREMISE_CACHE_SIZE = 2_000
    """Prepared premises kept (least recently used dropped)."""

    def clear_cache(self) -> None:
        """Forget every prepared premise (``caches.clear_caches`` calls this)."""
        with self._premises_lock:
            self._premises.clear()

    def _prepare(self, analysis: Analysis) -> "_Premise":
        """The premise's look-up tables, from the cache when built from this very analysis
        (a premise analysed anew, with or without entities, is prepared anew)."""
        with self._premises_lock:
            hit = self._premises.get(analysis.text)
            if hit is not None and hit.analysis is analysis:
                self._premises.move_to_end(analysis.text)
                return hit
        prepared = _Premise(analysis)
        with self._premises_lock:
            self._premises[analysis.text] = prepared
            self._premises.move_to_end(analysis.text)
            while len(self._premises) > self.PREMISE_CACHE_SIZE:
                self._premises.popitem(last=False)
        return prepared

    @property
    def encoder(self) -> SentenceEncoder:
        if self._encoder is None:
            self._encoder = default_encoder()
        return self._encoder

    def support(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        return [self.probability(a) for a in self.align(pairs)]

    def probability(self, a: Alignment) -> float:
        """Support for one alignment: the learned head (``support_head``) when this verifier
        has one, else the hand-set formula of the class docstring."""
        if self.head is not None and a.coverage >= self.MIN_COVERAGE and enabled("support_head"):
            return self.head.probability(features(a))
        # a claim sharing under a quarter of its content with the premise is about something
        # else: the head was trained on claims about their premise (it gave a claim with no
        # word in common 0.24); the hand formula scores such a claim near 0, as it should
        return self.hand_probability(a)

    @classmethod
    def hand_probability(cls, a: Alignment) -> float:
        """The logistic combination of the class docstring."""
        z = (cls.Z_ALIGNED - cls.W_COVERAGE * (1 - a.meaning_coverage)
             - cls.W_PAIRS * (1 - a.meaning_pairs)
             - cls.W_ENTITIES * (1 - a.entities) - cls.W_VALUES * (1 - a.values)
             - cls.W_NEGATION * (1 - a.agrees))
        if a.similarity is not None:
            z += cls.W_SIMILARITY * (a.similarity - 0.5)
        return 1.0 / (1.0 + math.exp(-z))

    @staticmethod
    def share(a: Alignment) -> float:
        """How much of the claim the premise states, softly: for "is this chunk useful for
        arriving at this reference?", where part of the reference is enough.

            share = (0.6 coverage + 0.4 pairs) x values x entities x negation

        Unlike ``probability`` a chunk that states most of a long, paraphrased reference
        sentence scores in proportion (a strict support score is near 0 for it), while a
        wrong number, a missing name or a flipped negation still cancels it. Measured:
        answer-bearing chunks against distractors on HaluEval QA dev (1,239 chunks, 600
        questions) AUROC 0.958 (strict support 0.960), accuracy at 0.5 the same (0.960);
        on the bundled demo data, whose references paraphrase, the chunk that holds the
        answer scores 0.5-1.0 where strict support gave 0.0-0.4.
        """
        return ((0.6 * a.meaning_coverage + 0.4 * a.meaning_pairs) * a.values * a.entities
                * a.agrees)

    def align(self, pairs: Sequence[tuple[str, str]]) -> list[Alignment]:
        """The signals for each pair (what ``support`` combines), for inspection."""
        if not pairs:
            return []
        premises = list(dict.fromkeys(p for p, _ in pairs))
        claims = list(dict.fromkeys(c for _, c in pairs))
        analyses = dict(zip(premises, nlp.analyse(premises, entities=False)))
        analyses.update(zip(claims, nlp.analyse(claims)))
        vectors: dict[str, np.ndarray] = {}
        if self.embeddings:
            sentence_texts = list(dict.fromkeys(
                s.text for p in premises for s in analyses[p].sentences))
            rows = self.encoder.encode(sentence_texts + claims)
            vectors = dict(zip(sentence_texts + claims, rows))
        prepared = {p: self._prepare(analyses[p]) for p in premises}
        out: list[Alignment] = []
        for premise, claim in pairs:
            sims = None
            if self.embeddings:
                sims = np.array([float(vectors[s.text] @ vectors[claim])
                                 for s in analyses[premise].sentences])
            out.append(_align(prepared[premise], analyses[claim], sims))
        # the premise sentences that best carry each claim: both readings below start there
        ranked = {(p, c): _ranked_sentences(prepared[p], analyses[c])
                  for (p, c), a in zip(pairs, out) if a.coverage >= self.MIN_COVERAGE}
        if self.semantic:
            out = self._read_by_meaning(pairs, prepared, ranked, out)
        if self.head is not None:
            out = self._read_roles(pairs, prepared, ranked, out)
        return out

    def _read_roles(self, pairs: Sequence[tuple[str, str]], prepared: dict[str, "_Premise"],
                    ranked: dict[tuple[str, str], list[int]],
                    lexical: list[Alignment]) -> list[Alignment]:
        """Adds the role check (``roles``) to the pairs that share enough with their premise.

        Only the learned head reads it (the hand formula predates it). The parser runs on
        the claims and, for each claim, on its ``CANDIDATES`` best premise sentences that
        name one of its arguments (the sentences that say what the claim says, where a
        swapped role or a denial would be; a sentence sharing no argument holds no frame to
        agree or conflict with), each text once (``syntax.parse`` caches). Measured: parsing
        every sentence that names an argument instead cost a quarter of the verifier's time
        on HaluEval-shaped samples.
        """
        todo = [n for n, a in enumerate(lexical) if a.coverage >= self.MIN_COVERAGE]
        if not todo:
            return lexical
        claims = list(dict.fromkeys(pairs[n][1] for n in todo))
        claim_frames = dict(zip(claims, map(frames, syntax.parse(claims, entities=False))))
        wanted: dict[str, list[str]] = {}
        for n in todo:
            premise, claim = pairs[n]
            # by stem: "rings" names what a sentence's "Each ring bends the light" does
            words = {stem(w) for f in claim_frames[claim] for arg in (f.agent, f.patient) if arg
                     for m in arg.members() for w in m.words}
            # a title's own word: "Its Managing Director is Priya Raman" names no argument
            # of "The Managing Director of FoodFutureCo is Shen Tong" but holds its title
            words |= {stem(f.verb) for f in claim_frames[claim] if f.title}
            if not words:
                continue
            sentences = wanted.setdefault(premise, [])
            p = prepared[premise]
            for i in ranked[premise, claim][: self.CANDIDATES]:
                sentence = p.sentences[i]
                if sentence.text not in sentences and words & {stem(w) for w in sentence.words}:
                    sentences.append(sentence.text)
        texts = list(dict.fromkeys(t for ts in wanted.values() for t in ts))
        sentence_frames = dict(zip(texts, map(frames, syntax.parse(texts, entities=False))))
        out = list(lexical)
        for n in todo:
            premise, claim = pairs[n]
            if claim_frames[claim] and premise in wanted:
                found = [f for t in wanted[premise] for f in sentence_frames[t]]
                out[n] = replace(out[n], roles=role_agreement(
                    claim_frames[claim], found, prepared[premise].whole.words))
        return out

    def _read_by_meaning(self, pairs: Sequence[tuple[str, str]], prepared: dict[str, "_Premise"],
                         ranked: dict[tuple[str, str], list[int]],
                         lexical: list[Alignment]) -> list[Alignment]:
        """Adds the semantic reading (``support.SemanticMatcher``) to the pairs that need it.

        Not needed, so not computed (most of the cost is encoding sentences): when the claim's
        words are all found together already (measured: reading those too against their best
        sentence raised the head's cross-validated AUROC from 0.881 to 0.895 but made the
        verifier three times slower on HaluEval-shaped samples, whose right answers are
        mostly extractive); when the claim shares almost nothing with the premise. For the
        hand formula also when a symbolic check has broken support (a wrong number or date, a
        flipped negation, a name the premise does not state), which it lets no paraphrase
        repair. The learned head weighs those against the meaning signals (a paraphrase
        restates numbers and negations too: "no more than five" for "up to five"), so they
        are read: a claim with a figure the premise lacks in any form too (measured, leaving
        those unread took context recall of paraphrased ground truths on the RAG
        development set from 0.54 to 0.50 for a tenth more speed), a claim naming something
        the premise lacks against its best sentence only (leaving those unread took the
        head's cross-validated AUROC from 0.908 to 0.879).
        """
        if not enabled("meaning"):
            return lexical
        jobs: list[tuple[int, Candidates]] = []
        for n, ((premise, claim), a) in enumerate(zip(pairs, lexical)):
            if a.coverage < self.MIN_COVERAGE or a.found_together or (self.head is None and (
                    a.values < 1 or a.negation < 1 or a.entities < 0.999)):
                continue
            p = prepared[premise]
            best = ranked[premise, claim][: self.CANDIDATES if a.entities >= 0.999 else 1]
            if not best:
                continue
            chosen = sorted(best)
            jobs.append((n, Candidates(
                claim=claim,
                sentences=tuple(p.sentences[i].text for i in chosen),
                positions=tuple(chosen),
                vocabulary=p.vocabulary)))
        if not jobs:
            return lexical
        out = list(lexical)
        for (n, _), match in zip(jobs, self.matcher.match([j for _, j in jobs])):
            out[n] = replace(out[n], semantic=match)
        return out


class _Premise:
    """A premise's analysis with its look-up tables, built once per ``align`` call."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.sentences = tuple(analysis.sentences)
        self.whole = _Lexicon(analysis.sentences)
        self.each = [_Lexicon([s]) for s in self.sentences]
        # two neighbouring sentences read as one: a claim often sums up what a passage says
        # over two sentences ("X releases oxygen ... . It then assembles glucose")
        joined = [replace(a, content=a.content + b.content, words=a.words + b.words)
                  for a, b in zip(self.sentences, self.sentences[1:])]
        self.windows = list(self.sentences) + joined
        self.each_window = self.each + [_Lexicon([a, b]) for a, b in
                                        zip(self.sentences, self.sentences[1:])]
        self.vocabulary = frozenset(self.whole.words)


def _ranked_sentences(premise: _Premise, claim: Analysis) -> list[int]:
    """Premise sentence indices, most of the claim's content words (rarity-weighted) first,
    equal ones in premise order; only sentences that state at least a quarter of what the
    best one states of the claim (and something).

    Why the floor: every candidate costs an encoder pass, and a sentence sharing almost no
    word with the claim was never the evidence of a faithful claim on the RAG development
    set (a paraphrase keeps the names and key nouns and rewords the rest). With the floor,
    the full offline suite (bench_local.py) went from 11.5 to 15.7 samples/s (back to back,
    same load), the RAG
    development set's figures and HaluEval's length-matched AUROC unchanged.
    """
    scores = [_coverage(claim.content, lex) for lex in premise.each]
    top = max(scores, default=0.0)
    keep = [i for i in range(len(scores)) if scores[i] > 0 and scores[i] >= 0.25 * top]
    return sorted(keep, key=lambda i: (-scores[i], i))


def _align(premise: _Premise, claim: Analysis, sims: np.ndarray | None) -> Alignment:
    if not premise.sentences or not claim.sentences:
        return Alignment(coverage=0.0, pairs=0.0, entities=0.0, values=0.0, negation=1.0,
                         similarity=0.0 if sims is not None else None)
    content = claim.content
    match = np.array([_coverage(content, lex) for lex in premise.each])
    if sims is not None:
        match = 0.5 * match + 0.5 * np.clip(sims, 0.0, 1.0)
    best = int(np.argmax(match))  # first of equals: deterministic
    evidence = premise.each[best]
    if sims is None:
        # two neighbouring sentences as evidence when together they cover more of the claim
        spans = [_coverage(content, lex) for lex in premise.each_window]
        widest = int(np.argmax(spans))
        if spans[widest] > match[best]:
            evidence = premise.each_window[widest]
    unique = list(dict.fromkeys(content))
    if unique:
        weights = [nlp.word_weight(w) for w in unique]
        credit = [1.0 if evidence.has(w) else 0.5 if premise.whole.has(w) else 0.0
                  for w in unique]
        coverage = sum(c * w for c, w in zip(credit, weights)) / sum(weights)
    else:
        coverage = 1.0
    ents = [e for e in claim.entities if e.is_name]  # values are checked by _values
    entities = sum(premise.whole.entity(e.norm) for e in ents) / len(ents) if ents else 1.0
    negation = _negation_agrees(claim, premise.sentences[best])
    if negation == 0.0 and not _denial_confirmed(claim.text, premise.sentences[best].text):
        negation = 1.0
    values = _values(claim, premise.analysis, evidence,
                     [lex for lex, m in zip(premise.each, match) if m >= RIVAL * match[best]])
    # "Hinder was formed earlier than Alice in Chains": the years the premise gives each
    # decide it, as a figure check (``comparisons``); its words supported it either way
    compared = comparison(claim.text, [s.text for s in premise.analysis.sentences])
    if compared is not None:
        values = min(values, compared)
    return Alignment(
        coverage=coverage,
        pairs=_pair_coverage(content, premise.windows),
        entities=entities,
        values=values,
        negation=negation,
        similarity=float(max(0.0, sims[best])) if sims is not None else None,
    )


_DENYING = frozenset("forbid ban prohibit lack fail refuse deny prevent exclude absent "
                     "unable impossible avoid block".split())
"""Lemmas that deny what follows them without a negation cue: "forbidden to have an air
force" says what "no air force" says, so a claim's "no" is not held against it; and the
other way round, "damage by airlines is excluded" and "avoid driving" say what "does not
cover damage by airlines" and "do not drive" say."""


def _negation_agrees(claim: Analysis, evidence: Sentence) -> float:
    """0 if the claim negates what its evidence asserts, or asserts what it negates; else 1.

    Scoped, not counted: a word is negated when it follows a negation cue closely
    (``Sentence.negated``). "Einstein was not a physicist" against "... was a physicist"
    disagrees (the claim negates "physicist", the evidence asserts it); so does "Cruz won
    the Super Bowl" against "Cruz never won the Super Bowl". A negation elsewhere in the
    evidence ("not far from Gloucester") does not touch a claim about something else, and
    a claim with nothing to negate (a bare "No") cannot disagree.

    A window of words cannot tell the denied word from its arguments, so ``_align`` keeps
    a 0 from here only when the parse confirms it (``_denial_confirmed``).
    """
    negated = set(w for s in claim.sentences for w in s.negated)
    asserted = set(claim.content) - negated
    ev_negated = set(evidence.negated)
    ev_asserted = set(evidence.content) - ev_negated

    def among(word: str, words: set[str]) -> bool:
        return any(_same_word(word, w) for w in words)

    denies = bool(_DENYING.intersection(evidence.content))
    claim_denies = bool(_DENYING.intersection(claim.content))
    for word in negated:
        if among(word, ev_asserted) and not among(word, ev_negated) and not denies:
            return 0.0
    for word in asserted:
        if among(word, ev_negated) and not among(word, ev_asserted) and not claim_denies:
            return 0.0
    return 1.0


def _denial_confirmed(claim: str, evidence: str) -> bool:
    """Whether the parse confirms what the word window of ``_negation_agrees`` found: the
    claim denies a predicate its evidence asserts about the same thing, or the other way
    round (``polarity.polarity_conflict``).

    The window cannot tell which word a cue denies, and took a shared argument for a denied
    predicate: measured on the RAG development set (claims of faithful answers labelled
    supported, the changed claim of each unfaithful variant unsupported), it vetoed 24
    faithful claims over the dev, heldout, fresh and fresh2 splits. Only the pairs the
    window vetoes are parsed (``syntax.parse``, cached by text).
    """
    claim_doc, evidence_doc = syntax.parse([claim, evidence], entities=False)
    return polarity_conflict(claim_doc, evidence_doc)


def _figures(claim: Analysis) -> list[str]:
    """The claim's numbers, once each, but for a numeral that stands for things already
    named ("when the two are aligned": ``quantities.referring_numbers``) and the "first"
    of "when they first reached" (``quantities.adverbial_first``) or of "formed first,
    before Hinder" (``comparisons.ordering_first``), which are no figures for the premise
    to state."""
    referring = set(quantities.referring_numbers(claim.text))
    if quantities.adverbial_first(claim.text) or ordering_first(claim.text):
        referring.add("1")
    return [n for n in dict.fromkeys(claim.numbers) if n not in referring]


def _claim_values(claim: Analysis) -> list[str]:
    """The claim's numbers and the year, month and day of its dates, as ``_Lexicon.values``
    holds a premise's."""
    values = _figures(claim)
    for d in claim.dates:
        values.extend(str(int(part)) for part in d.split("-") if part)
    return list(dict.fromkeys(values))


def _date_parts(claim: Analysis) -> set[str]:
    return {str(int(part)) for d in claim.dates for part in d.split("-") if part}


def _is_year(value: str) -> bool:
    return value.isdigit() and 1000 <= int(value) <= 2100


def value_kinds(value: str, text: str, date_parts: Iterable[str] = ()) -> frozenset[str]:
    """What kind of figure ``value`` is where ``text`` writes it: the kinds of the
    quantities that write it (``quantities``: a length, a year, a rank, a count, ...); a
    value no quantity reads is a year, a day or month of a date, or a count.

    Only figures of one kind can give each other the lie: "117 km" is not contradicted by
    "AD 122", nor "the first ships" by "ten years after" (both were, when any two numbers
    counted as rivals, and broke faithful claims of the RAG development set).
    """
    kinds = frozenset(q.kind for q in quantities.quantities(text) if value in q.sources)
    if kinds:
        return kinds
    if _is_year(value):
        return frozenset({"years"})
    return frozenset({"date" if value in date_parts else "count"})


RIVAL = 0.75
"""A premise sentence stating at least this share of what the claim's evidence sentence
states of the claim's words is as good a place for the claim's figures: a claim's date is
often in the sentence before the one holding most of its words ("On 9 November 1989 the
Wall fell. Crowds crossed the border that night...")."""


def contradicted_values(claim: Analysis, evidence: _Lexicon,
                        rivals: Sequence[_Lexicon] = ()) -> list[str]:
    """The claim's figures that its evidence gives otherwise: a claim value the evidence
    does not state (nor restate, ``quantities.restated``) while the evidence states another
    value of the same kind (``value_kinds``: a year for a year, a length for a length) that
    the claim lacks, and that no ``rivals`` (sentences as close to the claim as its
    evidence, ``RIVAL``) state either.

    The premise may state the claim's figure elsewhere, for something else: "the 1911
    physics prize" where the passage has "the 1903 Nobel Prize in Physics" and, two
    sentences on, "the 1911 prize in chemistry"; "open from 10 am to 8 pm on Saturdays"
    where 8 pm is the weekday closing time and Saturday's sentence says 5 pm. A figure that
    is merely absent from the evidence (a claim merging two sentences) is not held against
    the claim here; only one that its evidence contradicts.
    """
    mine = _claim_values(claim)
    others = [v for v in evidence.values if v not in mine]
    if not others:
        return []
    their_kinds = frozenset().union(*(value_kinds(o, evidence.raw, evidence.date_parts)
                                      for o in others))
    parts = _date_parts(claim)
    return [v for v in mine
            if v not in evidence.values and not quantities.restated(v, claim.text, evidence.raw)
            and value_kinds(v, claim.text, parts) & their_kinds
            and not any(v in rival.values for rival in rivals)]


def _with_years(dates: Sequence[str]) -> list[str]:
    """A premise's dates (``nlp.dates`` form, in text order), each date without a year
    ("--07-20", from "On 20 July") also read in the last year the premise names before it
    ("1969-07-20" after "16 July 1969" or "in 1969"), as a reader does.

    A passage gives the year once and then the day alone ("Apollo 11 was launched ... on 16
    July 1969. ... On 20 July, Armstrong and Aldrin descended"), often in the next chunk;
    a faithful claim that puts the two together ("landed on 20 July 1969") was held to
    state a date the premise does not. The date as written is kept too; the same day in
    another year still fails.
    """
    out = list(dates)
    year = ""
    for d in dates:
        if d.startswith("--"):
            if year:
                out.append(year + d[1:])
        elif d[:4].isdigit():
            year = d[:4]
    return list(dict.fromkeys(out))


def _values(claim: Analysis, premise: Analysis, evidence: _Lexicon | None = None,
            rivals: Sequence[_Lexicon] = ()) -> float:
    """Share of the claim's numbers and dates that the premise states, and that the claim's
    evidence does not give otherwise (``contradicted_values``).

    A number is stated if it equals one of the premise's numbers or a year, month or day of
    one of its dates; a date if some premise date states every field the claim's date does
    (``nlp.date_compatible``). Either is also stated when the premise gives the same
    quantity in another form (``quantities.restated``: "nine out of ten" for "90 percent",
    "nearly 3.5 km" for "3,490 metres", "the early 1500s" for "the early sixteenth
    century"): faithful answers restate figures, and the exact check alone broke them.
    Figures bounded the other way ("more than 30 days after" where the premise says
    "within 30 days": ``quantities.opposed_bounds``) are not stated.
    """
    if not enabled("quantities"):
        return 1.0
    numbers = set(premise.numbers)
    for d in premise.dates:
        numbers.update(str(int(part)) for part in d.split("-") if part)
    checks = [n in numbers or quantities.restated(n, claim.text, premise.text)
              for n in _figures(claim)]
    known = _with_years(premise.dates)
    checks += [any(nlp.date_compatible(d, k) for k in known)
               or quantities.restated(d, claim.text, premise.text)
               for d in dict.fromkeys(claim.dates)]
    if not checks:
        return 1.0
    stated = sum(checks) / len(checks)
    if evidence is not None and contradicted_values(claim, evidence, rivals):
        return 0.0
    if quantities.opposed_bounds(claim.text, premise.text):
        return 0.0
    return stated


# --- choosing one ------------------------------------------------------------------------

_VERIFIERS: dict[str, Verifier] = {}
_VERIFIERS_LOCK = threading.Lock()


def get_verifier(spec: str | Verifier | None = None) -> Verifier:
    """A verifier from its spec (``verifier_spec``): ``"alignment"`` (default: words and
    their meaning), ``"lexical"`` (the alignment verifier without the semantic reading:
    shared words only, no sentence encoding) or ``"nli:NAME_OR_PATH[?OPTION=VALUE&...]"``
    (a Hugging Face NLI cross-encoder; ``InvalidVerifierSpec`` for a bad option).

    Verifiers are cached by their canonical spec, so every metric of a run shares one (and
    its model). An object that already is a ``Verifier`` is returned as is.
    """
    if spec is not None and not isinstance(spec, str):
        if isinstance(spec, Verifier):
            return spec
        raise InvalidOptionType(f"not a verifier spec: {spec!r}")
    parsed = parse_verifier_spec(spec)
    key = parsed if isinstance(parsed, str) else parsed.text
    with _VERIFIERS_LOCK:
        verifier = _VERIFIERS.get(key)
        if verifier is not None:
            return verifier
        if parsed == "alignment":
            verifier = AlignmentVerifier()
        elif parsed == "lexical":
            verifier = AlignmentVerifier(semantic=False)
        else:
            assert isinstance(parsed, NLISpec)
            verifier = CrossEncoderVerifier.from_spec(parsed)
        _VERIFIERS[key] = verifier
        return verifier
