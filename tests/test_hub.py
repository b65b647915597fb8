"""Hub publishing: the folder layout, the dataset card, and push/load against a local fake Hub.

The fake (tests/fake_hub.py, shared with the NLI-model download tests) is a real HTTP server
on 127.0.0.1; everything between ragmeter and the Hub (HfApi, its HTTP client, headers,
errors, the download cache) runs for real. The client used in these tests refuses any host
but 127.0.0.1, and the Hugging Face home, cache and token file point into tmp_path.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pyarrow.parquet as pq
import pytest
import yaml
from typer.testing import CliRunner

from ragmeter import evaluate
from ragmeter.calls.usage import Usage
from ragmeter.cli.app import app
from ragmeter.data import Dataset, RowError, Sample
from ragmeter.hub import (
    MANIFEST,
    SAMPLE_SCHEMA,
    testset_schema as schema_of_testsets,  # not test_*-like: pytest would collect it
    kind_of,
    load_from_disk,
    load_from_hub,
    push_to_hub,
    save_to_disk,
)
from ragmeter.result import EvaluationResult
from testset_gen.record import Testset, TestsetRecord

from fake_hub import TOKEN, USER, Commit, Repo, commit_sha, hub  # noqa: F401 (hub: the fixture)


def test_the_fake_hub_fixture_lets_nothing_leave_the_machine(hub):
    from huggingface_hub import get_session

    with pytest.raises(RuntimeError, match="only 127.0.0.1 is allowed"):
        get_session().get("https://huggingface.co/api/whoami-v2")
    assert hub.requests == []


# --- objects to publish -------------------------------------------------------------------------


def make_testset() -> Testset:
    kinds = ["simple", "reasoning", "multi_context"]
    records = [
        TestsetRecord(
            id=f"t{i}",
            question=f"What does step {i} of the pipeline do?",
            ground_truth=f"Step {i} chunks | embeds\nthe documents (é, 東京).",
            reference_contexts=[f"Step {i} chunks the documents.", "Then it embeds them."],
            evolution_type=kind,  # type: ignore[arg-type]
            reference_context_ids=[f"doc{i}:0", f"doc{i}:1"],
            sources=[{"path": f"docs/{i}.md", "start": 0, "end": 42, "title": None}],
            metadata={"critic": {"score": 0.875, "passed": True}, "hops": [1, 2]} if i else {},
        )
        for i, kind in enumerate(kinds)
    ]
    settings = {
        "size": 3, "distribution": {"simple": 0.5, "reasoning": 0.25, "multi_context": 0.25}, "seed": 7,
        "judge": "openai:gpt-4o-mini", "chunk_tokens": 256, "overlap_tokens": 32, "documents": 3,
        "chunks": 9, "run": "0123456789abcdef",
    }
    return Testset(records=records, settings=settings)


def make_dataset() -> Dataset:
    samples = [
        Sample(id="a", question="Capital of France?", answer="Paris.", contexts=["Paris is the capital."],
               ground_truth="Paris", reference_contexts=["Paris is the capital of France."],
               retrieved_context_ids=["7", "9"], reference_context_ids=["7"],
               metadata={"latency_ms": 812, "labels": {"kind": "easy"}, "score": 0.1}),
        Sample(question="Who wrote it?", answer="", contexts=[], ground_truth="Nobody knows."),
        Sample(id="c", question="Empty?", metadata={"note": "a | pipe\nand a newline"}),
    ]
    errors = [RowError(row=1, field="contexts", message="expected a list of strings, got int", line=2)]
    return Dataset(samples, rows=[0, 2, 3], errors=errors, source="evals/rag.jsonl")


def make_result() -> EvaluationResult:
    records = [
        {"id": "a", "question": "Capital of France?", "answer": "Paris is the capital of France.",
         "ground_truth": "Paris is the capital of France.", "metadata": {"kind": "good"}},
        {"id": "b", "question": "Capital of Italy?", "answer": "Milan.", "ground_truth": "Rome."},
        {"id": "c", "question": "No answer here", "ground_truth": "Something."},
    ]
    result = evaluate(records, ["token_f1", "exact_match"], cache=False, journal=False, show_progress=False)
    result.usage = {
        "judge": Usage(calls=12, cache_hits=3, retries=1, prompt_tokens=1500, completion_tokens=220, cost=0.00123),
        "embedder": Usage(calls=2, prompt_tokens=300, cost=None),
    }
    result.input_errors = [RowError(row=3, field="answer", message="expected a string, got int", line=4)]
    result.info.judge = "openai:gpt-4o-mini"
    return result


MAKERS = {"testset": make_testset, "dataset": make_dataset, "result": make_result}


def same(a: Any, b: Any) -> bool:
    """Equality for the three kinds (Dataset has no ``==``: compare everything it holds)."""
    if isinstance(a, Dataset) and isinstance(b, Dataset):
        return (a.samples, a.rows, a.errors, a.source) == (b.samples, b.rows, b.errors, b.source)
    return type(a) is type(b) and a == b


def front_matter(card: str) -> tuple[dict[str, Any], str]:
    match = re.match(r"\A---\n(.*?\n)---\n(.*)\Z", card, re.S)
    assert match, "the card must start with YAML front matter between --- lines"
    return yaml.safe_load(match.group(1)), match.group(2)


# --- local folders ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(MAKERS))
def test_save_and_load_from_disk_keep_every_field(tmp_path, kind):
    obj = MAKERS[kind]()
    folder = save_to_disk(obj, tmp_path / kind)
    loaded = load_from_disk(folder)
    assert same(loaded, obj)
    assert kind_of(loaded) == kind
    manifest = json.loads((folder / MANIFEST).read_text())
    assert manifest["kind"] == kind
    for rel in manifest["files"]:
        assert (folder / rel).is_file()


def test_round_trip_details_survive(tmp_path):
    """Spot checks of what a lossy writer would drop: settings, rows, errors, verdicts, usage."""
    testset = load_from_disk(save_to_disk(make_testset(), tmp_path / "t"))
    assert testset.settings["distribution"] == {"simple": 0.5, "reasoning": 0.25, "multi_context": 0.25}
    assert testset.records[1].metadata == {"critic": {"score": 0.875, "passed": True}, "hops": [1, 2]}
    assert testset.records[0].sources[0]["title"] is None

    dataset = load_from_disk(save_to_disk(make_dataset(), tmp_path / "d"))
    assert dataset.rows == [0, 2, 3] and dataset.source == "evals/rag.jsonl"
    assert dataset.errors[0].field == "contexts" and dataset.errors[0].line == 2
    assert dataset.samples[1].contexts == [] and dataset.samples[1].answer == ""

    result = load_from_disk(save_to_disk(make_result(), tmp_path / "r"))
    failed = result.samples[2].scores["token_f1"]
    assert failed.value is None and failed.error is not None and failed.error.kind == "MissingInput"
    assert result.samples[0].scores["token_f1"].verdicts["recall"] == 1.0
    assert result.usage["judge"].cost == 0.00123 and result.usage["embedder"].cost is None
    assert result.input_errors[0].row == 3


def test_load_as_dataset_converts_testsets_and_results(tmp_path):
    from_testset = load_from_disk(save_to_disk(make_testset(), tmp_path / "t"), kind="dataset")
    assert isinstance(from_testset, Dataset) and [s.id for s in from_testset] == ["t0", "t1", "t2"]
    from_result = load_from_disk(save_to_disk(make_result(), tmp_path / "r"), kind="dataset")
    assert isinstance(from_result, Dataset) and from_result.errors[0].row == 3
    with pytest.raises(ValueError, match="holds a dataset, not a result"):
        load_from_disk(save_to_disk(make_dataset(), tmp_path / "d"), kind="result")


def test_save_to_disk_refuses_a_foreign_folder_and_replaces_its_own(tmp_path):
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    with pytest.raises(FileExistsError, match="not overwriting"):
        save_to_disk(make_testset(), foreign)
    assert (foreign / "notes.txt").read_text() == "keep me"

    folder = save_to_disk(make_result(), tmp_path / "ours")
    save_to_disk(make_testset(), folder)  # a result replaced by a test set: no stale result.json
    assert not (folder / "result.json").exists()
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) == [
        "README.md", "data/test-00000-of-00001.parquet", "dataset_dict.json", "ragmeter.json",
        "test/data-00000-of-00001.arrow", "test/dataset_info.json", "test/state.json",
    ]  # the result's "results/" copy for datasets.load_from_disk went with it
    assert same(load_from_disk(folder), make_testset())


@pytest.mark.parametrize(("make", "split", "rows"), [("testset", "test", 3), ("dataset", "test", None), ("result", "results", None)])
def test_a_saved_folder_also_loads_with_plain_datasets_load_from_disk(tmp_path, make, split, rows):
    import datasets

    obj = {"testset": make_testset, "dataset": make_dataset, "result": make_result}[make]()
    folder = save_to_disk(obj, tmp_path / make)
    loaded = datasets.load_from_disk(str(folder))
    assert isinstance(loaded, datasets.DatasetDict) and list(loaded) == [split]
    table = loaded[split]
    expected = pq.read_table(folder / f"data/{split}-00000-of-00001.parquet")
    assert table.num_rows == expected.num_rows == (rows if rows is not None else expected.num_rows)
    assert table.column_names == expected.column_names
    assert table.to_pandas().equals(expected.to_pandas())
    assert same(load_from_disk(folder), obj)  # ragmeter reads the same folder whole


def test_an_unreachable_hub_is_a_ragmeter_error_naming_the_repo(hub):
    from ragmeter.hub import HubUnreachable

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(HubUnreachable, match=rf"cannot download me/evalset at http://127.0.0.1:{port}: ConnectError") as info:
        load_from_hub("me/evalset", endpoint=f"http://127.0.0.1:{port}")
    assert "check the network" in str(info.value) and info.value.transient
    with pytest.raises(HubUnreachable, match="cannot push to me/evalset"):
        push_to_hub(make_dataset(), "me/evalset", token="hf_x", endpoint=f"http://127.0.0.1:{port}")


def test_load_from_disk_rejects_other_folders_and_escaping_paths(tmp_path):
    with pytest.raises(ValueError, match="holds no ragmeter.json"):
        load_from_disk(tmp_path)
    folder = save_to_disk(make_testset(), tmp_path / "t")
    manifest = json.loads((folder / MANIFEST).read_text())
    manifest["files"].append("../../etc/passwd")
    (folder / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(ValueError, match="leaves the folder"):
        load_from_disk(folder)


def test_the_card_is_read_by_datasets(tmp_path):
    """``datasets`` finds the split and features through the card's ``configs``."""
    import datasets

    folder = save_to_disk(make_result(), tmp_path / "r")
    loaded = datasets.load_dataset(str(folder), cache_dir=str(tmp_path / "ds-cache"))
    assert list(loaded) == ["results"]
    table = loaded["results"]
    assert table.num_rows == 3 and table["token_f1"][2] is None
    assert table["token_f1_error"][2].startswith("MissingInput: ")
    assert str(table.features["contexts"]).startswith("List(")


