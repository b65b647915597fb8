"""An unknown metric name is an ``UnknownMetric`` that names the closest one ("did you mean"),
wherever a name is given: ``evaluate``, ``get_metric``, ``ragmeter evaluate -m``. Its usual
cause is a typo, and the list of two dozen names alone leaves the user to find it."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ragmeter import evaluate, get_metric
from ragmeter.errors import UnknownMetric


def test_evaluate_names_the_closest_metric():
    with pytest.raises(UnknownMetric) as raised:
        evaluate([{"question": "q", "answer": "a"}], ["faithfulnes"], show_progress=False, journal=False)
    message = str(raised.value)
    assert message.startswith("unknown metric 'faithfulnes'; did you mean 'faithfulness'? available: ")
    assert "answer_similarity" in message and isinstance(raised.value, ValueError)  # still a ValueError


@pytest.mark.parametrize(("typed", "meant"), [
    ("Token-F1s", "token_f1"), ("context_precison", "context_precision"), ("rougel", "rouge_l"),
])
def test_get_metric_suggests_across_spellings(typed, meant):
    with pytest.raises(UnknownMetric, match=rf"unknown metric '{typed}'; did you mean '{meant}'\? available: "):
        get_metric(typed)


def test_nothing_close_lists_the_metrics_without_a_guess():
    with pytest.raises(UnknownMetric) as raised:
        get_metric("banana")
    assert "did you mean" not in str(raised.value)
    assert str(raised.value).startswith("unknown metric 'banana'; available: ")


def test_the_cli_says_it_in_one_line_and_exits_2(tmp_path, monkeypatch):
    from ragmeter.cli.app import app

    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps({"question": "q", "answer": "a"}) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["evaluate", str(data), "-m", "exact_match,faithfulnes", "-q", "--no-record"])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines[0].startswith("error: unknown metric 'faithfulnes'; did you mean 'faithfulness'? available: ")
    assert "Traceback" not in result.output
