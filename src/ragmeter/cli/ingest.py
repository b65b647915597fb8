"""``ragmeter ingest``: production traces (OTLP JSON from OpenInference) into a dataset."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from ragmeter.cli.console import app, err, out, setup_logging


@app.command("ingest")
def ingest(
    traces: list[Path] = typer.Argument(..., help="OTLP JSON trace files (one export request, or JSON Lines of them).", exists=True, dir_okay=False),
    out_path: Path = typer.Option(Path("traces.jsonl"), "--out", "-o", help="Dataset to write (JSON Lines): id, question, answer, contexts, metadata."),
    verbose: bool = typer.Option(False, "--verbose", "-v"),
) -> None:
    """Turn traces into samples: root span -> question, retriever spans -> contexts in rank
    order, last LLM span -> answer. Evaluate the result with `ragmeter evaluate`."""
    from ragmeter.ingest import TraceFileError, ingest_otlp

    setup_logging(verbose)
    count = 0
    tmp = out_path.with_name(f".{out_path.name}.tmp")
    out_path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with tmp.open("w", encoding="utf-8") as fh:
            for path in traces:
                for record in ingest_otlp(path):
                    fh.write(json.dumps(record, ensure_ascii=False) + "\n")
                    count += 1
    except (TraceFileError, OSError) as exc:
        tmp.unlink(missing_ok=True)
        err.print(f"[red]error:[/red] {exc}", markup=True, highlight=False)
        raise typer.Exit(2)
    tmp.replace(out_path)
    out.print(f"{count} samples written to {out_path}")