# --- push ---------------------------------------------------------------------------------------


def test_push_creates_a_private_dataset_repo_and_uploads_the_folder(hub, tmp_path):
    testset = make_testset()
    url = push_to_hub(testset, "alice/rag-questions", token=TOKEN, endpoint=hub.base_url)
    assert url == f"{hub.base_url}/datasets/alice/rag-questions"

    (create,) = hub.calls("create")
    assert create.json() == {"name": "rag-questions", "organization": "alice", "visibility": "private",
                             "type": "dataset"}
    assert all(r.headers.get("authorization") == f"Bearer {TOKEN}" for r in hub.requests)
    assert hub.repos["alice/rag-questions"].private

    (commit,) = hub.calls("commit")
    lines = commit.ndjson()
    assert lines[0] == {"key": "header", "value": {"summary": "ragmeter: upload testset (3 rows)", "description": ""}}
    uploaded = {line["value"]["path"]: base64.b64decode(line["value"]["content"]) for line in lines[1:]}
    assert sorted(uploaded) == ["README.md", "data/test-00000-of-00001.parquet", "ragmeter.json"]
    local = save_to_disk(testset, tmp_path / "local", repo_id="alice/rag-questions")
    for path, content in uploaded.items():
        assert content == (local / path).read_bytes(), path
    (preupload,) = hub.calls("preupload")
    assert sorted(f["path"] for f in preupload.json()["files"]) == sorted(uploaded)


