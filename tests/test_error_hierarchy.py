"""User-facing errors are in the hierarchy (``ragmeter.errors``), keep the built-in type
callers caught before (``ValueError``, ``TypeError``, ``ImportError``), and carry the exit
code the CLI ends a command with."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ragmeter import evaluate
from ragmeter.cli.app import app
from ragmeter.data import Dataset
from ragmeter.errors import BadFile, EndpointUnreachable, InvalidOption, InvalidOptionType, RagmeterError
from ragmeter.extras import MissingExtra
from ragmeter.judges import get_judge

ROW = {"question": "q", "answer": "Paris", "ground_truth": "Paris"}


def test_a_bad_option_is_an_invalid_option_and_a_value_error():
    with pytest.raises(InvalidOption, match="concurrency must be at least 1") as caught:
        evaluate([ROW], ["exact_match"], concurrency=0, record=False, journal=False, show_progress=False)
    assert isinstance(caught.value, ValueError) and caught.value.exit_code == 2
    with pytest.raises(InvalidOption, match="unknown judge 'nope'"):
        get_judge("nope")


def test_an_argument_of_the_wrong_kind_is_an_invalid_option_type_and_a_type_error():
    with pytest.raises(InvalidOptionType, match="a judge is a spec string") as caught:
        get_judge(42)  # type: ignore[arg-type]
    assert isinstance(caught.value, TypeError) and caught.value.exit_code == 2


def test_a_bad_file_is_named_and_a_value_error(tmp_path):
    path = tmp_path / "data.json"
    path.write_text("{not json")
    with pytest.raises(BadFile, match=f"{path}: not valid JSON") as caught:
        Dataset.from_json(path)
    assert isinstance(caught.value, ValueError) and caught.value.exit_code == 2
    with pytest.raises(BadFile, match=r"\.json or \.parquet"):
        evaluate([ROW], ["exact_match"], out=tmp_path / "result.txt", record=False, journal=False,
                 show_progress=False)


def test_a_missing_extra_is_in_the_hierarchy_and_an_import_error():
    error = MissingExtra("ray", "ray", "engine='ray'")
    assert isinstance(error, RagmeterError) and isinstance(error, ImportError) and error.exit_code == 2
    from ragmeter.engine.ray_engine import RayNotInstalled

    assert issubclass(RayNotInstalled, MissingExtra)


def test_an_error_that_stopped_a_run_exits_1():
    assert EndpointUnreachable("down").exit_code == 1


@pytest.mark.parametrize(("arguments", "message"), [
    (["--concurrency", "0"], "Invalid value for '--concurrency'"),  # typer's own check: exit 2 too
    (["--judge", "nope"], "unknown judge 'nope'"),
    (["--out", "result.txt"], "a result file is .json or .parquet"),
])
def test_the_cli_exits_2_with_one_line_for_each(arguments, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps({**ROW, "contexts": ["Paris"]}) + "\n")
    result = CliRunner().invoke(app, ["evaluate", str(data), "-m", "faithfulness", "--no-record", "--no-cache",
                                      "--no-resume", "-q", *arguments])
    assert result.exit_code == 2, result.output
    assert message in result.stderr and "Traceback" not in result.stderr
