"""``ragmeter ui``: the JSON API (test client), the access token, and the pages in headless
Chromium against a real uvicorn server on 127.0.0.1: runs listed, a trend chart drawn, the
compare view showing the samples that moved, hostile text shown as text, no CDN."""

from __future__ import annotations

import json
import logging
import re
import socket
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from browser import headless_chromium

pytest.importorskip("fastapi", reason="the UI needs fastapi: pip install 'ragmeter[ui]'")
from fastapi.testclient import TestClient  # noqa: E402

from ragmeter import evaluate  # noqa: E402
from ragmeter.errors import UnsafeAccess  # noqa: E402
from ragmeter.runs import Record, RunStore  # noqa: E402
from ragmeter.ui import create_app, required_token  # noqa: E402

XSS = "<img src=x onerror=alert(1)>"
LOCAL = "http://127.0.0.1:8765"  # the test client's own "testserver" is a foreign Host to the UI
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
    client = TestClient(create_app(url), base_url=LOCAL)
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


def test_the_compare_page_and_its_report_name_each_run_by_its_store_id(recorded):
    url, a, b = recorded
    client = TestClient(create_app(url), base_url=LOCAL)
    store = RunStore(url)
    identities = [store.load(r).info.run_id for r in (a, b)]
    page = client.get("/compare", params={"a": a[:5], "b": b[:5]}).text
    assert f"{b} against {a}" in page and f'data-a="{a}"' in page and f'data-b="{b}"' in page
    report = client.get("/report", params={"run": b, "baseline": a}).text  # the page's frame
    assert f"run <code>{b}</code>" in report and f"baseline run <code>{a}</code>" in report
    assert not any(f"<code>{identity}</code>" in report for identity in identities)
    assert all(identity not in json.dumps(client.get("/api/runs").json()) for identity in identities)


def test_api_compare_names_what_differs_between_the_runs(recorded, tmp_path):
    url, a, b = recorded
    client = TestClient(create_app(url), base_url=LOCAL)
    assert client.get("/api/compare", params={"a": a, "b": b}).json()["differences"] == []
    other = Record(store=url)
    evaluate(write_rows(tmp_path / "other.jsonl", 6), METRICS, record=other, show_progress=False, cache=False,
             journal=False)
    try:
        differences = client.get("/api/compare", params={"a": a, "b": other.run}).json()["differences"]
        assert [d["what"] for d in differences] == ["test set"]
        assert differences[0]["baseline"].startswith("testset.jsonl ")
        assert differences[0]["current"].startswith("other.jsonl ")
    finally:
        RunStore(url).delete(other.run)  # the module's store keeps its two runs


def set_started(url: str, started: dict[str, float]) -> None:
    with sqlite3.connect(url) as db:
        db.executemany("UPDATE runs SET started = ? WHERE id = ?", [(t, run) for run, t in started.items()])


def test_trend_time_axis_is_padded_to_an_hour_at_least(tmp_path):
    """One run, or runs within a second, would get an axis a millisecond wide, labelled in
    sub-millisecond steps: the API gives each point its UTC time and the chart an explicit
    range, padded by half an hour each side at least (a twentieth of the span beyond that)."""
    url = str(tmp_path / "runs.db")
    ids = []
    for _ in range(3):
        record = Record(store=url)
        evaluate(write_rows(tmp_path / "testset.jsonl", 3), ["token_f1"], record=record, show_progress=False,
                 cache=False, journal=False)
        ids.append(record.run)
    client = TestClient(create_app(url), base_url=LOCAL)
    dataset = client.get("/api/datasets").json()[0]["dataset"]

    t0 = 1_714_564_800.0  # 2024-05-01 12:00:00 UTC
    set_started(url, {ids[0]: t0, ids[1]: t0 + 0.0004, ids[2]: t0 + 0.9})  # within a second
    trend = client.get("/api/trend", params={"dataset": dataset}).json()
    assert [p["at"] for p in trend["metrics"]["token_f1"]] == [
        "2024-05-01 12:00:00.000", "2024-05-01 12:00:00.000", "2024-05-01 12:00:00.900"]
    assert trend["time_range"] == ["2024-05-01 11:30:00.000", "2024-05-01 12:30:00.900"]

    set_started(url, {ids[0]: t0, ids[1]: t0 + 10 * 86400, ids[2]: t0 + 20 * 86400})  # 20 days: pad 1 day
    trend = client.get("/api/trend", params={"dataset": dataset}).json()
    assert trend["time_range"] == ["2024-04-30 12:00:00.000", "2024-05-22 12:00:00.000"]

    only = client.get("/api/trend", params={"dataset": dataset, "tag": "no-such-tag"}).json()
    assert only["runs"] == 0 and only["time_range"] is None


