"""The review file: one decision per line, appended the moment it is made.

Why appended at once and read back whole: a review takes minutes to hours and is quit,
interrupted or crashes; each decision already on disk is never asked again, and the kept
set is always rebuilt from this file, so a resumed review writes every record kept in any
session. The last decision about a record wins (a record reviewed again by hand-editing the
file, or a second session started before the first ended).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ValidationError


class ReviewDecision(BaseModel):
    """What a person decided about one record (``id`` is the record's, as generated)."""

    id: str
    question: str
    """The question as kept: the edited one for an edited record."""
    ground_truth: str
    evolution_type: str
    usable: bool
    note: str | None = None
    """Why it was dropped, in the reviewer's words ("vague", "partial answer"); None if not said."""
    edited: bool = False


@dataclass
class ReviewLog:
    """The decisions of a review file by record id, and one line per line that did not read."""

    decisions: dict[str, ReviewDecision] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def read_decisions(path: str | Path) -> ReviewLog:
    """The decisions in ``path`` (none when it does not exist yet). A line that does not read
    (a half-written last line after a crash, a hand edit gone wrong) is named and left out:
    its record is simply shown again."""
    path = Path(path)
    log = ReviewLog()
    if not path.is_file():
        return log
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            decision = ReviewDecision.model_validate_json(line)
        except ValidationError as exc:
            log.problems.append(f"{path.name}: line {number}: not a review decision ({exc.errors()[0]['msg']})")
            continue
        log.decisions[decision.id] = decision
    return log


def append_decision(path: str | Path, decision: ReviewDecision) -> None:
    """Add one decision to the end of ``path`` and flush it to disk before the next record is
    shown. A last line cut short by a crash gets its line break first, so the new decision is
    not glued onto it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+b") as f:
        f.seek(0, 2)
        if f.tell():
            f.seek(-1, 2)
            if f.read(1) != b"\n":
                f.write(b"\n")
        f.write(decision.model_dump_json().encode("utf-8") + b"\n")
        f.flush()
