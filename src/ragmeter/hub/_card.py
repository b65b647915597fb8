"""The dataset card (``README.md``): YAML front matter for the Hub, then the schema, the
settings or run info, the metric summary and how to load the repo."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import yaml

from ragmeter.data import Dataset
from ragmeter.hub._schema import CARD, MANIFEST, RESULT_FILE, HubObject, Written
from ragmeter.result import EvaluationResult

if TYPE_CHECKING:
    from testset_gen.record import Testset


_TAGS: dict[str, list[str]] = {
    "testset": ["ragmeter", "rag", "evaluation", "synthetic"],
    "dataset": ["ragmeter", "rag", "evaluation"],
    "result": ["ragmeter", "rag", "evaluation", "evaluation-results"],
}
_PLACEHOLDER_REPO = "<namespace>/<name>"
_SETTING_MEANINGS: dict[str, str] = {
    "size": "questions asked for",
    "distribution": "shares of each evolution type",
    "seed": "which chunks seed which question (same seed + same cache = same test set)",
    "judge": "the model that wrote the questions (local = offline rules, no LLM)",
    "chunk_tokens": "maximum tokens per chunk",
    "overlap_tokens": "tokens repeated between neighbouring chunks",
    "similarity_threshold": "embedding similarity above which two chunks are linked",
    "summaries": "whether documents were summarised before generation",
    "max_attempts": "attempts per question before it is given up",
    "prompts": "fingerprint of the generation prompts",
    "documents": "documents read",
    "chunks": "chunks cut from them",
    "run": "identity of the generation run (documents + settings)",
}


# --- the dataset card -----------------------------------------------------------------------


def _size_category(n: int) -> str:
    bounds = [(1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M"),
              (10_000_000, "1M<n<10M"), (100_000_000, "10M<n<100M"), (1_000_000_000, "100M<n<1B")]
    for bound, name in bounds:
        if n < bound:
            return name
    return "n>1B"


def _front_matter(written: Written, *, pretty_name: str, license: str) -> dict[str, Any]:
    matter: dict[str, Any] = {
        "license": license,
        "pretty_name": pretty_name,
        "tags": _TAGS[written.kind],
        "task_categories": ["question-answering"],
        "size_categories": [_size_category(written.num_rows)],
    }
    if written.kind == "testset":
        matter["annotations_creators"] = ["machine-generated"]
    matter["configs"] = [
        {"config_name": "default", "data_files": [{"split": written.split, "path": written.data_file}]}
    ]
    matter["dataset_info"] = {
        "features": [c.feature() for c in written.schema],
        "splits": [{"name": written.split, "num_bytes": written.num_bytes, "num_examples": written.num_rows}],
        "download_size": written.download_size,
        "dataset_size": written.num_bytes,
    }
    return matter


def _cell(value: Any) -> str:
    """A value as one Markdown table cell (no pipes or line breaks to break the row)."""
    if value is None:
        text = "—"
    elif isinstance(value, float):
        text = f"{value:.4g}" if math.isfinite(value) else str(value)
    elif isinstance(value, (dict, list)):
        text = json.dumps(value, ensure_ascii=False)
    else:
        text = str(value)
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\r", "").replace("\n", "<br>")


def _fixed(value: float | None, digits: int) -> str | None:
    return None if value is None else f"{value:.{digits}f}"


def _table_md(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def card(obj: HubObject, written: Written, *, repo_id: str | None, license: str) -> str:
    from ragmeter.version import __version__

    repo = repo_id or _PLACEHOLDER_REPO
    name = repo.split("/")[-1] if repo_id else f"ragmeter {written.kind}"
    matter = _front_matter(written, pretty_name=name, license=license)
    n = written.num_rows
    what = {
        "testset": f"A test set of {n} questions with reference answers and the passages they come from, "
        f"generated from documents by ragmeter's `testset_gen`",
        "dataset": f"A RAG evaluation dataset of {n} samples (question, answer, retrieved contexts, reference answer)",
        "result": f"The result of evaluating a RAG pipeline on {n} samples with ragmeter: every score with its "
        f"reason, verdicts and errors",
    }[written.kind]
    parts = [f"# {name}", f"{what}. Published with [ragmeter](https://pypi.org/project/ragmeter/) {__version__}."]

    if written.kind == "testset":
        parts.append(_testset_section(cast("Testset", obj)))
    elif isinstance(obj, Dataset):
        parts.append(_dataset_section(obj))
    else:
        assert isinstance(obj, EvaluationResult)
        parts.append(_result_section(obj))

    schema_intro = (
        f"One row per {'question' if written.kind == 'testset' else 'sample'}, in "
        f"`{written.data_file}` (split `{written.split}`). *json* columns hold JSON text."
    )
    parts.append("## Schema\n\n" + schema_intro + "\n\n"
                 + _table_md(["column", "type", "meaning"], [(c.name, c.type, c.meaning) for c in written.schema]))
    parts.append(_how_to_load(written, repo))
    parts.append(
        "## Files\n\n"
        + _table_md(["file", "what"], [
            (CARD, "this card"),
            (MANIFEST, "what kind of ragmeter object this is, plus what does not fit the table "
                       "(settings, source rows, load errors); `load_from_hub` reads it"),
            (written.data_file, "the rows, as Parquet"),
            *([(RESULT_FILE, "the complete result (`EvaluationResult.save`), which `load_from_hub` loads")]
              if written.kind == "result" else []),
        ])
    )
    front = yaml.safe_dump(matter, sort_keys=False, allow_unicode=True, width=1000)
    return f"---\n{front}---\n\n" + "\n\n".join(parts) + "\n"


def _testset_section(testset: Testset) -> str:
    settings = testset.model_dump(mode="json")["settings"]
    lines = ["## Generation settings", ""]
    if settings:
        lines.append(_table_md(["setting", "value", "meaning"],
                               [(k, v, _SETTING_MEANINGS.get(k, "")) for k, v in settings.items()]))
    else:
        lines.append("The settings were not recorded (the test set was read from a JSONL file of records).")
    counts = testset.counts()
    lines += ["", "Questions by evolution type:", "",
              _table_md(["evolution type", "questions"], [(k, v) for k, v in counts.items()])]
    return "\n".join(lines)


def _dataset_section(dataset: Dataset) -> str:
    lines = ["## Source", "", _table_md(["what", "value"], [
        ("source", dataset.source),
        ("samples", len(dataset)),
        ("rows that could not be loaded", len(dataset.errors)),
    ])]
    if dataset.errors:
        shown = "\n".join(f"- {_cell(str(e))}" for e in dataset.errors[:20])
        more = f"\n- ... and {len(dataset.errors) - 20} more" if len(dataset.errors) > 20 else ""
        lines += ["", "Rows left out (kept in `ragmeter.json`):", "", shown + more]
    return "\n".join(lines)


def _result_section(result: EvaluationResult) -> str:
    info = result.info
    summary = result.summary()
    rows = []
    for metric, s in summary.items():
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(s.errors_by_kind.items()))
        rows.append((metric, _fixed(s.mean, 3), s.scored, s.errors, kinds or None))
    score = result.summary_score()
    lines = ["## Metric summary", "",
             _table_md(["metric", "mean", "scored", "errors", "errors by kind"], rows), ""]
    if info.summary_metrics:
        lines.append(f"**Summary score**: {_fixed(score, 3) or 'none'} (harmonic mean of the means of "
                     f"{', '.join(info.summary_metrics)}).")
    else:
        lines.append("**Summary score**: none (no non-binary, higher-is-better metric in this run).")
    duration = info.finished - info.started if info.finished is not None else None
    lines += ["", _table_md(["run", "value"], [
        ("run id", info.display_id),
        ("judge", info.judge),
        ("embedder", info.embedder),
        ("source", info.source),
        ("metric settings", info.metrics),
        ("duration (s)", _fixed(duration, 1)),
        ("scores reused from an interrupted run", info.resumed_scores),
        ("invalid input rows", len(result.input_errors)),
        ("ragmeter version", info.ragmeter_version),
    ])]
    lines += ["", "## Usage and cost", ""]
    if result.usage:
        usage_rows = []
        for who, usage in [*result.usage.items(), ("total", result.total_usage)]:
            usage_rows.append((who, usage.calls, usage.cache_hits, usage.retries, usage.prompt_tokens,
                               usage.completion_tokens, _fixed(usage.cost, 6)))
        lines.append(_table_md(["component", "calls", "cache hits", "retries", "prompt tokens",
                                "completion tokens", "cost (USD)"], usage_rows))
    else:
        lines.append("No judge or embedder calls (judge-free metrics only).")
    return "\n".join(lines)


def _how_to_load(written: Written, repo: str) -> str:
    loader = {"testset": "Testset", "dataset": "Dataset", "result": "EvaluationResult"}[written.kind]
    return (
        "## How to load it\n\n"
        f"With ragmeter, which gives back the whole `{loader}`:\n\n"
        "```python\nfrom ragmeter.hub import load_from_hub\n\n"
        f'obj = load_from_hub("{repo}")\n```\n\n'
        "or `ragmeter pull " + repo + " --out FOLDER` on the command line.\n\n"
        "As a table, with `datasets` or pandas:\n\n"
        f'```python\nfrom datasets import load_dataset\n\nds = load_dataset("{repo}", split="{written.split}")\n\n'
        f'import pandas as pd\n\ndf = pd.read_parquet("hf://datasets/{repo}/{written.data_file}")\n```\n\n'
        "Private repos need a token (`hf auth login`, or `HF_TOKEN`)."
    )

