"""Calibrated probabilities for the local judge's verdicts: how often a verdict like this is right.

Why: the rules' raw scores are not probabilities. On HaluEval the verifier gave 0 or 1 to 97%
of answers and 15% of those were wrong, so a cascade that kept "sure" verdicts kept wrong
ones. A calibration maps a raw score to the share of verdicts with that score that a careful
reader labels "yes" on development data: isotonic regression (pooled adjacent violators, so
it is monotone and never reorders verdicts), each block's share smoothed towards 1/2 by one
pseudo-count either way (a block of 8 right verdicts is not proof of certainty), fitted by
``bench/calibrate.py`` and stored as knots in ``calibration.json`` beside this file.

Applied between knots by linear interpolation; outside them the end values hold:

    p(raw) = v_k + (raw - x_k) (v_{k+1} - v_k) / (x_{k+1} - x_k),  x_k <= raw <= x_{k+1}

A calibration belongs to the models it was fitted on: the file holds maps for the default
(alignment) verifier's support scores, the chunk relevance scorer and question coverage. An
NLI verifier's probabilities are its own (``calibrations("nli:...")`` is empty), and the
judgements without labelled data to fit on (sentence relevance, chunk usefulness, critiques)
have no map: the cascade treats what has no calibration as not sure.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Sequence

import numpy as np

from ragmeter.text import caches

CALIBRATION_FILE = Path(__file__).with_name("calibration.json")

SUPPORT = "support"
CHUNK_RELEVANCE = "chunk_relevance"
ADDRESSING = "addressing"
KINDS = (SUPPORT, CHUNK_RELEVANCE, ADDRESSING)
"""The judgement kinds a calibration exists for: claim support (answer claims against the
contexts, ground-truth sentences against the contexts, and claims against each other for
correctness), a chunk's relevance to the question, and whether an answer addresses it."""


@dataclass(frozen=True)
class Calibration:
    """One judgement kind's map from raw score to probability of "yes"."""

    kind: str
    knots: tuple[float, ...]
    values: tuple[float, ...]
    data: str = ""

    def __post_init__(self) -> None:
        if len(self.knots) != len(self.values) or not self.knots:
            # internal: the maps ship with ragmeter (bench/calibrate.py writes them); a bug if hit
            raise ValueError(f"calibration {self.kind!r}: knots and values must pair up")
        if any(b < a for a, b in zip(self.knots, self.knots[1:])):
            # internal: as above, a shipped map
            raise ValueError(f"calibration {self.kind!r}: knots must not decrease")
        if any(b < a for a, b in zip(self.values, self.values[1:])):
            # internal: as above, a shipped map
            raise ValueError(f"calibration {self.kind!r}: values must not decrease (a calibration keeps the order)")

    def probability(self, raw: Sequence[float]) -> list[float]:
        """The calibrated probability of each raw score (piecewise linear between the knots)."""
        if not len(raw):
            return []
        return [float(p) for p in np.interp(np.asarray(raw, dtype=float), self.knots, self.values)]

    def as_dict(self) -> dict:
        return {"knots": list(self.knots), "values": list(self.values), "data": self.data}


def load_calibrations(path: Path = CALIBRATION_FILE) -> dict[str, Calibration]:
    """The maps in ``path``: ``{kind: Calibration}`` (empty when the file is absent)."""
    if not path.exists():
        return {}
    raw = json.loads(path.read_text(encoding="utf-8"))
    return {kind: Calibration(kind, tuple(m["knots"]), tuple(m["values"]), m.get("data", ""))
            for kind, m in raw.get("kinds", {}).items()}


@caches.register
def _forget() -> None:
    calibrations.cache_clear()


@lru_cache(maxsize=4)
def calibrations(verifier: str = "alignment") -> dict[str, Calibration]:
    """The calibrations that hold for a judge with ``verifier``: the shipped maps for the default
    verifier; for an NLI verifier, the maps of the kinds it does not touch (chunk relevance and
    coverage do not read the verifier's score), none for support."""
    maps = load_calibrations()
    if verifier == "alignment":
        return maps
    return {kind: m for kind, m in maps.items() if kind != SUPPORT}
