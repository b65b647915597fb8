"""What people said of generated test sets on fresh folders: per rating round, the share of the
size asked that was written, the types written, and the share a person rated usable.

    .venv/bin/python bench/testset_ratings.py [--ratings bench/testset_hand_ratings.jsonl]

A round is one folder generated once (``generated_at``: the commit) and rated once. Its rows in
``testset_hand_ratings.jsonl`` carry ``source`` (repository@commit the pages came from),
``asked`` and ``written`` besides each record's ``usable`` and the rater's ``note``. Why the
rounds, not the earlier ratings of the project's own folders: the generator was tuned on those,
so only a folder nobody here wrote, rated before any change was made for it, tells how the
generator does on a user's documents. The first round of a folder is its blind figure; a later
round of the same folder (after changes made with its ratings read) is development data.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
RATINGS = HERE / "testset_hand_ratings.jsonl"
TYPES = ("simple", "reasoning", "multi_context")


@dataclass
class Round:
    """One folder generated once and rated once."""

    folder: str
    generated_at: str
    source: str
    asked: int
    written: int
    usable: int = 0
    types: Counter = field(default_factory=Counter)
    blind: bool = True

    @property
    def written_share(self) -> float:
        """written / asked: the yield the issue's target (>= 0.6) is stated in."""
        return self.written / self.asked

    @property
    def usable_share(self) -> float:
        """usable / written, over every written record (each one is rated); NaN when nothing
        was written (a share of nothing is no 0)."""
        return self.usable / self.written if self.written else float("nan")


def rating_rounds(path: Path = RATINGS) -> list[Round]:
    """The fresh-folder rounds of ``path`` in file order (rows without ``source`` are ratings of
    the project's own folders and are left out)."""
    rounds: dict[tuple[str, str], Round] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if "source" not in row:
            continue
        key = (row["folder"], str(row.get("generated_at", "?")))
        if key not in rounds:
            earlier = any(r.folder == row["folder"] for r in rounds.values())
            # a folder the generator was tuned on before its first rating says "blind": false
            rounds[key] = Round(row["folder"], key[1], row["source"], int(row["asked"]),
                                int(row["written"]), blind=bool(row.get("blind", not earlier)))
        if "question" not in row:
            continue  # a round that wrote nothing: its one row says why, with no record to rate
        rnd = rounds[key]
        rnd.usable += bool(row["usable"])
        rnd.types[row["evolution_type"]] += 1
    return list(rounds.values())


def round_figures(rnd: Round) -> dict[str, float]:
    """The figures of one round, by name."""
    return {"written_share": rnd.written_share, "usable_share": rnd.usable_share,
            "written": float(rnd.written), "asked": float(rnd.asked),
            **{f"types.{t}": float(rnd.types[t]) for t in TYPES}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ratings", type=Path, default=RATINGS)
    args = parser.parse_args(argv)
    print(f"{'folder':18} {'generated at':12} {'kind':11} {'written/asked':>14} "
          f"{'simple/reasoning/multi':>23} {'usable':>12}")
    for rnd in rating_rounds(args.ratings):
        types = "/".join(str(rnd.types[t]) for t in TYPES)
        print(f"{rnd.folder:18} {rnd.generated_at:12} {'blind' if rnd.blind else 'development':11} "
              f"{rnd.written:>5}/{rnd.asked:<3} {rnd.written_share:>4.0%} {types:>23} "
              f"{rnd.usable:>4}/{rnd.written:<3} {rnd.usable_share:>4.0%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
