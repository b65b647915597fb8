"""pytest plugin: evaluation results as test assertions.

Installed with ragmeter (entry point ``pytest11``), so in any project::

    from ragmeter.pytest_plugin import assert_metrics

    def test_rag_quality(ragmeter_evaluate):
        result = ragmeter_evaluate("tests/data/answers.jsonl", ["faithfulness", "context_recall"])
        assert_metrics(result, faithfulness=0.8, context_recall=0.7)

A failure prints a table of what fell short and the worst samples with the judge's reasons,
which is what a reviewer needs to decide whether the change or the threshold is wrong.

Options: ``--ragmeter-judge`` / ``--ragmeter-embedder`` (default: ``$RAGMETER_JUDGE`` /
``$RAGMETER_EMBEDDER``, else ``local``) choose the judge for the whole session, so CI can run
the same tests with an LLM judge; ``--ragmeter-out DIR`` keeps every result as JSON for
``ragmeter report``. The terminal summary lists each evaluating test's means.

The module imports nothing heavy at load time: pytest loads it in every session of a
project that has ragmeter installed.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import pytest

if TYPE_CHECKING:
    from ragmeter.gate import GateReport
    from ragmeter.result import EvaluationResult

_RESULTS = pytest.StashKey[list]()


def assert_metrics(
    result: "EvaluationResult | str | Path",
    /,
    *,
    baseline: "EvaluationResult | str | Path | None" = None,
    max_drop: float = 0.0,
    max_error_rate: float | None = None,
    worst: int = 3,
    **minimums: float,
) -> "GateReport":
    """Assert that each named metric's mean reaches its minimum (and, with ``baseline``, that
    no metric dropped significantly). Returns the gate report when it passes; raises
    ``AssertionError`` with the report as text when it does not."""
    __tracebackhide__ = True
    from ragmeter.gate import check
    from ragmeter.result import EvaluationResult

    if not minimums and baseline is None:
        from ragmeter.errors import InvalidOptionType

        raise InvalidOptionType("assert_metrics needs at least one METRIC=MINIMUM or a baseline")
    if not isinstance(result, EvaluationResult):
        result = EvaluationResult.load(result)
    if baseline is not None and not isinstance(baseline, EvaluationResult):
        baseline = EvaluationResult.load(baseline)
    report = check(result, minimums, baseline=baseline, max_drop=max_drop, max_error_rate=max_error_rate, worst=worst)
    if not report.passed:
        raise AssertionError("\n" + report.to_text())
    return report


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ragmeter", "RAG evaluation (ragmeter)")
    group.addoption("--ragmeter-judge", default=None,
                    help="Judge for the ragmeter_evaluate fixture (default $RAGMETER_JUDGE or 'local').")
    group.addoption("--ragmeter-embedder", default=None,
                    help="Embedder for the ragmeter_evaluate fixture (default $RAGMETER_EMBEDDER or 'local').")
    group.addoption("--ragmeter-out", default=None, metavar="DIR",
                    help="Write each result of the ragmeter_evaluate fixture to DIR/<test>.json.")


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_RESULTS] = []


@pytest.fixture
def ragmeter_evaluate(request: pytest.FixtureRequest) -> Callable[..., "EvaluationResult"]:
    """``ragmeter_evaluate(data, metrics, **evaluate_kwargs) -> EvaluationResult`` with the
    session's judge and embedder; results are kept for the terminal summary and ``--ragmeter-out``."""
    config = request.config
    judge = config.getoption("--ragmeter-judge") or os.environ.get("RAGMETER_JUDGE") or "local"
    embedder = config.getoption("--ragmeter-embedder") or os.environ.get("RAGMETER_EMBEDDER") or "local"
    out_dir = config.getoption("--ragmeter-out")
    calls = 0

    def run(data: Any, metrics: list[Any], **kwargs: Any) -> "EvaluationResult":
        nonlocal calls
        from ragmeter.api import evaluate

        kwargs.setdefault("judge", judge)
        kwargs.setdefault("embedder", embedder)
        kwargs.setdefault("show_progress", False)
        kwargs.setdefault("journal", False)
        result = evaluate(data, metrics, **kwargs)
        calls += 1
        name = request.node.nodeid + (f"[{calls}]" if calls > 1 else "")
        config.stash[_RESULTS].append((name, result))
        if out_dir:
            safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_")
            result.save(Path(out_dir) / f"{safe}.json")
        return result

    return run


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    results = config.stash.get(_RESULTS, [])
    if not results:
        return
    terminalreporter.section("ragmeter")
    for name, result in results:
        means = ", ".join(f"{m} {s.mean:.3f}" if s.mean is not None else f"{m} n/a ({s.errors} failed)"
                          for m, s in result.summary().items())
        terminalreporter.write_line(f"{name}: {result.sample_count} samples; {means}")
    out_dir = config.getoption("--ragmeter-out")
    if out_dir:
        terminalreporter.write_line(f"results written to {out_dir}/ (make a report: ragmeter report FILE.json -o report.html)")
