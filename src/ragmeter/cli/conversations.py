"""``ragmeter evaluate --conversations FILE``: the same command over conversations.

Kept out of ``app.py``'s evaluate body so the command's other options stay as they are:
this turns the file and the chosen metrics into what the engine takes for a conversation
run (conversations read one per row, single-turn metrics scored per reply).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

CONVERSATIONS_HELP = (
    "The file holds conversations (OpenAI chat messages with tool calls, one per line): "
    "conversation metrics (tool_call_accuracy, tool_call_f1, agent_goal_accuracy, topic_adherence, "
    "knowledge_retention, conversation_completeness) score each conversation, single-turn metrics "
    "each reply that has contexts (docs/conversations.md)."
)
RETRIEVAL_TOOL_HELP = "With --conversations: a tool whose results are the contexts of the reply after it (repeatable)."


def conversation_run(data: Path, metrics: Sequence[Any], retrieval_tools: Sequence[str]) -> tuple[Any, list[Any]]:
    """The conversations of ``data`` and the metrics for them (see ``evaluate_conversations``)."""
    from ragmeter.engine.conversations import conversation_inputs

    return conversation_inputs(data, metrics, retrieval_tools or None)


def run_conversations(scripts: Path, app_spec: str, out_path: Path, concurrency: int, timeout: float | None,
                      quiet: bool) -> None:
    """``ragmeter run --conversations``: the app holds each scripted conversation turn by
    turn; the conversations are written as JSONL, ready for ``evaluate --conversations``."""
    from ragmeter.adapters.chat import load_chat_app, run_chat
    from ragmeter.cli.console import err, out
    from ragmeter.cli.exits import EXIT_FAILED, fail, plain_errors

    if out_path.suffix.lower() not in (".jsonl", ".ndjson"):
        fail(f"--out must be a .jsonl file for conversations, not {out_path.name}", EXIT_FAILED)
    with plain_errors():
        result = run_chat(scripts, load_chat_app(app_spec), concurrency=concurrency, timeout=timeout,
                          show_progress=not quiet)
    result.dataset.to_jsonl(out_path)
    for row_error in result.dataset.errors:
        err.print(f"[yellow]skipped[/yellow] {row_error}", markup=True, highlight=False)
    for failure in result.errors[:20]:
        err.print(f"[yellow]failed[/yellow] {failure}", markup=True, highlight=False)
    held = len(result.dataset) - len(result.errors)
    out.print(f"{held} of {len(result.dataset)} conversations held to the end in {result.wall_s:.1f} s; "
              f"{len(result.errors)} stopped by a failed turn; written to {out_path}")
    if len(result.dataset) == 0:
        fail("no conversation could be run: every script is invalid (see above)", EXIT_FAILED)
