"""A fake Hugging Face Hub on 127.0.0.1, shared by the tests that reach a hub.

A real HTTP server implementing only the endpoints huggingface_hub 2.x calls: for datasets,
``create_repo``, ``create_commit`` (validate-yaml, preupload with every file "regular", the
ndjson commit), ``dataset_info`` and ``hf_hub_download`` (revision, resolve); for models,
``model_info``, the file tree and the same resolve (what ``from_pretrained`` of a hub name
downloads through), and a "none here" to huggingface_hub's look-up of agent harnesses. The ``hub`` fixture points huggingface_hub at it and nothing else: HF_HUB_OFFLINE
is lifted for that test only, its client refuses any host but 127.0.0.1, and the Hugging
Face home, cache and token file are in tmp_path. Any endpoint the fake lacks fails the test.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
import yaml

TOKEN = "hf_test_write_token"
USER = "alice"


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
    # models: no /datasets prefix (seeded with FakeHub.add_model, never pushed)
    ("GET", re.compile(r"/api/models/(?P<repo>[^/]+/[^/]+)(?:/revision/(?P<rev>[^/]+))?"), "info"),
    ("GET", re.compile(r"/api/models/(?P<repo>[^/]+/[^/]+)/tree/(?P<rev>[^/]+)(?:/(?P<folder>.+))?"), "tree"),
    # huggingface_hub's best-effort look-up of AI agent harnesses: answered "none here"
    ("GET", re.compile(r"/api/agent-harnesses"), "agent_harnesses"),
    ("GET", re.compile(r"/(?P<repo>[^/]+/[^/]+)/resolve/(?P<rev>[^/]+)/(?P<file>.+)"), "resolve"),
    ("HEAD", re.compile(r"/(?P<repo>[^/]+/[^/]+)/resolve/(?P<rev>[^/]+)/(?P<file>.+)"), "resolve"),
]


class FakeHub:
    """A Hub on 127.0.0.1: dataset and model repos with commits, and a log of every request."""

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

    def add_model(self, repo_id: str, files: dict[str, bytes]) -> Repo:
        """A public model repo holding ``files`` in one commit (what a model author pushed)."""
        repo = Repo(repo_id, private=False)
        repo.commits.append(Commit(commit_sha("model", repo_id, *sorted(files)), "add model", dict(files)))
        self.repos[repo_id] = repo
        return repo

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
        repo.commits.append(Commit(commit_sha("initial", repo_id), "initial commit", {".gitattributes": attributes}))
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
        sha = commit_sha(found.commits[-1].sha, *(f"{p}:{git_blob_sha(b)}" for p, b in sorted(files.items())))
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

    def tree(self, req: Recorded, repo: str, rev: str, folder: str | None) -> tuple[int, dict[str, str], Any]:
        found = self._repo(req, repo)
        if not isinstance(found, Repo):
            return found
        commit = found.resolve(unquote(rev))
        if commit is None:
            return 404, {"X-Error-Code": "RevisionNotFound"}, {"error": f"Invalid rev id: {rev}"}
        prefix = f"{unquote(folder).rstrip('/')}/" if folder else ""
        entries = [{"type": "file", "path": p, "size": len(b), "oid": git_blob_sha(b)}
                   for p, b in sorted(commit.files.items())
                   if p.startswith(prefix) and "/" not in p[len(prefix):]]
        if prefix and not entries:
            return 404, {"X-Error-Code": "EntryNotFound"}, {"error": f"{folder} does not exist on {rev}"}
        return 200, {}, entries

    def agent_harnesses(self, req: Recorded) -> tuple[int, dict[str, str], Any]:
        return 404, {}, {"error": "not served by the fake Hub"}

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


def commit_sha(*parts: str) -> str:
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

