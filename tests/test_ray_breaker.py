"""engine="ray" honours the circuit breaker as the local engine does.

A judge whose every connection is reset (no HTTP answer) is unreachable: the local engine
counts the failures of the run's calls in one breaker and, after ten in a row over three
seconds, stops the run with ``EndpointUnreachable``. On Ray the same run must stop after
the same number of requests, with the same one error (not a Ray wrapper whose message is a
worker's traceback), however many workers share the endpoint. A judge answering 500 is
alive (a server under load): it does not trip the breaker on either engine, and each
score records ``JudgeUnavailable`` after the same number of attempts.

One local Ray with 2 CPUs, so two workers; the judge sits behind ``FaultProxy`` on
127.0.0.1, which counts the requests it refused.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ragmeter import evaluate
from ragmeter.errors import EndpointUnreachable
from ragmeter.testing import scripted_judge
from ragmeter.testing.fault_proxy import FaultProxy
from ragmeter.testing.openai_server import OpenAIMockServer

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:ray.data.context")

WORKERS = 2
PARIS = {
    "question": "What is the capital of France?",
    "answer": "Paris is the capital of France.",
    "contexts": ["France is in Western Europe. Its capital is Paris."],
    "ground_truth": "The capital of France is Paris.",
}


def records(n: int) -> list[dict]:
    return [{**PARIS, "id": f"s{i}", "answer": f"Paris is the capital of France, says {i}."} for i in range(n)]


@pytest.fixture(scope="module")
def ray_local(tmp_path_factory):
    ray = pytest.importorskip("ray")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RAGMETER_CACHE_DIR", str(tmp_path_factory.mktemp("ray-breaker-cache")))
        mp.setenv("OPENAI_API_KEY", "sk-test")
        mp.setenv("RAY_USAGE_STATS_ENABLED", "0")
        ray.init(num_cpus=WORKERS, include_dashboard=False, log_to_driver=False)
        try:
            yield ray
        finally:
            ray.shutdown()


@pytest.fixture
def judge_proxy():
    """A judge endpoint behind a proxy; ``kinds`` set by the test decides every reply."""
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as server:
        with FaultProxy(server.port, fault_rate=1.0, kinds=("reset",)) as proxy:
            yield proxy


def run(proxy, engine, concurrency, max_attempts=5, n=40):
    return evaluate(records(n), ["faithfulness"], judge=f"openai:m@{proxy.base_url}", engine=engine,
                    concurrency=concurrency, cache=False, journal=False, show_progress=False,
                    judge_options={"timeout": 2.0, "max_attempts": max_attempts})


def test_an_unreachable_judge_stops_a_ray_run_after_the_requests_a_local_run_sends(ray_local, judge_proxy):
    # the same calls in flight against the endpoint: 2 locally, 1 in each of the 2 workers
    with pytest.raises(EndpointUnreachable) as local:
        run(judge_proxy, "local", concurrency=WORKERS)
    sent_locally = judge_proxy.injected["reset"]

    with pytest.raises(EndpointUnreachable) as on_ray:
        run(judge_proxy, "ray", concurrency=1)
    sent_on_ray = judge_proxy.injected["reset"] - sent_locally

    # one breaker for the run: ten failures in a row, wherever they happened, trip it for
    # every worker (a breaker per worker let each send its own ten: twice the requests)
    assert 10 <= sent_locally <= 10 + WORKERS
    assert 10 <= sent_on_ray <= sent_locally + WORKERS, (sent_locally, sent_on_ray)

    # the error itself, as the local run raises it: not a RayTaskError with a traceback for text
    assert type(on_ray.value) is EndpointUnreachable
    assert str(on_ray.value).startswith(f"openai:m@{judge_proxy.base_url} is unreachable: ")
    assert "Traceback" not in str(on_ray.value) and "ray::" not in str(on_ray.value)
    assert str(local.value).startswith(f"openai:m@{judge_proxy.base_url} is unreachable: ")
    assert on_ray.value.stops_run


def test_a_judge_answering_500_fails_each_score_after_the_same_attempts_on_both_engines(ray_local, judge_proxy):
    judge_proxy.kinds = ("500",)
    local = run(judge_proxy, "local", concurrency=WORKERS, max_attempts=3, n=8)
    sent_locally = judge_proxy.injected["500"]
    on_ray = run(judge_proxy, "ray", concurrency=1, max_attempts=3, n=8)
    sent_on_ray = judge_proxy.injected["500"] - sent_locally

    assert sent_locally == sent_on_ray == 8 * 3  # every attempt of every sample: a 500 is an answer
    for result in (local, on_ray):
        assert [s.scores["faithfulness"].error.kind for s in result.samples] == ["JudgeUnavailable"] * 8


def test_the_cli_names_the_unreachable_judge_in_one_line_on_ray(ray_local, judge_proxy, tmp_path):
    from ragmeter.cli.app import app

    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in records(40)))
    result = CliRunner().invoke(app, ["evaluate", str(data), "-m", "faithfulness", "--engine", "ray",
                                      "--judge", f"openai:m@{judge_proxy.base_url}", "--no-cache", "--no-record",
                                      "--journal", str(tmp_path / "journal.jsonl"), "-q"])
    assert result.exit_code == 1, result.output  # a run that failed, not a configuration error
    error = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(error) == 1 and f"openai:m@{judge_proxy.base_url} is unreachable: " in error[0], result.output
    assert "ray::" not in result.output and "Traceback" not in result.output
