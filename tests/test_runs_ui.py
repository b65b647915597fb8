"""``ragmeter ui``: the JSON API (test client), the access token, and the pages in headless
Chromium against a real uvicorn server on 127.0.0.1: runs listed, a trend chart drawn, the
compare view showing the samples that moved, hostile text shown as text, no CDN."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from browser import headless_chromium

pytest.importorskip("fastapi", reason="the UI needs fastapi: pip install 'ragmeter[ui]'")
from fastapi.testclient import TestClient  # noqa: E402

from ragmeter import evaluate  # noqa: E402
from ragmeter.runs import Record, RunStore  # noqa: E402
from ragmeter.ui import create_app, required_token  # noqa: E402

XSS = "<img src=x onerror=alert(1)>"
METRICS = ["token_f1", "exact_match"]


def write_rows(path: Path, n: int, broken_every: int = 0) -> Path:
    rows = []
    for i in range(n):
        truth = f"basket {i} holds {i % 5} apples"
        answer = f"it is unknown {XSS}" if broken_every and i % broken_every == 0 else truth
        rows.append({"id": f"s{i}", "question": f"What does basket {i} hold? {XSS}", "answer": answer,
                     "contexts": [truth], "ground_truth": truth})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> tuple[str, str, str]:
    """A store with two runs of one test set: A all right, B with every 4th answer broken."""
    folder = tmp_path_factory.mktemp("ui")
    url = str(folder / "runs.db")
    ids = []
    for name, broken in (("v1", 0), ("v2", 4)):
        record = Record(store=url, tags=[name, XSS])
        evaluate(write_rows(folder / "testset.jsonl", 20, broken), METRICS, record=record, show_progress=False,
                 cache=False, journal=False)
        ids.append(record.run)
    return url, ids[0], ids[1]


def test_api_lists_runs_trends_and_compares(recorded):
    url, a, b = recorded
    client = TestClient(create_app(url))
    runs = client.get("/api/runs").json()
    assert [r["id"] for r in runs] == [b, a]
    assert client.get("/api/runs", params={"tag": "v1"}).json()[0]["id"] == a
    sets = client.get("/api/datasets").json()
    assert len(sets) == 1 and sets[0]["runs"] == 2 and sets[0]["name"] == "testset.jsonl"
    trend = client.get("/api/trend", params={"dataset": sets[0]["dataset"]}).json()
    points = trend["metrics"]["token_f1"]
    assert [p["run"] for p in points] == [a, b]
    assert points[0]["mean"] == 1.0 and points[1]["mean"] < 1.0
    assert points[1]["ci_low"] < points[1]["mean"] < points[1]["ci_high"]
    cmp = client.get("/api/compare", params={"a": a, "b": b, "k": 3}).json()
    token_f1 = next(m for m in cmp["metrics"] if m["metric"] == "token_f1")
    assert token_f1["status"] == "regressed" and token_f1["paired"] == 20
    moved = [m for m in cmp["moved"] if m["metric"] == "token_f1"]
    assert [m["id"] for m in moved] == ["s0", "s4", "s8"] and all(m["before"] == 1.0 for m in moved)
    assert not any(m["better"] for m in moved)
    assert client.get(f"/api/runs/{a[:5]}").json()["id"] == a
    assert client.get("/api/runs/nope").status_code == 404
    assert client.get("/api/compare", params={"a": a, "b": "nope"}).status_code == 404
    report = client.get("/report", params={"run": b, "baseline": a})
    assert report.status_code == 200 and XSS not in report.text  # escaped by the report
    assert "&lt;img src=x onerror=alert(1)&gt;" in report.text or "\\u003cimg" in report.text


def test_pages_load_only_local_assets(recorded):
    url, a, b = recorded
    client = TestClient(create_app(url))
    for page in ("/", f"/compare?a={a}&b={b}"):
        text = client.get(page).text
        assert "http://" not in text and "https://" not in text  # no CDN
        assert '<script src="/assets/plotly.js">' in text
    assert client.get("/assets/plotly.js").text.startswith("/**")
    assert client.get("/assets/../../etc/passwd").status_code == 404


def test_token_is_checked_on_every_page_and_api_call_and_never_logged(recorded, caplog):
    url, a, b = recorded
    client = TestClient(create_app(url, token="s3cret-token"))
    caplog.set_level(logging.WARNING, logger="ragmeter.ui")
    for path in ("/", "/api/runs", f"/compare?a={a}&b={b}", "/assets/ui.js", f"/report?run={a}"):
        assert client.get(path).status_code == 401, path
    assert client.get("/api/runs", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert client.get("/api/runs?token=wrong-guess").status_code == 401
    assert client.get("/api/runs", headers={"Authorization": "Bearer s3cret-token"}).status_code == 200
    opened = client.get("/?token=s3cret-token")  # the link a user opens: sets the cookie
    assert opened.status_code == 200 and "HttpOnly" in opened.headers["set-cookie"]
    assert client.get("/api/runs").status_code == 200  # the cookie now rides along
    assert "refused GET /api/runs from" in caplog.text
    assert "s3cret-token" not in caplog.text and "wrong-guess" not in caplog.text


def test_binding_beyond_loopback_requires_a_token():
    assert required_token("127.0.0.1", None) is None
    assert required_token("::1", None) is None
    assert required_token("0.0.0.0", "t") == "t"
    for host in ("0.0.0.0", "192.168.1.5", "example.org"):
        with pytest.raises(ValueError, match="access token"):
            required_token(host, None)


def test_cli_ui_refuses_a_public_address_without_a_token(monkeypatch):
    from typer.testing import CliRunner

    from ragmeter.cli.app import app

    monkeypatch.delenv("RAGMETER_UI_TOKEN", raising=False)
    result = CliRunner().invoke(app, ["ui", "--host", "0.0.0.0"])
    assert result.exit_code == 2 and "access token" in result.output


@pytest.mark.filterwarnings("ignore:Query string argument")  # SQLite ignores ?pass=, and says so
def test_cli_ui_names_its_store_without_the_password(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    import ragmeter.ui
    from ragmeter.cli.app import app

    password = "hunter2-UI-STORE-53"
    served: list[Any] = []
    monkeypatch.setattr(ragmeter.ui, "serve", lambda host, port, store, token: served.append(store))
    for store, masked in ((f"postgresql+psycopg://alice:{password}@127.0.0.1:1/r", "postgresql+psycopg://***@127.0.0.1:1/r"),
                          (f"sqlite://alice:{password}@/x.db", "sqlite://***@/x.db")):
        refused = CliRunner().invoke(app, ["ui", "--store", store])
        flat = "".join(refused.output.split())  # rich wraps long lines; a wrapped password is still one
        assert refused.exit_code == 2 and password not in flat and masked in flat, refused.output
    assert served == []
    store = f"sqlite:///{tmp_path / 'runs.db'}?pass={password}"  # SQLite opens it, ignoring the parameter
    banner = CliRunner().invoke(app, ["ui", "--store", store])
    flat = "".join(banner.output.split())
    assert banner.exit_code == 0 and len(served) == 1, banner.output
    assert password not in flat and "runs.db?pass=***" in flat


# ---------------------------------------------------------------- in a real browser



def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(recorded) -> Iterator[str]:
    """uvicorn on 127.0.0.1 with the token on: the whole stack a remote user would meet
    (tests bind to loopback only; the token check does not depend on the address)."""
    import uvicorn

    url, _, _ = recorded
    port = free_port()
    config = uvicorn.Config(create_app(url, token="tok-123"), host="127.0.0.1", port=port, log_level="warning")
    the_server = uvicorn.Server(config)
    thread = threading.Thread(target=the_server.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not the_server.started and time.time() < deadline:
        time.sleep(0.05)
    assert the_server.started
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        the_server.should_exit = True
        thread.join(timeout=10)


def test_real_server_answers_401_without_the_token_and_200_with_it(server):
    import httpx

    assert httpx.get(server + "/api/runs").status_code == 401
    assert httpx.get(server + "/").status_code == 401
    assert httpx.get(server + "/api/runs", headers={"Authorization": "Bearer tok-123"}).status_code == 200
    assert httpx.get(server + "/?token=tok-123").status_code == 200


def test_server_bound_to_every_interface_answers_401_without_the_token_and_200_with_it(recorded):
    """Bound to 0.0.0.0, as `ragmeter ui --host 0.0.0.0 --token ...` binds it; the requests go
    to 127.0.0.1 only (the same socket answers there)."""
    import httpx
    import uvicorn

    url, _, _ = recorded
    port = free_port()
    token = required_token("0.0.0.0", "tok-all-interfaces")
    the_server = uvicorn.Server(uvicorn.Config(create_app(url, token=token), host="0.0.0.0", port=port,
                                               log_level="warning"))
    thread = threading.Thread(target=the_server.run, daemon=True)
    thread.start()
    try:
        deadline = time.time() + 20
        while not the_server.started and time.time() < deadline:
            time.sleep(0.05)
        assert the_server.started
        base = f"http://127.0.0.1:{port}"
        assert httpx.get(base + "/api/runs").status_code == 401
        assert httpx.get(base + "/").status_code == 401
        assert httpx.get(base + "/api/runs", headers={"Authorization": "Bearer tok-all-interfaces"}).status_code == 200
        assert httpx.get(base + "/?token=tok-all-interfaces").status_code == 200
    finally:
        the_server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    with headless_chromium(("browser", "performance")) as browser:
        yield browser


def wait_for(driver, condition, timeout=20):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(condition)


def requested_hosts(driver) -> set[str]:
    hosts = set()
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            request_url = message["params"]["request"]["url"]
            if request_url.startswith("http"):
                hosts.add(request_url.split("/")[2])
    return hosts


def test_browser_runs_table_trend_chart_and_compare_view(server, recorded, driver):
    from selenium.webdriver.common.by import By

    _, a, b = recorded
    driver.get_log("browser")
    driver.get(server + "/?token=tok-123")
    rows = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#runs-table tbody tr")
                    if len(d.find_elements(By.CSS_SELECTOR, "#runs-table tbody tr")) == 2 else False)
    assert [r.get_attribute("data-run") for r in rows] == [b, a]
    assert XSS in rows[0].text  # the hostile tag shown as text
    assert driver.execute_script("return document.querySelectorAll('img').length") == 0
    # the trend chart of the (only) test set: plotly drew a point per run with its interval
    wait_for(driver, lambda d: d.execute_script(
        "var c = document.getElementById('trend-0'); return !!(c && c.data && c.querySelector('.main-svg'));"))
    points = driver.execute_script("var t = document.getElementById('trend-0').data[0]; "
                                   "return [t.y.length, t.error_y.array.length];")
    assert points == [2, 2]
    # pick A and B, compare
    driver.find_element(By.CSS_SELECTOR, f"input[name=pick-a][value='{a}']").click()
    driver.find_element(By.CSS_SELECTOR, f"input[name=pick-b][value='{b}']").click()
    driver.find_element(By.ID, "compare-button").click()
    moved = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#moved-table tbody tr.moved") or False)
    texts = [m.text for m in moved]
    assert any(t.startswith("token_f1 s0") and "1.000 0.000 -1.000" in t for t in texts), texts
    status = driver.find_element(By.CSS_SELECTOR, "#compare-table tbody tr").text
    assert "token_f1" in status and "regressed" in status
    # the per-sample detail: the report of B against A in the frame, a row opens its detail
    driver.switch_to.frame(driver.find_element(By.ID, "report-frame"))
    first = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#samples-table tbody tr") or False)[0]
    first.click()
    detail = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#samples-table .mcards") or False)[0]
    assert "baseline" in detail.text
    driver.switch_to.default_content()
    severe = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert severe == []
    assert requested_hosts(driver) <= {server.split("/")[2]}  # nothing but this server


def test_a_source_name_with_several_test_sets_gets_one_trend(tmp_path):
    """The windows `ragmeter monitor` samples share a file name but not their questions."""
    url = str(tmp_path / "runs.db")
    for n in (3, 4):
        folder = tmp_path / f"w{n}"
        folder.mkdir()
        evaluate(write_rows(folder / "production-window.jsonl", n), METRICS, record=url, show_progress=False,
                 cache=False, journal=False)
    client = TestClient(create_app(url))
    sets = client.get("/api/datasets").json()
    assert sets[0] == {"dataset": "production-window.jsonl", "name": "production-window.jsonl, every version",
                       "runs": 2}
    assert len(sets) == 3
    trend = client.get("/api/trend", params={"dataset": "production-window.jsonl"}).json()
    assert trend["runs"] == 2 and len(trend["metrics"]["token_f1"]) == 2
