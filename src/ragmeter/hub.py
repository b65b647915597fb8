"""Test sets, datasets and results on the Hugging Face Hub, and in folders laid out like a Hub repo.

Why a folder first: ``save_to_disk`` writes exactly the files ``push_to_hub`` uploads, so a
push can be checked before it leaves the machine, the local and the Hub round trips are the
same code, and ``load_from_hub`` is "download the files, then ``load_from_disk``".

The layout (one folder, one Hub dataset repo)::

    README.md                               dataset card: YAML front matter + schema, settings,
                                            metric summary, how to load
    ragmeter.json                           which kind this is, and what does not fit a table
    data/<split>-00000-of-00001.parquet     the rows, for the dataset viewer and ``datasets``
    result.json                             results only: ``EvaluationResult.save`` output

Why Parquet plus ``ragmeter.json``: the Hub's viewer and ``datasets.load_dataset`` read the
Parquet files that the card's ``configs`` lists; what a table cannot hold (a test set's
generation settings; a dataset's source rows, load errors and source; a result's run info,
verdicts and usage) lives beside it, so loading gives back the object whole. A result's
Parquet is a flat view (one score, reason, error and verdicts column per metric); its exact
copy is ``result.json``, the format the report and the gate already read.

Why free-form fields are JSON text columns: per-row ``metadata`` and ``sources`` hold
different keys and types from row to row, which no single columnar struct holds without
inventing nulls (see ``ragmeter.data.dataset``); JSON text gives back exactly what was put in.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Literal, Union, cast, get_args

import yaml

from ragmeter.data import Dataset, RowError
from ragmeter.errors import RagmeterError
from ragmeter.data.dataset import COLUMNS as SAMPLE_COLUMNS
from ragmeter.result import EvaluationResult

if TYPE_CHECKING:
    import pyarrow as pa

    from testset_gen.record import Testset

Kind = Literal["testset", "dataset", "result"]
KINDS: tuple[str, ...] = get_args(Kind)
HubObject = Union["Testset", Dataset, EvaluationResult]

MANIFEST = "ragmeter.json"
"""The file that says which kind a folder or repo holds; its presence marks a ragmeter folder."""
CARD = "README.md"
RESULT_FILE = "result.json"
FORMAT = "ragmeter-hub"
FORMAT_VERSION = 1
SPLITS: dict[str, str] = {"testset": "test", "dataset": "test", "result": "results"}
"""Split name per kind: ``test`` so ``load_dataset(repo, split="test")`` reads an evaluation
set the conventional way; a result's rows are scores, hence their own split name."""

_TAGS: dict[str, list[str]] = {
    "testset": ["ragmeter", "rag", "evaluation", "synthetic"],
    "dataset": ["ragmeter", "rag", "evaluation"],
    "result": ["ragmeter", "rag", "evaluation", "evaluation-results"],
}
_PLACEHOLDER_REPO = "<namespace>/<name>"
_ARROW_TYPES = ("string", "json", "list<string>", "float64", "int64")


# --- what is in a table ---------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    """One column of a data file: its name, type and meaning (the card's schema table)."""

    name: str
    type: str
    """string | json (JSON text in a string column) | list<string> | float64 | int64"""
    meaning: str

    def arrow(self) -> pa.DataType:
        import pyarrow as pa

        return {
            "string": pa.string(),
            "json": pa.string(),
            "list<string>": pa.list_(pa.string()),
            "float64": pa.float64(),
            "int64": pa.int64(),
        }[self.type]

    def feature(self) -> dict[str, str]:
        """The column as a ``dataset_info.features`` entry (the form ``datasets`` >= 4 writes)."""
        if self.type == "list<string>":
            return {"name": self.name, "list": "string"}
        return {"name": self.name, "dtype": "string" if self.type == "json" else self.type}


