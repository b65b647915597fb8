"""A folder laid out like a Hub repo: ``save_to_disk`` writes exactly the files
``push_to_hub`` uploads, ``load_from_disk`` reads them back whole. A manifest read here may
come from someone else's repo, so its paths are checked to stay inside the folder."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, cast

from ragmeter.data import Dataset, RowError
from ragmeter.errors import BadFile, InvalidOption
from ragmeter.hub._card import card
from ragmeter.hub._schema import (
    CARD,
    FORMAT,
    FORMAT_VERSION,
    KINDS,
    MANIFEST,
    RESULT_FILE,
    SAMPLE_SCHEMA,
    SPLITS,
    HubObject,
    Kind,
    Written,
    kind_of,
    result_table,
    testset_schema,
    testset_table,
    write_table,
)
from ragmeter.result import EvaluationResult

if TYPE_CHECKING:
    from testset_gen.record import Testset


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
    written = Written(kind=kind, split=split, data_file=data_rel)

    if kind == "testset":
        obj = cast("Testset", obj)
        written.schema = testset_schema()
        write_table(testset_table(obj), folder / data_rel)
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
        table, written.schema = result_table(obj)
        write_table(table, folder / data_rel)
        obj.save(folder / RESULT_FILE)
        written.extra_files.append(RESULT_FILE)
        written.manifest["result"] = {"file": RESULT_FILE}

    written.measure(folder)
    _write_datasets_copy(folder, split, folder / data_rel)
    manifest = written.manifest_json()
    (folder / CARD).write_text(card(obj, written, repo_id=repo_id, license=license), encoding="utf-8")
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return folder


def load_from_disk(path: str | Path, *, kind: Kind | None = None) -> HubObject:
    """Read a folder written by ``save_to_disk`` (or downloaded by ``load_from_hub``).

    ``kind=None`` gives back what the folder holds. ``kind="dataset"`` also reads a test set
    or a result as the ``Dataset`` of its samples; asking for any other kind than the stored
    one is a ``ValueError``.
    """
    folder = Path(path)
    manifest = read_manifest(folder)
    stored: Kind = manifest["kind"]
    data_path = folder / _safe_relpath(manifest["data"]["path"])
    if stored == "testset":
        obj: HubObject = _read_testset(data_path, manifest)
    elif stored == "dataset":
        obj = _read_dataset(data_path, manifest)
    else:
        obj = EvaluationResult.load(folder / _safe_relpath(manifest["result"]["file"]))
    return _as_kind(obj, stored, kind, where=str(folder))


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
    old = read_manifest(folder)
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


# --- reading --------------------------------------------------------------------------------


def read_manifest(folder: Path) -> dict[str, Any]:
    path = folder / MANIFEST
    if not path.is_file():
        raise BadFile(f"{folder} holds no {MANIFEST}: it was not written by ragmeter's save_to_disk / push_to_hub")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise BadFile(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BadFile(f"{path}: not a ragmeter manifest (expected \"format\": {FORMAT!r})")
    version = manifest.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise BadFile(
            f"{path}: format_version {version!r} is newer than this ragmeter reads ({FORMAT_VERSION}); upgrade ragmeter"
        )
    if manifest.get("kind") not in KINDS:
        raise BadFile(f"{path}: unknown kind {manifest.get('kind')!r}; expected one of {', '.join(KINDS)}")
    for rel in manifest.get("files", []):
        _safe_relpath(rel)
    return manifest


def _safe_relpath(rel: Any) -> str:
    """A manifest path must stay inside its folder: it may come from someone else's repo."""
    if not isinstance(rel, str) or not rel:
        raise BadFile(f"{MANIFEST}: expected a relative file path, got {rel!r}")
    pure = PurePosixPath(rel)
    if pure.is_absolute() or ".." in pure.parts or "\\" in rel:
        raise BadFile(f"{MANIFEST}: refusing the path {rel!r}, which leaves the folder")
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
            raise BadFile(f"{path}: row {i} is not a test-set record: {exc}") from None
    return Testset(records=records, settings=manifest.get("testset", {}).get("settings", {}))


def _read_dataset(path: Path, manifest: Mapping[str, Any]) -> Dataset:
    loaded = Dataset.from_parquet(path)
    if loaded.errors:
        raise BadFile(f"{path} was written by ragmeter but does not load cleanly:\n  "
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
        raise InvalidOption(f"unknown kind {wanted!r}; expected one of {', '.join(KINDS)}")
    if wanted == "dataset":
        if kind_of(obj) == "testset":
            return cast("Testset", obj).to_dataset()
        if isinstance(obj, EvaluationResult):
            return Dataset(
                [s.sample for s in obj.samples], rows=[s.row for s in obj.samples],
                errors=obj.input_errors, source=obj.info.source,
            )
    raise InvalidOption(f"{where} holds a {stored}, not a {wanted}")


