"""Turning a person's answer about a judge's score into a label (shared by the terminal
annotator and the report's annotate mode, which follow the same rules).

    agree       -> the judge's score is the label (the person accepts the value)
    disagree    -> the opposite decision: 0 when the judge said yes (score >= threshold), else 1
    a number    -> that number, a corrected score in [0, 1]

Labelling is resumable: a labels file names the samples already done (by the fingerprint
of their inputs, so reordering the data or renaming ids does not relabel or skip anything).
"""

from __future__ import annotations

from pathlib import Path

from ragmeter.align.agreement import DEFAULT_THRESHOLD
from ragmeter.align.labels import load_labels
from ragmeter.errors import InvalidOption

AGREE = ("y", "yes", "a", "agree")
DISAGREE = ("n", "no", "d", "disagree")


def label_from_answer(answer: str, score: float | None, threshold: float = DEFAULT_THRESHOLD) -> float:
    """The label an answer means (rules in the module docstring); ``ValueError`` when the
    answer is none of them, or agrees or disagrees with a score the judge could not give."""
    key = answer.strip().lower()
    if key in AGREE or key in DISAGREE:
        if score is None:
            raise InvalidOption("the judge gave no score here: type a score in [0, 1] or skip")
        if key in AGREE:
            return float(score)
        return 0.0 if score >= threshold else 1.0
    try:
        value = float(key)
    except ValueError:
        raise InvalidOption(f"{answer!r}: type y (agree), n (disagree) or a score in [0, 1]") from None
    if not 0.0 <= value <= 1.0:
        raise InvalidOption(f"{answer!r}: a corrected score must be in [0, 1]")
    return value


def labelled_fingerprints(path: str | Path) -> set[str]:
    """Fingerprints of the samples a labels file already holds (empty when it does not exist)."""
    path = Path(path)
    if not path.exists():
        return set()
    return {item.sample.fingerprint() for item in load_labels(path).samples}