SAMPLE_SCHEMA: tuple[Column, ...] = (
    Column("id", "string", "The sample's id in its source; null when it had none."),
    Column("question", "string", "The question asked of the RAG pipeline."),
    Column("answer", "string", "The pipeline's answer."),
    Column("contexts", "list<string>", "The passages the retriever returned, in rank order."),
    Column("ground_truth", "string", "The reference answer."),
    Column("reference_contexts", "list<string>", "The passages that hold the answer (what retrieval should find)."),
    Column("retrieved_context_ids", "list<string>", "Ids of the retrieved chunks, in rank order (ID-based context metrics)."),
    Column("reference_context_ids", "list<string>", "Ids of the chunks that should have been retrieved."),
    Column("metadata", "json", "JSON object: every other column of the source (labels, latencies...); null when empty."),
)
assert tuple(c.name for c in SAMPLE_SCHEMA) == SAMPLE_COLUMNS, "keep SAMPLE_SCHEMA in step with Dataset.to_arrow"

def testset_schema() -> tuple[Column, ...]:
    """The columns of a published test set (``testset_gen``'s records; imported here only when
    a test set is handled, since ``testset_gen`` builds on ragmeter and not the reverse)."""
    from testset_gen.record import EVOLUTION_TYPES

    return (
        Column("id", "string", "Stable id of the generated question."),
        Column("question", "string", "The generated question."),
        Column("ground_truth", "string", "Its answer, written from the reference contexts."),
        Column("reference_contexts", "list<string>", "The chunks the question and answer were written from."),
        Column("evolution_type", "string", f"How the question was made: {', '.join(EVOLUTION_TYPES)}."),
        Column("reference_context_ids", "list<string>", "Ids of those chunks in the knowledge graph."),
        Column("sources", "json", "JSON list: for each reference chunk, the document it came from and where."),
        Column("metadata", "json", "JSON object: anything else the generator recorded."),
    )


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


# --- public API -----------------------------------------------------------------------------


def kind_of(obj: object) -> Kind:
    """``"testset"``, ``"dataset"`` or ``"result"``; a ``TypeError`` for anything else."""
    from testset_gen.record import Testset

    if isinstance(obj, Testset):
        return "testset"
    if isinstance(obj, Dataset):
        return "dataset"
    if isinstance(obj, EvaluationResult):
        return "result"
    raise TypeError(
        f"expected a testset_gen Testset, a ragmeter Dataset or an EvaluationResult, got {type(obj).__name__}"
    )


def save_to_disk(
    obj: HubObject, path: str | Path, *, repo_id: str | None = None, license: str = "unknown"
) -> Path:
    """Write ``obj`` as the folder ``push_to_hub`` uploads (card, ``ragmeter.json``, Parquet...).

    ``repo_id`` only fills the card's "how to load" snippets. A folder that exists must be
    empty or a ragmeter folder (it is then replaced file by file): anything else is a
    ``FileExistsError``, so a mistyped path never mixes our files into someone else's.
    """
    kind = kind_of(obj)
    folder = Path(path)
    _clear_folder(folder)
    (folder / "data").mkdir(parents=True, exist_ok=True)
    split = SPLITS[kind]
    data_rel = f"data/{split}-00000-of-00001.parquet"
    written = _Written(kind=kind, split=split, data_file=data_rel)

    if kind == "testset":
        obj = cast("Testset", obj)
        written.schema = testset_schema()
        _write_table(_testset_table(obj), folder / data_rel)
        written.manifest["testset"] = {"settings": obj.model_dump(mode="json")["settings"]}
    elif kind == "dataset":
        assert isinstance(obj, Dataset)
        written.schema = SAMPLE_SCHEMA
        obj.to_parquet(folder / data_rel)
        default_rows = obj.rows == list(range(len(obj.samples)))
        written.manifest["dataset"] = {
            "source": obj.source,
            "rows": None if default_rows else obj.rows,
            "errors": [e.model_dump(mode="json") for e in obj.errors],
        }
    else:
        assert isinstance(obj, EvaluationResult)
        table, written.schema = _result_table(obj)
        _write_table(table, folder / data_rel)
        obj.save(folder / RESULT_FILE)
        written.extra_files.append(RESULT_FILE)
        written.manifest["result"] = {"file": RESULT_FILE}

    written.measure(folder)
    _write_datasets_copy(folder, split, folder / data_rel)
    manifest = written.manifest_json()
    (folder / CARD).write_text(_card(obj, written, repo_id=repo_id, license=license), encoding="utf-8")
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return folder


