"""``ragmeter push`` and ``ragmeter pull``: test sets, datasets and results on the Hugging Face Hub.

Why ``push`` guesses what PATH holds: the three files a user has at hand are the ones other
commands wrote (``generate`` -> a test-set JSONL, ``evaluate --out`` -> a result JSON, or
their own dataset file), and asking them to say which would only add a way to get it wrong.
The guess reads content, not names: a result JSON has ``info`` and ``samples``; a test-set
record has an ``evolution_type``; anything else is read as a dataset.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer

from ragmeter.cli.console import app, err, out
from ragmeter.cli.exits import EXIT_FAILED, fail
from ragmeter.errors import BadFile, InvalidOption

_RESULT_SUFFIXES = (".json",)
_TESTSET_SUFFIXES = (".jsonl", ".json-lines", ".jsonlines", ".ndjson")
_DATASET_SUFFIXES = (".jsonl", ".json-lines", ".jsonlines", ".ndjson", ".json", ".csv", ".parquet", ".pq")


def read_path(path: Path) -> Any:
    """What ``push`` uploads: a ``save_to_disk`` folder, a result JSON, a test-set JSONL or a dataset."""
    from ragmeter.data import Dataset
    from ragmeter.hub import MANIFEST, load_from_disk
    from ragmeter.result import EvaluationResult
    from testset_gen.record import Testset

    if path.is_dir():
        if not (path / MANIFEST).is_file():
            raise BadFile(f"{path} is a folder without {MANIFEST}; pass a file, or a folder written by ragmeter")
        return load_from_disk(path)
    suffix = path.suffix.lower()
    if suffix in _RESULT_SUFFIXES and _is_result_json(path):
        return EvaluationResult.load(path)
    if suffix in _TESTSET_SUFFIXES and _first_record_has(path, "evolution_type"):
        return Testset.from_jsonl(path)
    if suffix not in _DATASET_SUFFIXES:
        raise BadFile(f"cannot tell what {path} holds from its extension {path.suffix!r}")
    return Dataset.load(path)


def _is_result_json(path: Path) -> bool:
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except ValueError:
        return False  # JSON Lines in a .json file, or broken: the dataset reader says which
    return isinstance(data, dict) and "info" in data and "samples" in data


def _first_record_has(path: Path, key: str) -> bool:
    with path.open(encoding="utf-8-sig") as f:
        for line in f:
            if line.strip():
                try:
                    record = json.loads(line)
                except ValueError:
                    return False
                return isinstance(record, dict) and key in record
    return False


@app.command()
def push(
    path: Path = typer.Argument(..., help="A test-set JSONL (ragmeter generate), a result JSON (evaluate --out), a dataset file (JSONL, JSON, CSV, Parquet), or a folder from save_to_disk / pull.", exists=True),
    repo_id: str = typer.Argument(..., help="Hub dataset repo, NAMESPACE/NAME (created if missing)."),
    public: bool = typer.Option(False, "--public", help="Create the repo public (default: private). An existing repo keeps its visibility."),
    token: Optional[str] = typer.Option(None, "--token", help="Hub token with write access (default: HF_TOKEN, or the token saved by `hf auth login`)."),
    endpoint: Optional[str] = typer.Option(None, "--endpoint", help="Hub URL (default: HF_ENDPOINT, else https://huggingface.co)."),
    message: Optional[str] = typer.Option(None, "--message", "-m", help="Commit message."),
    license: str = typer.Option("unknown", "--license", help="License id for the dataset card (e.g. apache-2.0, cc-by-4.0)."),
) -> None:
    """Publish a test set, a dataset or a result to the Hugging Face Hub, with a dataset card."""
    from ragmeter.data import Dataset
    from ragmeter.hub import HubUnreachable, kind_of, push_to_hub

    try:
        obj = read_path(path)
    except (ValueError, OSError) as exc:
        err.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2)
    kind = kind_of(obj)
    if isinstance(obj, Dataset) and obj.errors:
        err.print(f"[yellow]warning:[/yellow] {len(obj.errors)} row(s) of {path} could not be loaded; "
                  "they are listed in the card and kept in ragmeter.json", highlight=False)
    if kind == "testset" and not obj.settings:
        err.print("[yellow]note:[/yellow] a test-set JSONL holds records only, so the card has no generation settings",
                  highlight=False)
    err.print(f"pushing {kind} ({_count(obj)} rows) from {path} to {repo_id} ({'public' if public else 'private'})",
              highlight=False)
    try:
        url = push_to_hub(obj, repo_id, private=not public, token=token, endpoint=endpoint,
                          commit_message=message, license=license)
    except PermissionError as exc:
        err.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2)
    except HubUnreachable as exc:
        fail(str(exc), EXIT_FAILED)
    except Exception as exc:  # the Hub's HTTP errors carry their own explanation
        err.print(f"[red]error:[/red] push to {repo_id} failed: {type(exc).__name__}: {exc}", highlight=False)
        raise typer.Exit(1)
    out.print(url, highlight=False, soft_wrap=True)


@app.command()
def pull(
    repo_id: str = typer.Argument(..., help="Hub dataset repo written by `ragmeter push`."),
    out_path: Path = typer.Option(..., "--out", "-o", help="A folder (everything kept), or a file: .jsonl for a test set, .json for a result, any dataset format for the samples."),
    kind: Optional[str] = typer.Option(None, "--kind", help="testset | dataset | result; `dataset` also turns a test set or a result into its samples."),
    revision: Optional[str] = typer.Option(None, "--revision", help="Branch, tag or commit (default: main)."),
    token: Optional[str] = typer.Option(None, "--token", help="Hub token (private repos)."),
    endpoint: Optional[str] = typer.Option(None, "--endpoint", help="Hub URL (default: HF_ENDPOINT, else https://huggingface.co)."),
) -> None:
    """Download a test set, dataset or result pushed by ragmeter, and write it locally."""
    from ragmeter.hub import KINDS, HubUnreachable, kind_of, load_from_hub

    if kind is not None and kind not in KINDS:
        raise typer.BadParameter(f"--kind takes one of {', '.join(KINDS)}, not {kind!r}")
    try:
        obj = load_from_hub(repo_id, kind=kind, revision=revision, token=token, endpoint=endpoint)  # type: ignore[arg-type]
    except ValueError as exc:
        err.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2)
    except HubUnreachable as exc:
        fail(str(exc), EXIT_FAILED)
    except Exception as exc:
        err.print(f"[red]error:[/red] pull of {repo_id} failed: {type(exc).__name__}: {exc}", highlight=False)
        raise typer.Exit(1)
    try:
        written = _write(obj, out_path)
    except (ValueError, OSError) as exc:
        err.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2)
    err.print(f"{kind_of(obj)} ({_count(obj)} rows) from {repo_id} written to {written}", highlight=False)


def _write(obj: Any, path: Path) -> Path:
    """A file when PATH names one the object's own writer knows; otherwise a lossless folder."""
    from ragmeter.data import Dataset
    from ragmeter.hub import save_to_disk
    from ragmeter.result import EvaluationResult
    from testset_gen.record import Testset

    suffix = path.suffix.lower()
    if not suffix or path.is_dir():
        return save_to_disk(obj, path)
    if isinstance(obj, Testset):
        if suffix not in _TESTSET_SUFFIXES:
            raise InvalidOption(f"a test set is written as .jsonl or as a folder, not {suffix!r}")
        if obj.settings:
            err.print("[yellow]note:[/yellow] the JSONL keeps the records only; pull to a folder to keep the settings",
                      highlight=False)
        return obj.to_jsonl(path)
    if isinstance(obj, EvaluationResult):
        if suffix != ".json":
            raise InvalidOption(f"a result is written as .json or as a folder, not {suffix!r}")
        return obj.save(path)
    assert isinstance(obj, Dataset)
    path.parent.mkdir(parents=True, exist_ok=True)
    obj.save(path)
    return path


def _count(obj: Any) -> int:
    samples = getattr(obj, "samples", None)
    return len(samples) if samples is not None else len(obj)
