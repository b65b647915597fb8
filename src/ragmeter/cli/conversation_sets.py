"""``ragmeter generate FOLDER --conversations``: chat scenarios instead of single questions.

Kept apart from ``generate.py`` so that the single-turn command's body stays as it is; the
work is ``testset_gen.conversations``', imported when the command runs.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any, Optional

from rich.table import Table

from ragmeter.cli.caught_warnings import print_warnings

TURNS_HELP = "With --conversations: at most this many user turns per conversation (2-6; default 3)."
CONVERSATIONS_HELP = ("Write multi-turn chat scenarios (-n of them): follow-ups that depend on earlier turns, a "
                      "ground truth per turn; the file drives `ragmeter run --conversations` (docs/testset.md).")


def report_table(result: Any) -> Table:
    """Asked, written, turns, how the follow-ups refer back and where they come from."""
    scenarios = list(result.conversations)
    follow = [t for s in scenarios for t in s.turns[1:]]
    how: dict[str, int] = {}
    where: dict[str, int] = {}
    for t in follow:
        how[t.refers_back or "-"] = how.get(t.refers_back or "-", 0) + 1
        structure = str(t.metadata.get("structure", "-"))
        where[structure] = where.get(structure, 0) + 1
    table = Table("measure", "value", title=f"conversations: {len(scenarios)} of {result.requested}")
    table.columns[1].overflow = "fold"
    table.add_row("user turns", str(sum(len(s.turns) for s in scenarios)))
    table.add_row("conversations by turns", ", ".join(f"{k} turns: {n}" for k, n in
                                                       result.conversations.turn_counts().items()) or "-")
    table.add_row("follow-ups refer back by", ", ".join(f"{k} {n}" for k, n in sorted(how.items())) or "-")
    table.add_row("follow-ups come from", ", ".join(f"{k} {n}" for k, n in sorted(where.items())) or "-")
    if result.rejected:
        table.add_row("not kept", ", ".join(f"{r} {n}" for r, n in result.rejected.most_common(4)))
    return table


def write_conversations(docs: Path, size: int, turns: int, out_path: Path, *, judge: str, seed: int, cache: Any,
                        quiet: bool, judge_options: Any, personas: Optional[Path], chunk_tokens: int,
                        overlap_tokens: int) -> None:
    from ragmeter.calls.redact import mask_secrets
    from ragmeter.cli.console import err, out
    from ragmeter.cli.exits import plain_errors
    from testset_gen.conversations import generate_conversations

    err.print(f"[bold]ragmeter generate --conversations[/bold]: {size} conversations of up to {turns} turns "
              f"from {docs} with judge {mask_secrets(judge)}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with plain_errors():
                result = generate_conversations(docs, size, turns=turns, judge=judge, seed=seed, cache=cache,
                                                personas=personas, show_progress=not quiet,
                                                judge_options=judge_options, chunk_tokens=chunk_tokens,
                                                overlap_tokens=overlap_tokens)
        except BaseException:
            # plain_errors has printed the error and raised the exit; the warnings caught
            # before it (a file skipped for its language...) often say why, so they follow
            print_warnings(caught)
            raise
    print_warnings(caught, skip_files=True)  # the skipped files are listed with the report below
    result.conversations.to_jsonl(out_path)
    out.print(report_table(result))
    if (why := result.why_short()) is not None:
        err.print(f"short by {result.shortfall} conversation(s): {why} (never padded)", highlight=False, markup=False)
    if result.personas:
        err.print("personas: " + "; ".join(p.name for p in result.personas), highlight=False, markup=False)
    for path, reason in dict(result.skipped).items():
        err.print(f"  skipped {path}: {reason}", highlight=False, markup=False)
    if result.usage is not None:
        err.print(f"judge: {result.usage.calls} calls, {result.usage.cache_hits} cache hits, "
                  f"{result.usage.prompt_tokens} prompt + {result.usage.completion_tokens} completion tokens",
                  highlight=False, markup=False)
    err.print(f"conversations written to {out_path} (drive them with `ragmeter run --conversations {out_path} --app ...`)",
              highlight=False, markup=False)