def load_from_disk(path: str | Path, *, kind: Kind | None = None) -> HubObject:
    """Read a folder written by ``save_to_disk`` (or downloaded by ``load_from_hub``).

    ``kind=None`` gives back what the folder holds. ``kind="dataset"`` also reads a test set
    or a result as the ``Dataset`` of its samples; asking for any other kind than the stored
    one is a ``ValueError``.
    """
    folder = Path(path)
    manifest = _read_manifest(folder)
    stored: Kind = manifest["kind"]
    data_path = folder / _safe_relpath(manifest["data"]["path"])
    if stored == "testset":
        obj: HubObject = _read_testset(data_path, manifest)
    elif stored == "dataset":
        obj = _read_dataset(data_path, manifest)
    else:
        obj = EvaluationResult.load(folder / _safe_relpath(manifest["result"]["file"]))
    return _as_kind(obj, stored, kind, where=str(folder))


def push_to_hub(
    obj: HubObject,
    repo_id: str,
    *,
    private: bool = True,
    token: str | None = None,
    endpoint: str | None = None,
    commit_message: str | None = None,
    license: str = "unknown",
) -> str:
    """Upload ``obj`` to the Hub dataset repo ``repo_id`` (created if missing) and return its URL.

    Private by default: evaluation data often holds a company's documents. ``private`` only
    applies when the repo is created; an existing repo keeps its visibility. ``token``:
    else ``HF_TOKEN`` or the token saved by ``hf auth login``. ``endpoint``: else
    ``HF_ENDPOINT`` (read at call time), else huggingface.co. One commit holds all files.
    """
    from huggingface_hub import CommitOperationAdd, HfApi

    kind = kind_of(obj)
    api = HfApi(endpoint=_endpoint(endpoint), token=_require_token(token))
    with reaching_the_hub(repo_id, api.endpoint, "push to"):
        repo = api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ragmeter-hub-") as tmp, reaching_the_hub(repo_id, api.endpoint, "push to"):
        folder = save_to_disk(obj, Path(tmp) / "repo", repo_id=repo.repo_id, license=license)
        manifest = _read_manifest(folder)
        operations = [
            CommitOperationAdd(path_in_repo=rel, path_or_fileobj=str(folder / rel))
            for rel in [*manifest["files"], MANIFEST]
        ]
        api.create_commit(
            repo.repo_id,
            operations=operations,
            commit_message=commit_message or f"ragmeter: upload {kind} ({manifest['data']['num_rows']} rows)",
            repo_type="dataset",
        )
    return str(repo)


def load_from_hub(
    repo_id: str,
    *,
    kind: Kind | None = None,
    revision: str | None = None,
    token: str | None = None,
    endpoint: str | None = None,
    cache_dir: str | Path | None = None,
) -> HubObject:
    """Download a repo written by ``push_to_hub`` (into the Hugging Face cache) and load it.

    The revision (branch, tag or commit; default the main branch) is resolved to one commit
    first and every file is read at that commit, so a push landing mid-download cannot mix
    two versions. ``kind`` as in ``load_from_disk``.
    """
    from huggingface_hub import HfApi, hf_hub_download
    from huggingface_hub.errors import EntryNotFoundError

    api = HfApi(endpoint=_endpoint(endpoint), token=token)
    with reaching_the_hub(repo_id, api.endpoint, "download"):
        commit = api.dataset_info(repo_id, revision=revision).sha
    if commit is None:
        raise ValueError(f"the Hub did not say which commit {repo_id}@{revision or 'main'} is")

    def download(filename: str) -> Path:
        return Path(
            hf_hub_download(
                repo_id, filename, repo_type="dataset", revision=commit, token=token,
                endpoint=api.endpoint, cache_dir=str(cache_dir) if cache_dir is not None else None,
            )
        )

    try:
        with reaching_the_hub(repo_id, api.endpoint, "download"):
            manifest_path = download(MANIFEST)
    except EntryNotFoundError:
        raise ValueError(
            f"{repo_id} has no {MANIFEST}: it was not pushed by ragmeter. Read its tables with "
            f"datasets.load_dataset({repo_id!r}) and ragmeter.Dataset.from_hf(...)"
        ) from None
    folder = manifest_path.parent
    with reaching_the_hub(repo_id, api.endpoint, "download"):
        for rel in _read_manifest(folder)["files"]:
            download(rel)
    return load_from_disk(folder, kind=kind)


