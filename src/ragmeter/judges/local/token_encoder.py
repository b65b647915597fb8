"""Contextual word vectors from MiniLM: one vector per word of a sentence, cached by text.

Why words in context and not words alone: MiniLM encoding a bare word puts synonyms
("cease"/"stop" 0.59) no closer than co-hyponyms ("engineer"/"architect" 0.61) or antonyms
("increase"/"decrease" 0.61), and the model's static input table is weaker still
("refund"/"money" 0.17). A word's last-layer vector inside its sentence carries the sense
the sentence gives it, which is what a paraphrase keeps ("100,000 soldiers" beside
"100,000 men" in a sentence about an army). The same forward pass, run through the whole
sentence-transformers stack (transformer, mean pooling, normalisation), gives the sentence's
own embedding, the row ``SentenceTransformer.encode`` returns (measured on 394 HaluEval
texts: equal to 3e-8): so the local judge's sentence encoder (``verifier.SentenceEncoder``)
takes its rows from here, and a text read both ways (a claim that is also an answer
clause, a premise sentence that is also a chunk) runs through MiniLM once. Measured in
bench_local.py's 400 samples: 197 of the 503 texts read for word vectors were also encoded
as sentences in a second pass.

Words are the tokenizer's own word groups (its pre-tokenizer splits on spaces and
punctuation; a word's vector is the mean of its word pieces). Texts recur across the claims
of a sample and across metrics, so encodings are kept in an LRU cache and each call runs
only the texts it has not seen, in batches of similar token length (``length_batches``:
measured in bench_local.py's 400 samples, fixed batches of 32 ran 40,667 tokens for 19,515
real ones, cut by length 21,549).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ragmeter.embedders.length_batches import length_batches
from ragmeter.text import caches
from ragmeter.text.nlp import LocalModelUnavailable


@dataclass(frozen=True)
class WordVectors:
    """One text, encoded: its words (lowercased), one unit vector per word (float16 rows),
    the text's own unit embedding (``pooled``, float32: the model's mean pooling and
    normalisation) and whether all of the text was read (``whole``: it fitted in
    ``max_tokens``; a cut text's ``pooled`` is not the sentence-transformers row, which reads
    up to the model's own, longer limit)."""

    words: tuple[str, ...]
    vectors: np.ndarray
    pooled: np.ndarray
    whole: bool = True


class TokenEncoder:
    """Words-in-context vectors from the shared MiniLM (``load_model``), cached by text.

    ``max_tokens`` truncates long texts (a claim or a premise sentence rarely exceeds it;
    words past it are simply absent, so they find no counterpart). Word vectors are kept as
    float16 (a 25-word sentence: 19 KB), so the default cache of 5,000 texts stays under
    about 100 MB; cosines move by less than 0.001.
    """

    def __init__(self, model: str | None = None, batch_size: int = 32, max_tokens: int = 128,
                 cache_size: int = 5_000, threads: int | None = None) -> None:
        self.model_name = model
        self.batch_size = batch_size
        self.max_tokens = max_tokens
        self.cache_size = cache_size
        self.threads = threads
        """torch's intra-op threads for the forward passes (None: torch's own setting)."""
        self._cache: OrderedDict[str, WordVectors] = OrderedDict()
        self._lock = threading.Lock()
        self._model: Any = None
        caches.track(self)

    def clear_cache(self) -> None:
        """Forget every cached text (``caches.clear_caches`` calls this on every encoder)."""
        with self._lock:
            self._cache.clear()

    def _load(self):
        if self._model is None:
            from ragmeter.embedders.sentence_transformer import load_model
            from ragmeter.errors import EmbedderError

            try:
                self._model = load_model(self.model_name)
            except EmbedderError as exc:
                raise LocalModelUnavailable(str(exc)) from exc
        return self._model

    def fits(self, texts: Sequence[str]) -> list[bool]:
        """Whether each text's encoding is ``whole``: under ``max_tokens`` tokens, special
        tokens included (a text of exactly ``max_tokens`` may have been cut, so it does not
        count). A cached text answers from its encoding."""
        with self._lock:
            known = {t: self._cache[t].whole for t in texts if t in self._cache}
        todo = list(dict.fromkeys(t for t in texts if t not in known))
        if todo:
            ids = self._load().tokenizer(todo, truncation=True, max_length=self.max_tokens)
            known.update((t, len(row) < self.max_tokens) for t, row in zip(todo, ids["input_ids"]))
        return [known[t] for t in texts]

    def encode(self, texts: Sequence[str]) -> list[WordVectors]:
        """The encoding of each text (a blank text has no words and a zero vector)."""
        with self._lock:
            found = {t: self._cache[t] for t in texts if t in self._cache}
            todo = list(dict.fromkeys(t for t in texts if t not in found))
            if todo:
                lengths = [len(ids) for ids in self._load().tokenizer(
                    todo, truncation=True, max_length=self.max_tokens)["input_ids"]]
                for batch in length_batches(lengths, self.batch_size):
                    chunk = [todo[i] for i in batch]
                    found.update(zip(chunk, self._forward(chunk)))
            for text in texts:
                self._cache[text] = found[text]
                self._cache.move_to_end(text)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return [found[t] for t in texts]

    def _forward(self, texts: list[str]) -> list[WordVectors]:
        import torch

        from ragmeter.embedders.sentence_transformer import forward_pass

        tokenizer = self._load().tokenizer
        batch = tokenizer(texts, padding=True, truncation=True, max_length=self.max_tokens,
                          return_tensors="pt", return_offsets_mapping=True)
        offsets = batch.pop("offset_mapping")
        with forward_pass(self.model_name, threads=self.threads) as model, torch.inference_mode():
            # the whole stack: token states and the model's own pooled, normalised row
            features = model.forward(dict(batch))
            hidden = features["token_embeddings"].float().numpy()
            rows = features["sentence_embedding"].float().numpy()
        mask = batch["attention_mask"].numpy()
        out: list[WordVectors] = []
        for row, text in enumerate(texts):
            ids = batch.word_ids(row)
            n = int(mask[row].sum())
            states = hidden[row, :n]
            pooled = rows[row] if text.strip() else np.zeros_like(rows[row])
            words: list[str] = []
            vectors: list[np.ndarray] = []
            current, pieces, span = None, [], [0, 0]
            for k in range(n + 1):
                wid = ids[k] if k < n else None
                if wid != current and current is not None:
                    v = states[pieces].mean(axis=0)
                    words.append(text[span[0]:span[1]].casefold())
                    vectors.append(v / (np.linalg.norm(v) or 1.0))
                    pieces = []
                if wid is not None:
                    if wid != current:
                        span = [int(offsets[row, k, 0]), int(offsets[row, k, 1])]
                    span[1] = int(offsets[row, k, 1])
                    pieces.append(k)
                current = wid
            matrix = (np.vstack(vectors).astype(np.float16) if vectors
                      else np.zeros((0, hidden.shape[-1]), dtype=np.float16))
            out.append(WordVectors(tuple(words), matrix, pooled.astype(np.float32),
                                   whole=n < self.max_tokens))
        return out


_DEFAULT: TokenEncoder | None = None
_DEFAULT_LOCK = threading.Lock()


def default_token_encoder() -> TokenEncoder:
    """The token encoder the local verifier shares by default (one cache per process)."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            _DEFAULT = TokenEncoder()
        return _DEFAULT