def test_pages_load_only_local_assets(recorded):
    url, a, b = recorded
    client = TestClient(create_app(url), base_url=LOCAL)
    for page in ("/", f"/compare?a={a}&b={b}"):
        text = client.get(page).text
        assert "http://" not in text and "https://" not in text  # no CDN
        assert '<script src="/assets/plotly.js">' in text
    assert client.get("/assets/plotly.js").text.startswith("/**")
    assert client.get("/assets/../../etc/passwd").status_code == 404


def test_token_is_checked_on_every_page_and_api_call_and_never_logged(recorded, caplog):
    url, a, b = recorded
    client = TestClient(create_app(url, token="s3cret-token-of-23-chrs"), base_url=LOCAL)
    caplog.set_level(logging.WARNING, logger="ragmeter.ui")
    for path in ("/", "/api/runs", f"/compare?a={a}&b={b}", "/assets/ui.js", f"/report?run={a}"):
        assert client.get(path).status_code == 401, path
    assert client.get("/api/runs", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert client.get("/api/runs?token=wrong-guess").status_code == 401
    assert client.get("/api/runs", headers={"Authorization": "Bearer s3cret-token-of-23-chrs"}).status_code == 200
    opened = client.get("/?token=s3cret-token-of-23-chrs")  # the link a user opens: sets the cookie
    assert opened.status_code == 200 and opened.url == LOCAL + "/"  # and sends it on without the token
    assert client.get("/api/runs").status_code == 200  # the cookie now rides along
    assert "refused GET /api/runs from" in caplog.text
    assert "s3cret-token-of-23-chrs" not in caplog.text and "wrong-guess" not in caplog.text


def test_the_token_link_sets_a_cookie_and_redirects_to_the_same_url_without_the_token(recorded):
    url, a, b = recorded
    token = "s3cret-token-of-23-chrs"
    client = TestClient(create_app(url, token=token), base_url=LOCAL)
    for link, clean in ((f"/?token={token}", "/"),
                        (f"/compare?a={a}&token={token}&b={b}", f"/compare?a={a}&b={b}"),
                        (f"/report?run={a}&baseline=&token={token}", f"/report?run={a}&baseline="),
                        (f"/api/runs?token={token}&tag=v%201", "/api/runs?tag=v%201"),
                        (f"{LOCAL}//evil.example/x?token={token}", "/evil.example/x")):  # never to another site
        opened = client.get(link, follow_redirects=False)
        assert opened.status_code == 303, link
        assert opened.headers["location"] == clean
        assert opened.content == b"" and opened.headers["cache-control"] == "no-store"
        assert opened.headers["set-cookie"].startswith("ragmeter_session=")
    assert client.get(f"/compare?a={a}&b={b}").status_code == 200  # with the cookie just set
    assert client.get(f"/?token={token}").url == LOCAL + "/"  # a browser lands on the clean URL
    wrong = client.get("/?token=wrong-guess-wrong-guess", follow_redirects=False)
    assert wrong.status_code == 401 and "set-cookie" not in wrong.headers


def test_the_cookie_holds_a_value_derived_from_the_token_never_the_token(recorded):
    url, _, _ = recorded
    token = "s3cret-token-of-23-chrs"
    app = create_app(url, token=token)
    set_cookie = TestClient(app, base_url=LOCAL).get(f"/?token={token}", follow_redirects=False).headers["set-cookie"]
    value = set_cookie.split(";")[0].removeprefix("ragmeter_session=")
    assert set_cookie == f"ragmeter_session={value}; HttpOnly; SameSite=Strict; Path=/"
    assert re.fullmatch("[0-9a-f]{64}", value) and token not in set_cookie  # HMAC-SHA256, hex
    again = TestClient(app, base_url=LOCAL).get(f"/?token={token}", follow_redirects=False).headers["set-cookie"]
    assert again == set_cookie  # one value per process
    assert TestClient(app, base_url=LOCAL, cookies={"ragmeter_session": value}).get("/api/runs").status_code == 200
    for name, held in (("ragmeter_session", token), ("ragmeter_token", token), ("ragmeter_session", value[:-1]),
                       ("ragmeter_session", value + "0"), ("ragmeter_session", "g" * 64)):
        assert TestClient(app, base_url=LOCAL, cookies={name: held}).get("/api/runs").status_code == 401, held
    latin = TestClient(app, base_url=LOCAL).get("/api/runs", headers={"Cookie": b"ragmeter_session=" + b"\xe9" * 64})
    assert latin.status_code == 401  # refused, not a server error
    # another process (another key) does not take this one's cookie
    other = create_app(url, token=token)
    assert TestClient(other, base_url=LOCAL, cookies={"ragmeter_session": value}).get("/api/runs").status_code == 401


def test_a_page_opened_from_another_site_gets_its_strict_cookie_by_one_bounce(recorded):
    """A link clicked on another site (chat, mail) navigates cross-site: the browser withholds
    the SameSite=Strict cookie, also after the token link's redirect. The refused page reloads
    itself once, now from this site, so the cookie rides along; then drops the marker."""
    url, a, b = recorded
    token = "s3cret-token-of-23-chrs"
    client = TestClient(create_app(url, token=token), base_url=LOCAL)
    assert 'content="0; url=/?bounced=1"' in client.get("/?&", headers={"Sec-Fetch-Site": "cross-site"}).text
    bounce = client.get(f"/compare?a={a}&b={b}", headers={"Sec-Fetch-Site": "cross-site"})
    assert bounce.status_code == 401 and bounce.headers["cache-control"] == "no-store"
    assert f'<meta http-equiv="refresh" content="0; url=/compare?a={a}&amp;b={b}&amp;bounced=1">' in bounce.text
    assert a not in bounce.text.replace(f"a={a}", "")  # the URL it was asked for, no data
    for refused in (client.get(f"/compare?a={a}&b={b}&bounced=1"),  # cookie still missing: a plain 401
                    client.get("/", headers={"Sec-Fetch-Site": "same-origin"}),  # the browser sent what it had
                    client.get("/", headers={"Authorization": "Bearer wrong"}),  # not a browser
                    client.get("/", headers={"Cookie": "ragmeter_session=stale"}),  # a cookie came: no use reloading
                    client.get("/api/runs")):  # the API is not a page
        assert refused.status_code == 401 and "refresh" not in refused.text, refused.url
    client.get(f"/?token={token}")
    back = client.get(f"/compare?a={a}&b={b}&bounced=1", follow_redirects=False)
    assert back.status_code == 303 and back.headers["location"] == f"/compare?a={a}&b={b}"
    assert "set-cookie" not in back.headers


def test_binding_beyond_loopback_requires_a_token(tmp_path):
    assert required_token("127.0.0.1", None) is None
    assert required_token("::1", None) is None
    assert required_token("0.0.0.0", "t" * 16) == "t" * 16
    for host in ("0.0.0.0", "192.168.1.5", "example.org"):
        with pytest.raises(UnsafeAccess, match="access token"):
            required_token(host, None)
        with pytest.raises(UnsafeAccess, match="access token"):
            create_app(str(tmp_path / "runs.db"), host=host)  # the app itself will not serve them unguarded


def test_the_docs_say_which_addresses_need_a_token_as_the_code_decides():
    """docs/runs.md names the addresses that need no token and some that need one; each is
    checked against ``required_token``, so the two cannot drift apart."""
    docs = (Path(__file__).resolve().parent.parent / "docs" / "runs.md").read_text(encoding="utf-8")
    free = re.search(r"Binding to a loopback address needs no token: (.*?)\.\n", docs, re.S)
    needed = re.search(r"Any other address or host name needs one: (.*?)\.\n", docs, re.S)
    assert free and needed, "docs/runs.md: the sentences naming the addresses are missing"
    free_hosts = re.findall(r"`([^`]+)`", free.group(1))
    needed_hosts = re.findall(r"`([^`]+)`", needed.group(1))
    assert free_hosts == ["localhost", "127.0.0.1", "127.0.0.2", "::1"]
    assert needed_hosts == ["0.0.0.0", "::", "192.168.1.5", "myhost.lan", "localhost.localdomain"]
    for host in free_hosts:
        assert required_token(host, None) is None, host
    for host in needed_hosts:
        with pytest.raises(UnsafeAccess):
            required_token(host, None)
    assert "other address requires" not in docs and "other than 127.0.0.1" not in docs


def test_a_token_shorter_than_16_characters_is_refused(recorded):
    url, _, _ = recorded
    for host in ("127.0.0.1", "0.0.0.0"):
        with pytest.raises(UnsafeAccess) as refused:
            required_token(host, "x" * 15)
        assert str(refused.value) == ("the access token has 15 characters; give one of at least 16 "
                                      "(e.g. python -c 'import secrets; print(secrets.token_urlsafe(24))')")
    assert isinstance(refused.value, ValueError)
    with pytest.raises(UnsafeAccess, match="at least 16"):
        create_app(url, token="s3cret")
    assert required_token("127.0.0.1", "x" * 16) == "x" * 16


def test_cli_ui_refuses_a_short_token_in_one_line_and_exit_2(monkeypatch):
    from typer.testing import CliRunner

    import ragmeter.ui
    from ragmeter.cli.app import app

    served: list[tuple] = []
    monkeypatch.setattr(ragmeter.ui, "serve", lambda *args, **kwargs: served.append((args, kwargs)))
    monkeypatch.delenv("RAGMETER_UI_TOKEN", raising=False)
    for args, env in ((["--token", "x" * 15], {}), ([], {"RAGMETER_UI_TOKEN": "short"}),
                      (["--host", "0.0.0.0", "--token", "tok"], {})):
        result = CliRunner().invoke(app, ["ui", *args], env=env)
        assert result.exit_code == 2, result.output
        assert len(result.output.splitlines()) == 1, result.output
        assert result.output.startswith("error: the access token has ") and "at least 16" in result.output
    assert served == []
    started = CliRunner().invoke(app, ["ui"], env={"RAGMETER_UI_TOKEN": "x" * 16})
    assert started.exit_code == 0, started.output
    assert [kwargs["token"] for _, kwargs in served] == ["x" * 16]


def test_cli_ui_refuses_a_public_address_without_a_token(monkeypatch):
    from typer.testing import CliRunner

    from ragmeter.cli.app import app

    monkeypatch.delenv("RAGMETER_UI_TOKEN", raising=False)
    result = CliRunner().invoke(app, ["ui", "--host", "0.0.0.0"])
    assert result.exit_code == 2
    assert result.output == ("error: binding to 0.0.0.0 makes the runs readable from other machines: set an access "
                             "token in $RAGMETER_UI_TOKEN (--token works too, but every user of this machine sees it "
                             "in ps)\n")


def test_cli_ui_steers_the_token_to_the_environment_variable(monkeypatch):
    """A command-line argument is readable by every user of the machine (``ps``, /proc);
    the environment of a process is not."""
    from typer.testing import CliRunner

    import ragmeter.ui
    from ragmeter.cli.app import app

    monkeypatch.setattr(ragmeter.ui, "serve", lambda *args, **kwargs: None)
    monkeypatch.delenv("RAGMETER_UI_TOKEN", raising=False)
    shown = " ".join(CliRunner().invoke(app, ["ui", "--help"]).output.replace("│", " ").split())
    assert "Prefer $RAGMETER_UI_TOKEN: a --token value is visible to every user of this machine (ps)." in shown
    assert "Anything but loopback needs an access token: set $RAGMETER_UI_TOKEN." in shown
    import ragmeter.cli.ui as cli_ui  # its copies (the CLI loads without fastapi) are the UI's values

    assert (cli_ui.ENV_TOKEN, cli_ui.MIN_TOKEN_LENGTH) == (ragmeter.ui.ENV_TOKEN, ragmeter.ui.MIN_TOKEN_LENGTH)
    note = ("note: --token is visible to every user of this machine (ps); set $RAGMETER_UI_TOKEN instead")
    given = CliRunner().invoke(app, ["ui", "--token", "x" * 16])
    assert given.exit_code == 0 and given.output.splitlines()[0] == note
    from_env = CliRunner().invoke(app, ["ui"], env={"RAGMETER_UI_TOKEN": "x" * 16})
    assert from_env.exit_code == 0 and "note:" not in from_env.output


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
    config = uvicorn.Config(create_app(url, token="tok-123-of-19-chars"), host="127.0.0.1", port=port,
                            log_level="warning")
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
    assert httpx.get(server + "/api/runs", headers={"Authorization": "Bearer tok-123-of-19-chars"}).status_code == 200
    opened = httpx.get(server + "/?token=tok-123-of-19-chars")
    assert opened.status_code == 303 and opened.headers["location"] == "/"
    assert httpx.get(server + "/", cookies=opened.cookies).status_code == 200


def test_server_bound_to_every_interface_answers_401_without_the_token_and_200_with_it(recorded):
    """Bound to 0.0.0.0, as `ragmeter ui --host 0.0.0.0 --token ...` binds it; the requests go
    to 127.0.0.1 only (the same socket answers there)."""
    import httpx
    import uvicorn

    url, _, _ = recorded
    port = free_port()
    token = required_token("0.0.0.0", "tok-all-interfaces")
    the_server = uvicorn.Server(uvicorn.Config(create_app(url, token=token, host="0.0.0.0"), host="0.0.0.0", port=port,
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
        opened = httpx.get(base + "/?token=tok-all-interfaces")
        assert opened.status_code == 303 and opened.headers["location"] == "/"
        assert httpx.get(base + "/", cookies=opened.cookies).status_code == 200
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
    driver.get(server + "/?token=tok-123-of-19-chars")
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
    # two runs seconds apart: the time axis spans an hour, its ticks whole minutes, no sub-second steps
    ticks = driver.execute_script("return Array.from(document.querySelectorAll('#trend-0 .xtick text'))"
                                  ".map(function (t) { return t.textContent; });")
    assert ticks and not any(re.search(r":\d\d\.\d", t) for t in ticks), ticks
    # pick A and B, compare
    driver.find_element(By.CSS_SELECTOR, f"input[name=pick-a][value='{a}']").click()
    driver.find_element(By.CSS_SELECTOR, f"input[name=pick-b][value='{b}']").click()
    driver.find_element(By.ID, "compare-button").click()
    moved = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#moved-table tbody tr.moved") or False)
    texts = [m.text for m in moved]
    assert any(t.startswith("token_f1 s0") and "1.000 0.000 -1.000" in t for t in texts), texts
    status = driver.find_element(By.CSS_SELECTOR, "#compare-table tbody tr").text
    assert "token_f1" in status and "regressed" in status
    assert not driver.find_element(By.ID, "compare-warning").is_displayed()  # one test set, one judge
    assert driver.find_element(By.ID, "compare-head").text == f"A (baseline) {a} · B {b}"
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


def test_browser_compare_view_warns_when_the_test_sets_differ(server, recorded, driver, tmp_path):
    from selenium.webdriver.common.by import By

    url, a, _ = recorded
    other = Record(store=url)
    evaluate(write_rows(tmp_path / "other.jsonl", 6), METRICS, record=other, show_progress=False, cache=False,
             journal=False)
    try:
        driver.get(f"{server}/compare?a={a}&b={other.run}&token=tok-123-of-19-chars")
        warning = wait_for(driver, lambda d: d.find_element(By.ID, "compare-warning")
                           if d.find_element(By.ID, "compare-warning").is_displayed() else False)
        assert warning.text.startswith("warning: A and B differ in test set (A testset.jsonl ")
        assert ", B other.jsonl " in warning.text
    finally:
        RunStore(url).delete(other.run)


def test_browser_follows_a_token_link_from_another_site_to_the_clean_url_with_its_cookie(server, recorded, driver):
    """The link as shared in a chat: clicked on a page of another site (here a data: URL, an
    opaque origin), so the navigation is cross-site and Chromium withholds the SameSite=Strict
    cookie on the redirect's target; the page's one reload brings it. The address bar ends
    on the URL without the token, and the page shows the comparison."""
    from selenium.webdriver.common.by import By

    _, a, b = recorded
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    link = f"{server}/compare?a={a}&token=tok-123-of-19-chars&b={b}"
    driver.get(f"data:text/html,<a id=go href='{link}'>the comparison</a>")
    driver.find_element(By.ID, "go").click()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#moved-table tbody tr.moved") or False)
    assert driver.current_url == f"{server}/compare?a={a}&b={b}"
    assert "tok-123" not in driver.execute_script("return document.cookie")  # HttpOnly: not even the HMAC


def test_a_source_name_with_several_test_sets_gets_one_trend(tmp_path):
    """The windows `ragmeter monitor` samples share a file name but not their questions."""
    url = str(tmp_path / "runs.db")
    for n in (3, 4):
        folder = tmp_path / f"w{n}"
        folder.mkdir()
        evaluate(write_rows(folder / "production-window.jsonl", n), METRICS, record=url, show_progress=False,
                 cache=False, journal=False)
    client = TestClient(create_app(url), base_url=LOCAL)
    sets = client.get("/api/datasets").json()
    assert sets[0] == {"dataset": "production-window.jsonl", "name": "production-window.jsonl, every version",
                       "runs": 2}
    assert len(sets) == 3
    trend = client.get("/api/trend", params={"dataset": "production-window.jsonl"}).json()
    assert trend["runs"] == 2 and len(trend["metrics"]["token_f1"]) == 2