class HubUnreachable(RagmeterError):
    """The Hub could not be reached (no network, a proxy, a wrong endpoint, offline mode).

    Raised in place of the HTTP library's own connection error, which names neither the
    repo nor what to check. Transient: the same call may work once the network is back."""

    transient = True


_TRANSPORT_ERRORS = ("TransportError", "NetworkError", "ConnectError", "TimeoutException", "ProxyError")
"""Class names of httpx's (and httpx2's) connection-level errors, matched by name so either
library's classes are recognised without importing it."""


@contextmanager
def reaching_the_hub(repo_id: str, endpoint: str | None, action: str) -> Iterator[None]:
    """Turn a failure to reach the Hub into ``HubUnreachable`` naming the repo, the endpoint
    and what to check. HTTP answers (404, 401...) pass through: they say what is wrong."""
    where = endpoint or "https://huggingface.co"
    try:
        yield
    except Exception as exc:
        names = {cls.__name__ for cls in type(exc).__mro__}
        offline = "OfflineModeIsEnabled" in names
        if not (offline or names & set(_TRANSPORT_ERRORS) or isinstance(exc, ConnectionError)):
            raise
        check = ("HF_HUB_OFFLINE is set: unset it to use the Hub" if offline else
                 "check the network, any proxy (HTTPS_PROXY) and the endpoint (--endpoint / HF_ENDPOINT)")
        raise HubUnreachable(f"cannot {action} {repo_id} at {where}: {type(exc).__name__}: {exc}; {check}") from exc


# --- writing --------------------------------------------------------------------------------


@dataclass
class _Written:
    kind: Kind
    split: str
    data_file: str
    schema: Sequence[Column] = ()
    extra_files: list[str] = field(default_factory=list)
    manifest: dict[str, Any] = field(default_factory=dict)
    num_rows: int = 0
    num_bytes: int = 0
    """Uncompressed size of the rows (what ``datasets`` calls a split's ``num_bytes``)."""
    download_size: int = 0

    def measure(self, folder: Path) -> None:
        import pyarrow.parquet as pq

        meta = pq.read_metadata(folder / self.data_file)
        self.num_rows = meta.num_rows
        self.num_bytes = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
        self.download_size = (folder / self.data_file).stat().st_size

    def manifest_json(self) -> dict[str, Any]:
        from ragmeter.version import __version__

        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "kind": self.kind,
            "ragmeter_version": __version__,
            "data": {"split": self.split, "path": self.data_file, "num_rows": self.num_rows},
            "files": [CARD, self.data_file, *self.extra_files],
            **self.manifest,
        }


def _clear_folder(folder: Path) -> None:
    if not folder.exists():
        return
    if not folder.is_dir():
        raise FileExistsError(f"{folder} exists and is not a folder")
    if not any(folder.iterdir()):
        return
    if not (folder / MANIFEST).is_file():
        raise FileExistsError(
            f"{folder} is not empty and holds no {MANIFEST}: not overwriting a folder ragmeter did not write"
        )
    old = _read_manifest(folder)
    for rel in [*old["files"], MANIFEST]:
        (folder / _safe_relpath(rel)).unlink(missing_ok=True)
    _remove_datasets_copy(folder)


DATASETS_DICT_FILE = "dataset_dict.json"
"""Marks the folder as a ``datasets.DatasetDict`` directory for ``datasets.load_from_disk``."""


def _write_datasets_copy(folder: Path, split: str, parquet: Path) -> None:
    """Write the rows again in the layout ``datasets.DatasetDict.save_to_disk`` uses (one
    split folder of Arrow files beside ``dataset_dict.json``), so plain
    ``datasets.load_from_disk(folder)`` reads a ragmeter folder too: a ``DatasetDict`` with
    one split (``test``, or ``results`` for a result). It is a local convenience: the Hub
    gets the Parquet files (what its viewer and ``load_dataset`` read), not this copy."""
    import datasets
    import pyarrow.parquet as pq

    copy = datasets.DatasetDict({split: datasets.Dataset(pq.read_table(parquet))})
    bars = datasets.is_progress_bar_enabled()
    datasets.disable_progress_bars()  # a "Saving the dataset" bar for a copy the user did not ask about
    try:
        copy.save_to_disk(str(folder))
    finally:
        if bars:
            datasets.enable_progress_bars()


