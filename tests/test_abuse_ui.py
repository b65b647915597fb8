"""``ragmeter ui`` under abuse: requests addressed to a foreign ``Host`` (what a DNS-rebinding
page sends) get 421 and no data, on the default loopback bind with no token, from the app
(test client) and from a real uvicorn server on 127.0.0.1 spoken to over raw sockets (so the
``Host`` bytes are exactly the ones listed, whatever an HTTP client would normalise)."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest

pytest.importorskip("fastapi", reason="the UI needs fastapi: pip install 'ragmeter[ui]'")
from fastapi.testclient import TestClient  # noqa: E402

from ragmeter import evaluate  # noqa: E402
from ragmeter.runs import Record  # noqa: E402
from ragmeter.ui import create_app  # noqa: E402

FOREIGN_HOSTS = [
    "evil.example", "evil.example:8765", "attacker.test:8080", "127.0.0.1.evil.example",
    "127.0.0.1.evil.example:8765", "localhost.evil.example", "evil.localhost", "[::1].evil.example",
    "127.0.0.1:8765.evil.example", "127.0.0.1@evil.example", "localhost:", "localhost:http",
    "0.0.0.0", "10.0.0.1", "192.168.1.5:8765", "127.0.0.2", "127.1", "[::ffff:127.0.0.1]", "::1", "",
]
LOOPBACK_HOSTS = ["localhost", "localhost:8765", "LocalHost:1", "127.0.0.1", "127.0.0.1:8765", "[::1]", "[::1]:8765"]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> tuple[str, str]:
    """A store with one finished run: its id must never reach a foreign Host."""
    folder = tmp_path_factory.mktemp("abuse")
    url = str(folder / "runs.db")
    data = folder / "testset.jsonl"
    data.write_text("".join(json.dumps({"id": f"s{i}", "question": f"q{i}", "answer": "a b", "contexts": ["a b"],
                                        "ground_truth": "a b"}) + "\n" for i in range(3)), encoding="utf-8")
    record = Record(store=url, tags=["secret-tag"])
    evaluate(data, ["token_f1"], record=record, show_progress=False, cache=False, journal=False)
    return url, record.run


def routes(run: str, dataset: str) -> list[str]:
    """Every route of the UI: the API first, then the pages and assets."""
    return [
        "/api/runs", f"/api/runs/{run}", "/api/datasets", f"/api/trend?dataset={dataset}",
        f"/api/compare?a={run}&b={run}", "/api/openapi.json",
        "/", f"/compare?a={run}&b={run}", f"/report?run={run}", "/assets/ui.js",
    ]


def test_the_app_answers_loopback_names_and_refuses_foreign_ones(recorded):
    url, run = recorded
    client = TestClient(create_app(url), base_url="http://127.0.0.1:8765")
    for host in LOOPBACK_HOSTS:
        assert client.get("/api/runs", headers={"Host": host}).json()[0]["id"] == run, host
    for host in ("evil.example", "attacker.test:8080", "127.0.0.1.evil.example"):
        refused = client.get("/api/runs", headers={"Host": host})
        assert refused.status_code == 421 and run not in refused.text, host
        assert refused.json() == {"detail": "this ragmeter UI answers only to the names it is served on "
                                            "(localhost, 127.0.0.1, [::1])"}
        page = client.get("/", headers={"Host": host})
        assert page.status_code == 421 and page.text.startswith("421: ") and "<html" not in page.text


def test_the_bound_name_is_answered_too_and_a_wildcard_bind_answers_any_name(recorded):
    url, run = recorded
    token = "a-token-of-24-characters"
    named = TestClient(create_app(url, token=token, host="ui.internal"), base_url="http://ui.internal:8765")
    bearer = {"Authorization": f"Bearer {token}"}
    assert named.get("/api/runs", headers=bearer).status_code == 200
    assert named.get("/api/runs", headers={**bearer, "Host": "localhost"}).status_code == 200
    assert named.get("/api/runs", headers={**bearer, "Host": "other.internal"}).status_code == 421
    v6 = TestClient(create_app(url, host="::1"), base_url="http://[::1]:8765")
    assert v6.get("/api/runs").status_code == 200
    # every interface: names are unknowable, the token (required there) guards
    anywhere = TestClient(create_app(url, token=token, host="0.0.0.0"), base_url="http://box.lan:8765")
    assert anywhere.get("/api/runs", headers=bearer).status_code == 200
    assert anywhere.get("/api/runs").status_code == 401


def test_a_foreign_host_learns_nothing_not_even_that_a_token_is_needed(recorded):
    url, _ = recorded
    client = TestClient(create_app(url, token="a-token-of-24-characters"), base_url="http://127.0.0.1")
    refused = client.get("/api/runs?token=a-token-of-24-characters", headers={"Host": "evil.example"},
                         follow_redirects=False)
    assert refused.status_code == 421 and "set-cookie" not in refused.headers
    assert "www-authenticate" not in refused.headers


# ---------------------------------------------------------------- a real server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(recorded) -> Iterator[int]:
    """uvicorn on 127.0.0.1 with no token: the default `ragmeter ui`, the one a rebinding page
    would aim at. Yields its port; stopped at the end."""
    import uvicorn

    url, _ = recorded
    port = free_port()
    the_server = uvicorn.Server(uvicorn.Config(create_app(url), host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=the_server.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not the_server.started and time.time() < deadline:
        time.sleep(0.05)
    assert the_server.started
    try:
        yield port
    finally:
        the_server.should_exit = True
        thread.join(timeout=10)


def raw_get(port: int, path: str, host: str) -> tuple[int, bytes]:
    """GET ``path`` from 127.0.0.1:``port`` with exactly ``Host: host``: (status, body)."""
    request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode("latin-1")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request)
        chunks = []
        while chunk := conn.recv(65536):
            chunks.append(chunk)
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def test_real_server_answers_no_foreign_host_on_any_route(server, recorded):
    url, run = recorded
    dataset = TestClient(create_app(url), base_url="http://127.0.0.1").get("/api/datasets").json()[0]["dataset"]
    assert len(FOREIGN_HOSTS) == 20
    status, body = raw_get(server, "/api/runs", f"127.0.0.1:{server}")
    assert status == 200 and run.encode() in body  # the same server answers its own name
    answered = []
    for path in routes(run, dataset):
        for host in FOREIGN_HOSTS:
            status, body = raw_get(server, path, host)
            if status not in (400, 421) or run.encode() in body or b"secret-tag" in body:
                answered.append((path, host, status))
    print(f"foreign-Host requests answered: {len(answered)}")
    assert answered == []
