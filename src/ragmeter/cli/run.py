"""``ragmeter run``: put a test set's questions to your app and keep its answers and contexts."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ragmeter.cli.console import app, err, out, setup_logging
from ragmeter.cli.exits import EXIT_FAILED, fail, plain_errors
from ragmeter.data import empty_message


@app.command("run")
def run(
    testset: Path = typer.Argument(..., help="Test set or dataset with questions (JSONL, CSV, Parquet, JSON).", exists=True, dir_okay=False),
    app_spec: str = typer.Option(..., "--app", "-a", help="MODULE:FUNCTION (or path/to/file.py:FUNCTION): takes a question, returns an answer and contexts; sync or async."),
    out_path: Path = typer.Option(Path("dataset.jsonl"), "--out", "-o", help="Where to write the questions with answers and contexts (JSONL, CSV, Parquet or JSON by extension)."),
    concurrency: int = typer.Option(8, "--concurrency", "-c", min=1, help="Questions in flight at once."),
    timeout: Optional[float] = typer.Option(None, "--timeout", help="Seconds per question before it counts as failed."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    verbose: bool = typer.Option(False, "--verbose", "-v"),
    conversations: bool = typer.Option(False, "--conversations", help="The file holds scripted conversations, one per line: {\"turns\": [\"a user message\", ...]}, or a conversation's {\"messages\": [...]} (as generate --conversations writes them), whose user messages are the turns and each assistant message the reference of the turn before it. The app (a chat function of the messages so far, a LangChain agent, a LlamaIndex chat engine or agent, or a function of no argument that builds one) answers turn by turn (docs/conversations.md)."),
) -> None:
    """Run your RAG app over every question; failed questions are recorded, the rest go on."""
    from ragmeter.adapters.run import load_app, run_app
    from ragmeter.data import Dataset

    setup_logging(verbose)
    if (empty := empty_message(testset)) is not None:
        fail(f"no questions to run: {empty}", EXIT_FAILED)
    if conversations:
        from ragmeter.cli.conversations import run_conversations

        return run_conversations(testset, app_spec, out_path, concurrency, timeout, quiet)
    with plain_errors():
        the_app = load_app(app_spec)
        result = run_app(Dataset.load(testset), the_app, concurrency=concurrency, timeout=timeout, show_progress=not quiet)
    result.dataset.save(out_path)
    for row_error in result.dataset.errors:
        err.print(f"[yellow]skipped[/yellow] {row_error}", markup=True, highlight=False)
    for failure in result.errors[:20]:
        err.print(f"[yellow]failed[/yellow] {failure}", markup=True, highlight=False)
    if len(result.errors) > 20:
        err.print(f"... and {len(result.errors) - 20} more failures (see metadata.app_error in {out_path})")
    out.print(f"{result.answered} of {len(result.dataset)} questions answered in {result.wall_s:.1f} s; "
              f"{len(result.errors)} failed; written to {out_path}")
    if result.answered == 0:
        fail("no question was answered" + (": every one failed (see above)" if result.errors else
                                          ": every row of the test set is invalid (see above)"), EXIT_FAILED)
