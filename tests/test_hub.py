"""Hub publishing: the folder layout, the dataset card, and push/load against a local fake Hub.

The fake is a real HTTP server on 127.0.0.1 implementing only the endpoints huggingface_hub
2.x calls for ``create_repo``, ``create_commit`` (validate-yaml, preupload with every file
"regular", the ndjson commit) and ``dataset_info`` + ``hf_hub_download`` (revision, resolve).
Everything between ragmeter and the Hub (HfApi, its HTTP client, headers, errors, the
download cache) runs for real. The client used in these tests refuses any host but
127.0.0.1, and the Hugging Face home, cache and token file point into tmp_path.
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

TOKEN = "hf_test_write_token"
USER = "alice"


# --- the fake Hub -----------------------------------------------------------------------------


def git_blob_sha(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@dataclass
class Commit:
    sha: str
    message: str
    files: dict[str, bytes]


@dataclass
class Repo:
    repo_id: str
    private: bool
    commits: list[Commit] = field(default_factory=list)

    def resolve(self, revision: str) -> Commit | None:
        if revision == "main":
            return self.commits[-1]
        return next((c for c in self.commits if c.sha == revision), None)


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]  # names lower-cased
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def ndjson(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.body.decode().splitlines() if line.strip()]


_ROUTES: list[tuple[str, re.Pattern[str], str]] = [
    ("POST", re.compile(r"/api/repos/create"), "create"),
    ("POST", re.compile(r"/api/validate-yaml"), "validate_yaml"),
    ("POST", re.compile(r"/api/datasets/(?P<repo>[^/]+/[^/]+)/preupload/(?P<rev>[^/]+)"), "preupload"),
    ("POST", re.compile(r"/api/datasets/(?P<repo>[^/]+/[^/]+)/commit/(?P<rev>[^/]+)"), "commit"),
    ("GET", re.compile(r"/api/datasets/(?P<repo>[^/]+/[^/]+)(?:/revision/(?P<rev>[^/]+))?"), "info"),
    ("GET", re.compile(r"/datasets/(?P<repo>[^/]+/[^/]+)/resolve/(?P<rev>[^/]+)/(?P<file>.+)"), "resolve"),
    ("HEAD", re.compile(r"/datasets/(?P<repo>[^/]+/[^/]+)/resolve/(?P<rev>[^/]+)/(?P<file>.+)"), "resolve"),
]


class FakeHub:
    """A Hub on 127.0.0.1: dataset repos with commits, and a log of every request."""

    def __init__(self) -> None:
        self.repos: dict[str, Repo] = {}
        self.requests: list[Recorded] = []
        self.unknown: list[str] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> FakeHub:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def calls(self, name: str) -> list[Recorded]:
        return [r for r in self.requests if _route_name(r.method, r.path) == name]

    # --- endpoint logic: returns (status, headers, body) -------------------------------------

    def _authorized(self, req: Recorded) -> bool:
        return req.headers.get("authorization") == f"Bearer {TOKEN}"

    def create(self, req: Recorded) -> tuple[int, dict[str, str], Any]:
        if not self._authorized(req):
            return 401, {}, {"error": "Invalid credentials in Authorization header"}
        body = req.json()
        if body.get("type") != "dataset":
            return 400, {}, {"error": f"this fake only hosts datasets, got {body.get('type')!r}"}
        repo_id = f"{body.get('organization') or USER}/{body['name']}"
        url = f"{self.base_url}/datasets/{repo_id}"
        if repo_id in self.repos:
            return 409, {}, {"error": "You already created this dataset repo", "url": url}
        repo = Repo(repo_id, private=body.get("visibility") == "private")
        attributes = b"*.parquet filter=lfs diff=lfs merge=lfs -text\n"
        repo.commits.append(Commit(_sha("initial", repo_id), "initial commit", {".gitattributes": attributes}))
        self.repos[repo_id] = repo
        return 200, {}, {"url": url, "name": repo_id}

    def validate_yaml(self, req: Recorded) -> tuple[int, dict[str, str], Any]:
        content = req.json()["content"]
        match = re.match(r"\A---\n(.*?\n)---\n", content, re.S)
        if match is None:
            return 200, {}, {"errors": [], "warnings": [{"message": "empty or missing yaml metadata"}]}
        try:
            data = yaml.safe_load(match.group(1))
        except yaml.YAMLError as exc:
            return 400, {}, {"errors": [{"message": str(exc)}]}
        if not isinstance(data, dict):
            return 400, {}, {"errors": [{"message": "metadata must be a mapping"}]}
        return 200, {}, {"errors": [], "warnings": []}

    def _repo(self, req: Recorded, repo_id: str) -> Repo | tuple[int, dict[str, str], Any]:
        repo = self.repos.get(repo_id)
        if repo is None or (repo.private and not self._authorized(req)):
            return 404 if repo is None else 401, {"X-Error-Code": "RepoNotFound"}, {"error": "Repository not found"}
        return repo

    def preupload(self, req: Recorded, repo: str, rev: str) -> tuple[int, dict[str, str], Any]:
        found = self._repo(req, repo)
        if not isinstance(found, Repo):
            return found
        if not self._authorized(req):
            return 401, {}, {"error": "write access needed"}
        head = found.resolve(unquote(rev))
        files = []
        for item in req.json()["files"]:
            existing = head.files.get(item["path"]) if head else None
            files.append({
                "path": item["path"], "uploadMode": "regular", "shouldIgnore": False,
                "oid": git_blob_sha(existing) if existing is not None else None,
            })
        return 200, {}, {"files": files, "commitOid": head.sha if head else None}

    def commit(self, req: Recorded, repo: str, rev: str) -> tuple[int, dict[str, str], Any]:
        found = self._repo(req, repo)
        if not isinstance(found, Repo):
            return found
        if not self._authorized(req):
            return 401, {}, {"error": "write access needed"}
        if unquote(rev) != "main":
            return 400, {}, {"error": "this fake commits to main only"}
        lines = req.ndjson()
        if not lines or lines[0]["key"] != "header":
            return 400, {}, {"error": "the first ndjson line must be the header"}
        files = dict(found.commits[-1].files)
        for line in lines[1:]:
            value = line["value"]
            if line["key"] == "file" and value.get("encoding") == "base64":
                files[value["path"]] = base64.b64decode(value["content"])
            elif line["key"] == "deletedFile":
                files.pop(value["path"], None)
            else:  # lfsFile never happens: preupload answered "regular" for everything
                return 400, {}, {"error": f"unsupported commit operation {line['key']!r}"}
        sha = _sha(found.commits[-1].sha, *(f"{p}:{git_blob_sha(b)}" for p, b in sorted(files.items())))
        found.commits.append(Commit(sha, lines[0]["value"]["summary"], files))
        return 200, {}, {"commitUrl": f"{self.base_url}/datasets/{repo}/commit/{sha}", "commitOid": sha,
                         "success": True}

    def info(self, req: Recorded, repo: str, rev: str | None) -> tuple[int, dict[str, str], Any]:
        found = self._repo(req, repo)
        if not isinstance(found, Repo):
            return found
        commit = found.resolve(unquote(rev or "main"))
        if commit is None:
            return 404, {"X-Error-Code": "RevisionNotFound"}, {"error": f"Invalid rev id: {rev}"}
        return 200, {}, {"id": repo, "sha": commit.sha, "private": found.private,
                         "siblings": [{"rfilename": p} for p in sorted(commit.files)]}

    def resolve(self, req: Recorded, repo: str, rev: str, file: str) -> tuple[int, dict[str, str], Any]:
        found = self._repo(req, repo)
        if not isinstance(found, Repo):
            return found
        commit = found.resolve(unquote(rev))
        if commit is None:
            return 404, {"X-Error-Code": "RevisionNotFound"}, {"error": f"Invalid rev id: {rev}"}
        data = commit.files.get(unquote(file))
        if data is None:
            return 404, {"X-Error-Code": "EntryNotFound", "X-Repo-Commit": commit.sha}, {"error": "Entry not found"}
        return 200, {"ETag": f'"{git_blob_sha(data)}"', "X-Repo-Commit": commit.sha,
                     "Content-Type": "application/octet-stream"}, data

    # --- HTTP -------------------------------------------------------------------------------

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        hub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def _serve(self) -> None:
                url = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                req = Recorded(self.command, unquote(url.path), parse_qs(url.query),
                               {k.lower(): v for k, v in self.headers.items()},
                               self.rfile.read(length) if length else b"")
                with hub._lock:
                    hub.requests.append(req)
                    status, headers, body = hub._dispatch(req, url.path)
                payload = body if isinstance(body, bytes) else json.dumps(body).encode()
                self.send_response(status)
                if not isinstance(body, bytes):
                    self.send_header("Content-Type", "application/json")
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(payload)

            do_GET = do_POST = do_HEAD = _serve

        return Handler

    def _dispatch(self, req: Recorded, raw_path: str) -> tuple[int, dict[str, str], Any]:
        for method, pattern, name in _ROUTES:
            match = pattern.fullmatch(raw_path)
            if match and method == req.method:
                args = {k: (unquote(v) if k == "repo" and v else v) for k, v in match.groupdict().items()}
                return getattr(self, name)(req, **args)
        self.unknown.append(f"{req.method} {raw_path}")
        return 404, {}, {"error": f"the fake Hub does not implement {req.method} {raw_path}"}


def _route_name(method: str, path: str) -> str | None:
    for m, pattern, name in _ROUTES:
        if m == method and pattern.fullmatch(path):
            return name
    return None


def _sha(*parts: str) -> str:
    return hashlib.sha1("\n".join(parts).encode()).hexdigest()


@pytest.fixture
def hub(tmp_path, monkeypatch):
    """The fake Hub, with huggingface_hub pointed at it and nothing else.

    HF_HUB_OFFLINE is lifted for these tests only, and the client refuses any host but
    127.0.0.1; home, cache and token file are in tmp_path, so the user's are never touched.
    """
    import httpx2
    from huggingface_hub import constants, set_client_factory
    from huggingface_hub.utils import _http

    home = tmp_path / "hf-home"
    for name in ("HF_HUB_OFFLINE", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HF_ENDPOINT", "TRANSFORMERS_OFFLINE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HF_HOME", str(home))
    monkeypatch.setenv("HF_HUB_CACHE", str(home / "hub"))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(constants, "HF_HOME", str(home))
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(home / "hub"))
    monkeypatch.setattr(constants, "HF_TOKEN_PATH", str(home / "token"))
    monkeypatch.setattr(constants, "HF_STORED_TOKENS_PATH", str(home / "stored_tokens"))

    def loopback_only(request: httpx2.Request) -> None:
        if request.url.host != "127.0.0.1":
            raise RuntimeError(f"test tried to reach {request.url}; only 127.0.0.1 is allowed")

    original = _http._GLOBAL_CLIENT_FACTORY
    set_client_factory(lambda: httpx2.Client(
        event_hooks={"request": [loopback_only, _http.hf_request_event_hook]},
        follow_redirects=True, timeout=10, trust_env=False,
    ))
    try:
        with FakeHub() as server:
            yield server
    finally:
        set_client_factory(original)
    assert not server.unknown, f"huggingface_hub called endpoints the fake lacks: {server.unknown}"


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
                                    commits=[Commit(_sha("p"), "init", {"data.csv": b"a,b\n1,2\n"})])
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