def test_testset_card_has_front_matter_schema_settings_and_loading(hub):
    push_to_hub(make_testset(), "alice/qs", token=TOKEN, endpoint=hub.base_url)
    card = hub.repos["alice/qs"].commits[-1].files["README.md"].decode()
    meta, body = front_matter(card)
    assert meta["license"] == "unknown"
    assert {"ragmeter", "rag", "evaluation", "synthetic"} <= set(meta["tags"])
    assert meta["task_categories"] == ["question-answering"]
    assert meta["size_categories"] == ["n<1K"]
    assert meta["configs"] == [{"config_name": "default",
                                "data_files": [{"split": "test", "path": "data/test-00000-of-00001.parquet"}]}]
    info = meta["dataset_info"]
    assert [f["name"] for f in info["features"]] == [c.name for c in schema_of_testsets()]
    assert {"name": "reference_contexts", "list": "string"} in info["features"]
    assert info["splits"][0]["name"] == "test" and info["splits"][0]["num_examples"] == 3

    assert "## Schema" in body
    for column in schema_of_testsets():
        assert f"| {column.name} | {column.type} | {column.meaning} |" in body
    settings = body.split("## Generation settings", 1)[1].split("\n## ", 1)[0]
    for line in ("| seed | 7 |", "| judge | openai:gpt-4o-mini |", "| size | 3 |",
                 '| distribution | {"simple": 0.5, "reasoning": 0.25, "multi_context": 0.25} |'):
        assert line in settings
    assert "| multi_context | 1 |" in settings
    assert 'load_from_hub("alice/qs")' in body and 'load_dataset("alice/qs", split="test")' in body


