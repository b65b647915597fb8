"""A row nested deeper than ragmeter can carry is a named input error; the other rows are scored.

``json`` raises ``RecursionError`` (not ``ValueError``) on a document nested past Python's
recursion limit: a JSON Lines row nested 100,000 deep ended ``ragmeter evaluate`` with a
traceback. A row nested a few hundred deep in its metadata was read and scored, then ended
the run when its sample was written (pydantic writes at most 255 levels). Both are rows like
any bad row now: named (row, line, file), skipped, the rest scored, exit 0.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ragmeter import EvaluationResult, evaluate
from ragmeter.data import Dataset
from ragmeter.data.nesting import MAX_NESTING

GOOD = {"question": "Capital of France?", "answer": "Paris", "ground_truth": "Paris"}
OTHER = {"question": "Capital of France?", "answer": "Lyon", "ground_truth": "Paris"}


def nested_list(depth: int) -> str:
    return "[" * depth + "]" * depth


def nested_object(depth: int) -> str:
    return '{"a": ' * depth + "1" + "}" * depth


def jsonl(tmp_path, middle: str):
    path = tmp_path / "data.jsonl"
    path.write_text(json.dumps(GOOD) + "\n" + middle + "\n" + json.dumps(OTHER) + "\n", encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


ROWS = {
    "a value 100,000 deep": '{"question": "q", "answer": ' + nested_list(100_000) + "}",
    "metadata 100,000 deep": '{"question": "q", "answer": "a", "metadata": ' + nested_object(100_000) + "}",
    "metadata 300 deep": '{"question": "q", "answer": "Paris", "ground_truth": "Paris", "metadata": '
                         + nested_object(300) + "}",
    "an unknown field 300 deep": '{"question": "q", "answer": "Paris", "ground_truth": "Paris", "notes": '
                                 + nested_list(300) + "}",
}


@pytest.mark.parametrize("case", list(ROWS))
def test_a_row_nested_too_deep_is_named_and_skipped_and_the_others_scored(tmp_path, case):
    path = jsonl(tmp_path, ROWS[case])
    out = tmp_path / "result.json"
    result = evaluate(path, ["exact_match"], show_progress=False, out=out, keep_samples=True)  # recorded too
    assert [(s.row, s.scores["exact_match"].value) for s in result.samples] == [(0, 1.0), (2, 0.0)]
    (error,) = result.input_errors
    assert (error.row, error.line) == (1, 2)
    assert f"nested more than {MAX_NESTING} levels deep" in error.message
    back = EvaluationResult.load(out)  # what was written reads back
    assert [s.row for s in back.samples] == [0, 2] and back.input_errors == result.input_errors


def test_the_cli_names_the_deep_row_by_file_and_line_and_exits_0(tmp_path):
    from ragmeter.cli.app import app

    path = jsonl(tmp_path, ROWS["a value 100,000 deep"])
    result = CliRunner().invoke(app, ["evaluate", str(path), "-m", "exact_match", "-q", "--no-record"])
    assert result.exit_code == 0, result.output
    assert "RecursionError" not in result.output and "Traceback" not in result.output
    text = " ".join(result.output.split())  # rich wraps long lines
    assert "row 1: InvalidInput: line 2, invalid JSON in data.jsonl: nested more than 100 levels deep" in text
    assert "exact_match │ 0.500 │ 2" in text


def test_metadata_as_deep_as_the_limit_is_kept(tmp_path):
    row = dict(GOOD, metadata=json.loads(nested_object(MAX_NESTING - 1)))  # the metadata dict is level 1
    path = tmp_path / "data.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    result = evaluate(path, ["exact_match"], show_progress=False, journal=False)
    assert result.input_errors == [] and result.samples[0].sample.metadata == row["metadata"]


def test_a_json_document_nested_too_deep_is_an_error_naming_the_file(tmp_path):
    path = tmp_path / "data.json"
    path.write_text("[" + json.dumps(GOOD) + ", " + nested_list(100_000) + "]", encoding="utf-8")
    with pytest.raises(ValueError, match=r"data\.json: not valid JSON: nested more than 100 levels deep"):
        evaluate(path, ["exact_match"], show_progress=False, journal=False)


def test_a_csv_metadata_cell_nested_too_deep_is_that_rows_error(tmp_path):
    path = tmp_path / "data.csv"
    deep = nested_object(100_000).replace('"', '""')
    path.write_text(f'question,answer,ground_truth,metadata\nq,Paris,Paris,\nq,Paris,Paris,"{deep}"\nq,Lyon,Paris,\n',
                    encoding="utf-8")
    data = Dataset.from_csv(path)
    assert data.rows == [0, 2]
    (error,) = data.errors
    assert (error.row, error.line, error.field) == (1, 3, "metadata")
    assert "nested more than 100 levels deep" in error.message


def test_records_in_memory_nested_too_deep_are_row_errors(tmp_path):
    deep: object = "leaf"
    for _ in range(5_000):
        deep = {"a": deep}
    data = Dataset.from_records([GOOD, dict(GOOD, metadata={"m": deep}), OTHER])
    assert data.rows == [0, 2] and data.errors[0].row == 1
    assert "nested more than 100 levels deep" in data.errors[0].message
