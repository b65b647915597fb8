"""One row per turn of each conversation, for the metrics scored turn by turn.

A per-turn metric keeps each turn's score in its ``verdicts`` (``PerTurn``); this lays
them out as a table, beside ``EvaluationResult.to_pandas`` (one row per conversation).
"""

from __future__ import annotations

from typing import Any


def turn_rows(result: Any) -> list[dict[str, Any]]:
    """(row, id, metric, turn, question, answer, value, reason, error) for every turn score."""
    rows = []
    for sample in result.samples:
        for name, score in sample.scores.items():
            if not isinstance(score.verdicts, list) or not all(isinstance(v, dict) and "turn" in v for v in score.verdicts):
                continue  # not a per-turn score
            for turn in score.verdicts:
                error = turn.get("error")
                rows.append({"row": sample.row, "id": sample.id, "metric": name, "turn": turn["turn"],
                             "question": turn.get("question"), "answer": turn.get("answer"),
                             "value": turn.get("value"), "reason": turn.get("reason"),
                             "error": f"{error['kind']}: {error['message']}" if error else None})
    return rows


def turns_frame(result: Any) -> Any:
    """``turn_rows`` as a pandas DataFrame."""
    import pandas as pd

    columns = ["row", "id", "metric", "turn", "question", "answer", "value", "reason", "error"]
    return pd.DataFrame.from_records(turn_rows(result), columns=columns)
