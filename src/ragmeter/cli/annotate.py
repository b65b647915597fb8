"""``ragmeter annotate``: label a judge's scores in the terminal, one key per label, resumable."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from ragmeter.cli.console import app, err, out, setup_logging
from ragmeter.cli.keys import read_key

HELP = ("y agree · n disagree · 0..1 corrected score · s skip · q quit;"
        " text after the key (e.g. 'n the year is wrong') is saved as a note")


def _shorten(text: str, limit: int = 400) -> str:
    return text if len(text) <= limit else text[:limit] + " ..."


@app.command("annotate")
def annotate(
    data: Path = typer.Argument(..., help="Samples to label (JSONL, CSV, Parquet or JSON).", exists=True, dir_okay=False),
    metrics: str = typer.Option(..., "--metrics", "-m", help="Comma-separated metrics to label."),
    judge: str = typer.Option("local", "--judge", "-j", help="The judge whose scores are shown (as in `ragmeter evaluate`)."),
    embedder: str = typer.Option("local", "--embedder", "-e", help="local | st:NAME_OR_PATH | openai:MODEL[@URL]"),
    out_path: Path = typer.Option(Path("labels.jsonl"), "--out", "-o", help="Labels file; samples already in it are skipped (resume)."),
    threshold: float = typer.Option(0.5, "--threshold", min=0.0, max=1.0, help="A score at or above this is a yes (what 'disagree' flips)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar while scoring."),
) -> None:
    """Show each sample with the judge's score and reason and take one key per label;
    each finished sample is appended to --out at once, so quitting loses nothing."""
    from ragmeter import evaluate
    from ragmeter.align.annotate import label_from_answer, labelled_fingerprints

    setup_logging(False)
    chosen = [m.strip() for m in metrics.split(",") if m.strip()]
    done = labelled_fingerprints(out_path)
    try:
        result = evaluate(data, chosen, judge=judge, embedder=embedder, journal=False, show_progress=not quiet)
    except (ValueError, TypeError, FileNotFoundError) as exc:
        err.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2)
    todo = [s for s in result.samples if s.sample.fingerprint() not in done]
    out.print(f"{len(todo)} samples to label ({len(result.samples) - len(todo)} already in {out_path}). {HELP}",
              highlight=False)
    labelled = 0
    for position, item in enumerate(todo, start=1):
        sample = item.sample
        out.rule(f"{position}/{len(todo)}  {sample.id or f'row {item.row}'}")
        for name in ("question", "answer", "ground_truth"):
            if getattr(sample, name):
                out.print(f"[bold]{name}[/bold]: {_shorten(getattr(sample, name))}", highlight=False)
        for i, context in enumerate(sample.contexts or [], start=1):
            out.print(f"[bold]context {i}[/bold]: {_shorten(context)}", highlight=False)
        labels: dict[str, float] = {}
        notes: list[str] = []
        for metric in chosen:
            score = item.scores.get(metric)
            value = score.value if score is not None else None
            shown = "no score" if value is None else f"{value:.2f}"
            out.print(f"[bold]{metric}[/bold]: judge {shown}: {score.reason if score else ''}", highlight=False)
            while True:
                key, note = read_key(f"{metric}")
                if key == "q":
                    # the sample in hand is not saved half-labelled: it comes back on the next run
                    out.print(f"{labelled} labelled now; {out_path} holds them. Run the same command to go on.")
                    return
                if key == "s":
                    break
                try:
                    labels[metric] = label_from_answer(key, value, threshold)
                except ValueError as exc:
                    err.print(f"[yellow]{exc}[/yellow]", highlight=False)
                    continue
                if note:
                    notes.append(f"{metric}: {note}" if len(chosen) > 1 else note)
                break
        if _append(out_path, item.row, sample, labels, notes):
            labelled += 1
    out.print(f"done: {labelled} labelled now; labels in {out_path}")


def _append(path: Path, row: int, sample, labels: dict[str, float], notes: list[str]) -> bool:
    """Append one labels record (nothing when no label was given)."""
    from ragmeter.align import LabelledSample

    if not labels:
        return False
    record = LabelledSample(row=row, sample=sample, labels=labels, note="; ".join(notes) or None).to_record()
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(record, ensure_ascii=False) + "\n")
    return True