def test_result_card_has_the_metric_summary_and_usage(hub):
    result = make_result()
    push_to_hub(result, "alice/run-1", token=TOKEN, endpoint=hub.base_url)
    files = hub.repos["alice/run-1"].commits[-1].files
    assert sorted(files) == [".gitattributes", "README.md", "data/results-00000-of-00001.parquet",
                             "ragmeter.json", "result.json"]
    meta, body = front_matter(files["README.md"].decode())
    assert meta["configs"][0]["data_files"] == [{"split": "results", "path": "data/results-00000-of-00001.parquet"}]
    names = [f["name"] for f in meta["dataset_info"]["features"]]
    assert names[:len(SAMPLE_SCHEMA) + 1] == ["row", *(c.name for c in SAMPLE_SCHEMA)]
    assert {"token_f1", "token_f1_reason", "token_f1_error", "token_f1_verdicts", "exact_match"} <= set(names)

    summary = result.summary()
    section = body.split("## Metric summary", 1)[1]
    assert f"| token_f1 | {summary['token_f1'].mean:.3f} | 2 | 1 | MissingInput 1 |" in section
    assert f"| exact_match | {summary['exact_match'].mean:.3f} | 2 | 1 | MissingInput 1 |" in section
    assert f"**Summary score**: {result.summary_score():.3f}" in section
    assert "| judge | openai:gpt-4o-mini |" in section
    assert "| judge | 12 | 3 | 1 | 1500 | 220 | 0.001230 |" in section
    assert "| total | 14 | 3 | 1 | 1800 | 220 | 0.001230 |" in section
    assert json.loads(files["result.json"]) == json.loads(result.model_dump_json())


def test_dataset_card_lists_the_source_and_the_rows_left_out(hub):
    push_to_hub(make_dataset(), "alice/evalset", token=TOKEN, endpoint=hub.base_url)
    _, body = front_matter(hub.repos["alice/evalset"].commits[-1].files["README.md"].decode())
    assert "| source | evals/rag.jsonl |" in body
    assert "| rows that could not be loaded | 1 |" in body
    assert "row 1 (line 2), field 'contexts': expected a list of strings, got int" in body
    assert "| metadata | json |" in body


