"""User-facing errors are in the hierarchy (``ragmeter.errors``): a new ``raise ValueError`` or
``raise TypeError`` in ``src/ragmeter`` fails here unless it is an internal invariant (a bug
if hit), marked ``# internal: why`` on the line above and counted in ``INTERNAL``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ragmeter.errors import InvalidOption, NoMean, RagmeterError

SRC = Path(__file__).resolve().parent.parent / "src" / "ragmeter"
BARE = {"ValueError", "TypeError"}

INTERNAL: dict[str, int] = {
    "embedders/length_batches.py": 1,  # the encoder's batch size, checked where set
    "judges/dry_run.py": 1,  # every task names its output type
    "judges/local/coverage.py": 1,  # pairs built by the local judge
    "judges/local/calibration.py": 3,  # maps shipped with ragmeter
    "judges/local/support_head.py": 1,  # head shipped with ragmeter
    "judges/local/verifier.py": 1,  # encoder pair built from one model name
    "judges/local/claims.py": 1,  # pairs built by the claim extractor
    "metrics/score.py": 2,  # pydantic validators (users see a ValidationError)
    "judgements/outputs.py": 1,  # pydantic validator on a judge's reply
    "cli/align.py": 1,  # caught just below, re-raised as typer.BadParameter
    "cli/gate.py": 1,  # caught just below, re-raised as typer.BadParameter
    "testing/scripted_judge.py": 1,  # a test double's script lacks a task
}


def bare_raises(root: Path = SRC) -> dict[str, list[int]]:
    """Line numbers of ``raise ValueError``/``raise TypeError`` (called or not), by file."""
    found: dict[str, list[int]] = {}
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Raise) or node.exc is None:
                continue
            target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(target, ast.Name) and target.id in BARE:
                found.setdefault(path.relative_to(root).as_posix(), []).append(node.lineno)
    return found


def test_no_bare_value_or_type_error_outside_the_internal_ones():
    counts = {path: len(lines) for path, lines in bare_raises().items()}
    assert counts == INTERNAL, (
        "a user-facing error belongs in ragmeter.errors (InvalidOption, InvalidOptionType, BadFile, ...); "
        f"an internal invariant is marked '# internal: why' and counted in INTERNAL: {counts}")


def test_each_internal_raise_says_why():
    unexplained = []
    for path, lines in bare_raises().items():
        source = (SRC / path).read_text(encoding="utf-8").splitlines()
        unexplained += [f"{path}:{line}" for line in lines if not source[line - 2].strip().startswith("# internal:")]
    assert bare_raises() and unexplained == [], f"no '# internal:' note above: {unexplained}"


def test_the_scan_sees_both_forms_and_not_the_hierarchy(tmp_path):
    (tmp_path / "x.py").write_text("def f():\n    raise ValueError('a')\n\ndef g():\n    raise TypeError\n\n"
                                   "def h():\n    raise InvalidOption('b')\n")
    assert bare_raises(tmp_path) == {"x.py": [2, 5]}


def test_converted_errors_keep_their_builtin_base_and_exit_code():
    from ragmeter.calls.limiter import AdaptiveLimiter
    from ragmeter.data import Sample
    from ragmeter.gate.bootstrap import paired_bootstrap_ci
    from ragmeter.metrics.bleu import bleu_score
    from ragmeter.result.totals import MetricSummary

    cases = [
        (lambda: AdaptiveLimiter(maximum=0), InvalidOption, ValueError),
        (lambda: Sample(question="q").missing(["answr"]), InvalidOption, ValueError),
        (lambda: paired_bootstrap_ci([0.5], [0.4], confidence=1.5), InvalidOption, ValueError),
        (lambda: bleu_score("a b", "a b", max_n=0), InvalidOption, ValueError),
        (lambda: float(MetricSummary(mean=None, scored=0, errors=3)), NoMean, ValueError),
    ]
    seen = []
    for call, kind, builtin in cases:
        with pytest.raises(kind) as caught:
            call()
        seen.append((isinstance(caught.value, builtin), isinstance(caught.value, RagmeterError), caught.value.exit_code))
    assert seen == [(True, True, 2)] * 5