def _remove_datasets_copy(folder: Path) -> None:
    """Remove what ``_write_datasets_copy`` wrote (the split folders ``dataset_dict.json``
    names, then the file itself); nothing else in the folder is touched."""
    import shutil

    marker = folder / DATASETS_DICT_FILE
    if not marker.is_file():
        return
    try:
        splits = json.loads(marker.read_text(encoding="utf-8")).get("splits", [])
    except (ValueError, AttributeError):
        splits = []
    for split in splits:
        if isinstance(split, str) and split in SPLITS.values():
            shutil.rmtree(folder / split, ignore_errors=True)
    marker.unlink(missing_ok=True)


def _write_table(table: pa.Table, path: Path) -> None:
    import pyarrow.parquet as pq

    pq.write_table(table, path)


def _table(schema: Sequence[Column], columns: Mapping[str, list[Any]]) -> pa.Table:
    import pyarrow as pa

    arrow_schema = pa.schema([(c.name, c.arrow()) for c in schema])
    return pa.table({c.name: columns[c.name] for c in schema}, schema=arrow_schema)


def _json_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _testset_table(testset: Testset) -> pa.Table:
    columns: dict[str, list[Any]] = {c.name: [] for c in testset_schema()}
    for record in testset.records:
        row = record.model_dump(mode="json")
        for column in testset_schema():
            value = row[column.name]
            columns[column.name].append(_json_text(value) if column.type == "json" else value)
    return _table(testset_schema(), columns)


def _result_table(result: EvaluationResult) -> tuple[pa.Table, list[Column]]:
    """The viewer's table of a result: row, the sample's columns, then four per metric.

    A metric whose columns would clash with a sample column is prefixed ``score_``.
    """
    import pyarrow as pa

    result = result.with_samples()
    table = Dataset([s.sample for s in result.samples]).to_arrow()
    table = table.add_column(0, pa.field("row", pa.int64()), pa.array([s.row for s in result.samples], pa.int64()))
    schema = [Column("row", "int64", "Index of the sample in the evaluated source."), *SAMPLE_SCHEMA]
    taken = {c.name for c in schema}
    for metric in result.metric_names:
        base = metric
        names = (base, f"{base}_reason", f"{base}_error", f"{base}_verdicts")
        if taken & set(names):
            base = f"score_{metric}"
        cells: dict[str, list[Any]] = {"": [], "_reason": [], "_error": [], "_verdicts": []}
        for sample in result.samples:
            score = sample.scores.get(metric)
            cells[""].append(score.value if score else None)
            cells["_reason"].append(score.reason if score else None)
            cells["_error"].append(str(score.error) if score and score.error else None)
            verdicts = score.model_dump(mode="json")["verdicts"] if score is not None else None
            cells["_verdicts"].append(_json_text(verdicts) if verdicts is not None else None)
        new = [
            Column(base, "float64", f"{metric}: the score in [0, 1]; null when it failed or was not computed."),
            Column(f"{base}_reason", "string", f"{metric}: why the score is what it is."),
            Column(f"{base}_error", "string", f"{metric}: the typed error (kind: message) when the score failed."),
            Column(f"{base}_verdicts", "json", f"{metric}: JSON of the intermediate judgements behind the score."),
        ]
        for column, suffix in zip(new, cells, strict=True):
            table = table.append_column(pa.field(column.name, column.arrow()), pa.array(cells[suffix], column.arrow()))
            taken.add(column.name)
        schema.extend(new)
    return table, schema


# --- reading --------------------------------------------------------------------------------


def _read_manifest(folder: Path) -> dict[str, Any]:
    path = folder / MANIFEST
    if not path.is_file():
        raise ValueError(f"{folder} holds no {MANIFEST}: it was not written by ragmeter's save_to_disk / push_to_hub")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ValueError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ValueError(f"{path}: not a ragmeter manifest (expected \"format\": {FORMAT!r})")
    version = manifest.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise ValueError(
            f"{path}: format_version {version!r} is newer than this ragmeter reads ({FORMAT_VERSION}); upgrade ragmeter"
        )
    if manifest.get("kind") not in KINDS:
        raise ValueError(f"{path}: unknown kind {manifest.get('kind')!r}; expected one of {', '.join(KINDS)}")
    for rel in manifest.get("files", []):
        _safe_relpath(rel)
    return manifest