def test_push_public_and_into_an_organization(hub):
    push_to_hub(make_dataset(), "acme/evalset", private=False, token=TOKEN, endpoint=hub.base_url)
    (create,) = hub.calls("create")
    assert create.json()["visibility"] == "public" and create.json()["organization"] == "acme"
    assert not hub.repos["acme/evalset"].private


def test_push_takes_the_token_and_endpoint_from_the_environment(hub, monkeypatch):
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    monkeypatch.setenv("HF_ENDPOINT", hub.base_url)
    url = push_to_hub(make_testset(), "alice/env")
    assert url.startswith(hub.base_url)
    assert all(r.headers.get("authorization") == f"Bearer {TOKEN}" for r in hub.requests)


def test_push_without_a_token_fails_before_any_request(hub):
    with pytest.raises(PermissionError, match="token with write access"):
        push_to_hub(make_testset(), "alice/x", endpoint=hub.base_url)
    assert hub.requests == []


def test_pushing_the_same_object_twice_makes_no_second_commit(hub):
    """The files are deterministic, so huggingface_hub sees nothing changed and skips the commit."""
    result = make_result()
    push_to_hub(result, "alice/same", token=TOKEN, endpoint=hub.base_url)
    rebuilt = EvaluationResult.model_validate_json(result.model_dump_json())  # as another process would
    push_to_hub(rebuilt, "alice/same", token=TOKEN, endpoint=hub.base_url)
    assert len(hub.calls("commit")) == 1
    assert len(hub.repos["alice/same"].commits) == 2  # the initial one and ours


# --- load -----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(MAKERS))
def test_push_then_load_gives_back_an_equal_object(hub, tmp_path, kind):
    obj = MAKERS[kind]()
    push_to_hub(obj, f"alice/{kind}", token=TOKEN, endpoint=hub.base_url)
    loaded = load_from_hub(f"alice/{kind}", token=TOKEN, endpoint=hub.base_url, cache_dir=tmp_path / "cache")
    assert same(loaded, obj)
    # every download was pinned to the commit dataset_info resolved
    sha = hub.repos[f"alice/{kind}"].commits[-1].sha
    resolves = hub.calls("resolve")
    assert resolves and all(f"/resolve/{sha}/" in r.path for r in resolves)
    assert {r.path.split(f"/resolve/{sha}/", 1)[1] for r in resolves} >= {"ragmeter.json"}


def test_load_uses_the_default_cache_and_an_older_revision(hub):
    first, second = make_testset(), make_testset()
    second.settings["seed"] = 8
    push_to_hub(first, "alice/versions", token=TOKEN, endpoint=hub.base_url)
    old_sha = hub.repos["alice/versions"].commits[-1].sha
    push_to_hub(second, "alice/versions", token=TOKEN, endpoint=hub.base_url)
    assert load_from_hub("alice/versions", token=TOKEN, endpoint=hub.base_url).settings["seed"] == 8
    assert load_from_hub("alice/versions", revision=old_sha, token=TOKEN, endpoint=hub.base_url) == first
    from huggingface_hub import constants

    assert any(Path(constants.HF_HUB_CACHE).glob("datasets--alice--versions/snapshots/*/ragmeter.json"))


def test_load_errors_are_explicit(hub):
    push_to_hub(make_dataset(), "alice/d", token=TOKEN, endpoint=hub.base_url)
    with pytest.raises(ValueError, match="holds a dataset, not a testset"):
        load_from_hub("alice/d", kind="testset", token=TOKEN, endpoint=hub.base_url)
    # a private repo without the token
    from huggingface_hub.errors import RepositoryNotFoundError

    with pytest.raises(RepositoryNotFoundError):
        load_from_hub("alice/d", endpoint=hub.base_url)
    # a repo ragmeter did not write
    hub.repos["alice/plain"] = Repo("alice/plain", private=False,
                                    commits=[Commit(commit_sha("p"), "init", {"data.csv": b"a,b\n1,2\n"})])
    with pytest.raises(ValueError, match="has no ragmeter.json"):
        load_from_hub("alice/plain", endpoint=hub.base_url)


