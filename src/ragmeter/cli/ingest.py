"""``ragmeter ingest``: production traces (OTLP JSON from OpenInference) into a dataset.

A malformed line, span or trace is named on stderr ("skipped: FILE, line N, trace T, span S,
field F: what is wrong") and left out; the good traces are written. Exit 0 when at least one
sample was written (the named ones were skipped, as ``evaluate`` skips bad rows), 1 when no
trace could be read (the last output is then left as it was), 2 when the output cannot be
written.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from ragmeter.cli.console import app, err, out, setup_logging
from ragmeter.cli.exits import EXIT_CONFIG, EXIT_FAILED, fail, print_error


@app.command("ingest")
def ingest(
    traces: list[Path] = typer.Argument(..., help="OTLP JSON trace files (one export request, or JSON Lines of them).", exists=True, dir_okay=False),
    out_path: Path = typer.Option(Path("traces.jsonl"), "--out", "-o", help="Dataset to write (JSON Lines): id, question, answer, contexts, metadata."),
    verbose: bool = typer.Option(False, "--verbose", "-v"),
) -> None:
    """Turn traces into samples: root span -> question, retriever spans -> contexts in rank
    order, last LLM span -> answer. Malformed spans and lines are named and skipped.
    Evaluate the result with `ragmeter evaluate`."""
    from ragmeter.traces import InputProblem, ingest_otlp

    setup_logging(verbose)
    count = 0
    skipped = 0

    def named(problem: InputProblem) -> None:
        nonlocal skipped
        skipped += 1
        print_error(str(problem), label="skipped", style="yellow")

    tmp = out_path.with_name(f".{out_path.name}.tmp")
    try:
        out_path.parent.mkdir(parents=True, exist_ok=True)
        with tmp.open("w", encoding="utf-8") as fh:
            for path in traces:
                for record in ingest_otlp(path, on_problem=named):
                    fh.write(json.dumps(record, ensure_ascii=False) + "\n")
                    count += 1
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        fail(f"cannot write {out_path}: {exc}", EXIT_CONFIG)
    if count == 0:
        tmp.unlink(missing_ok=True)
        why = f"{skipped} malformed part(s) named above" if skipped else "the files hold no trace"
        fail(f"nothing written: no trace could be read ({why}); {out_path} is left as it was", EXIT_FAILED)
    tmp.replace(out_path)
    out.print(f"{count} samples written to {out_path}", highlight=False)
    if skipped:
        err.print(f"{skipped} malformed part(s) skipped, each named above", highlight=False)