def _safe_relpath(rel: Any) -> str:
    """A manifest path must stay inside its folder: it may come from someone else's repo."""
    if not isinstance(rel, str) or not rel:
        raise ValueError(f"{MANIFEST}: expected a relative file path, got {rel!r}")
    pure = PurePosixPath(rel)
    if pure.is_absolute() or ".." in pure.parts or "\\" in rel:
        raise ValueError(f"{MANIFEST}: refusing the path {rel!r}, which leaves the folder")
    return rel


def _read_testset(path: Path, manifest: Mapping[str, Any]) -> Testset:
    from testset_gen.record import Testset, TestsetRecord

    import pyarrow.parquet as pq

    json_columns = {c.name for c in testset_schema() if c.type == "json"}
    records = []
    for i, row in enumerate(pq.read_table(path).to_pylist()):
        try:
            values = {k: (json.loads(v) if k in json_columns and v is not None else v) for k, v in row.items()}
            records.append(TestsetRecord.model_validate(values))
        except ValueError as exc:
            raise ValueError(f"{path}: row {i} is not a test-set record: {exc}") from None
    return Testset(records=records, settings=manifest.get("testset", {}).get("settings", {}))


def _read_dataset(path: Path, manifest: Mapping[str, Any]) -> Dataset:
    loaded = Dataset.from_parquet(path)
    if loaded.errors:
        raise ValueError(f"{path} was written by ragmeter but does not load cleanly:\n  "
                         + "\n  ".join(str(e) for e in loaded.errors[:5]))
    extra = manifest.get("dataset", {})
    rows = extra.get("rows")
    return Dataset(
        loaded.samples,
        rows=rows,
        errors=[RowError.model_validate(e) for e in extra.get("errors", [])],
        source=extra.get("source"),
    )


def _as_kind(obj: HubObject, stored: Kind, wanted: Kind | None, *, where: str) -> HubObject:
    if wanted is None or wanted == stored:
        return obj
    if wanted not in KINDS:
        raise ValueError(f"unknown kind {wanted!r}; expected one of {', '.join(KINDS)}")
    if wanted == "dataset":
        if kind_of(obj) == "testset":
            return cast("Testset", obj).to_dataset()
        if isinstance(obj, EvaluationResult):
            return Dataset(
                [s.sample for s in obj.samples], rows=[s.row for s in obj.samples],
                errors=obj.input_errors, source=obj.info.source,
            )
    raise ValueError(f"{where} holds a {stored}, not a {wanted}")


# --- Hub plumbing ---------------------------------------------------------------------------


def _endpoint(endpoint: str | None) -> str | None:
    """The argument, else ``HF_ENDPOINT`` as it is now (huggingface_hub reads it once, at import)."""
    chosen = endpoint or os.environ.get("HF_ENDPOINT") or None
    return chosen.rstrip("/") if chosen else None


def _require_token(token: str | None) -> str:
    """Pushing needs a write token; say so before any request instead of after a 401."""
    if token:
        return token
    from huggingface_hub import get_token

    saved = get_token()
    if not saved:
        raise PermissionError(
            "pushing to the Hub needs a token with write access: pass token=... (--token), "
            "set HF_TOKEN, or run `hf auth login`"
        )
    return saved


# --- the dataset card -----------------------------------------------------------------------


def _size_category(n: int) -> str:
    bounds = [(1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M"),
              (10_000_000, "1M<n<10M"), (100_000_000, "10M<n<100M"), (1_000_000_000, "100M<n<1B")]
    for bound, name in bounds:
        if n < bound:
            return name
    return "n>1B"


def _front_matter(written: _Written, *, pretty_name: str, license: str) -> dict[str, Any]:
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


def _card(obj: HubObject, written: _Written, *, repo_id: str | None, license: str) -> str:
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


def _how_to_load(written: _Written, repo: str) -> str:
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


__all__ = [
    "KINDS",
    "Column",
    "HubObject",
    "HubUnreachable",
    "Kind",
    "kind_of",
    "load_from_disk",
    "load_from_hub",
    "push_to_hub",
    "reaching_the_hub",
    "save_to_disk",
]