# --- CLI ----------------------------------------------------------------------------------------

runner = CliRunner()


def test_cli_push_detects_what_the_file_holds(hub, tmp_path):
    testset_file = make_testset().to_jsonl(tmp_path / "testset.jsonl")
    result_file = make_result().save(tmp_path / "result.json")
    dataset_file = tmp_path / "data.csv"
    make_dataset().to_csv(dataset_file)
    folder = save_to_disk(make_testset(), tmp_path / "saved")
    for path, repo, kind in [(testset_file, "alice/t", "testset"), (result_file, "alice/r", "result"),
                             (dataset_file, "alice/d", "dataset"), (folder, "alice/f", "testset")]:
        res = runner.invoke(app, ["push", str(path), repo, "--token", TOKEN, "--endpoint", hub.base_url])
        assert res.exit_code == 0, res.output
        assert res.stdout.strip() == f"{hub.base_url}/datasets/{repo}"
        manifest = json.loads(hub.repos[repo].commits[-1].files["ragmeter.json"])
        assert manifest["kind"] == kind
    assert all(c.json()["visibility"] == "private" for c in hub.calls("create"))
    assert load_from_hub("alice/f", token=TOKEN, endpoint=hub.base_url) == make_testset()  # settings kept
    assert load_from_hub("alice/t", token=TOKEN, endpoint=hub.base_url).settings == {}  # a JSONL has none

    res = runner.invoke(app, ["push", str(testset_file), "alice/pub", "--public", "--token", TOKEN,
                              "--endpoint", hub.base_url])
    assert res.exit_code == 0, res.output
    assert hub.calls("create")[-1].json()["visibility"] == "public"


def test_cli_push_without_token_is_a_clean_error(hub, tmp_path):
    path = make_testset().to_jsonl(tmp_path / "t.jsonl")
    res = runner.invoke(app, ["push", str(path), "alice/t", "--endpoint", hub.base_url])
    assert res.exit_code == 2
    assert "token with write access" in res.stderr


def test_cli_pull_to_a_folder_and_to_files(hub, tmp_path):
    result = make_result()
    push_to_hub(result, "alice/r", token=TOKEN, endpoint=hub.base_url)
    push_to_hub(make_testset(), "alice/t", token=TOKEN, endpoint=hub.base_url)
    common = ["--token", TOKEN, "--endpoint", hub.base_url]

    res = runner.invoke(app, ["pull", "alice/r", "--out", str(tmp_path / "folder"), *common])
    assert res.exit_code == 0, res.output
    assert load_from_disk(tmp_path / "folder") == result

    res = runner.invoke(app, ["pull", "alice/r", "--out", str(tmp_path / "r.json"), *common])
    assert res.exit_code == 0, res.output
    assert EvaluationResult.load(tmp_path / "r.json") == result

    res = runner.invoke(app, ["pull", "alice/r", "--kind", "dataset", "--out", str(tmp_path / "s.jsonl"), *common])
    assert res.exit_code == 0, res.output
    assert [s.id for s in Dataset.from_jsonl(tmp_path / "s.jsonl")] == ["a", "b", "c"]

    res = runner.invoke(app, ["pull", "alice/t", "--out", str(tmp_path / "t.jsonl"), *common])
    assert res.exit_code == 0, res.output
    assert Testset.from_jsonl(tmp_path / "t.jsonl").records == make_testset().records
    assert "pull to a folder to keep the settings" in res.stderr

    res = runner.invoke(app, ["pull", "alice/t", "--out", str(tmp_path / "t.csv"), *common])
    assert res.exit_code == 2 and "a test set is written as .jsonl" in res.stderr


def test_offline_mode_is_named_as_what_to_check(monkeypatch):
    from huggingface_hub import constants

    from ragmeter.hub import HubUnreachable

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(HubUnreachable, match=r"cannot download me/evalset at .*; HF_HUB_OFFLINE is set: unset it"):
        load_from_hub("me/evalset", endpoint="http://127.0.0.1:9")
