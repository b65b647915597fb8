"""What a new user meets in the first hour: plain errors and exit codes, the extras, the CSV
files pandas and Ragas write, a result that prints and indexes like Ragas', --app forms.

Exit codes: 0 scores were computed; 1 the run scored nothing; 2 configuration error.
"""

from __future__ import annotations

import json
import sys
import textwrap

import pandas as pd
import pytest
from typer.testing import CliRunner

from ragmeter import evaluate
from ragmeter.cli.app import app
from ragmeter.data import Dataset, Sample
from ragmeter.data.sample import list_cell
from ragmeter.errors import InvalidInput, RagmeterError
from ragmeter.extras import MissingExtra, check, install_line, installed, require

runner = CliRunner()

ROWS = [
    {"id": "a", "question": "Capital of France?", "answer": "Paris is the capital of France.",
     "contexts": ["Paris is the capital of France."], "ground_truth": "Paris is the capital."},
    {"id": "b", "question": "Capital of Italy?", "answer": "Milan is the capital of Italy.",
     "contexts": ["Rome is the capital of Italy."], "ground_truth": "Rome is the capital."},
]


@pytest.fixture
def data_file(tmp_path):
    path = tmp_path / "data.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in ROWS) + "\n")
    return path


@pytest.fixture(autouse=True)
def no_keys(monkeypatch, tmp_path):
    for name in ("OPENAI_API_KEY", "AZURE_OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


def plain_error(result, code: int) -> str:
    """The command failed with ``code`` and one or two plain lines, no traceback."""
    assert result.exit_code == code, (result.exit_code, result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    assert "Traceback" not in result.output and "Traceback" not in result.stderr
    first = next(i for i, line in enumerate(lines) if line.startswith("error: "))  # after any progress note
    assert 1 <= len(lines) - first <= 2, lines
    return "\n".join(lines[first:])


# --- 1. extras ------------------------------------------------------------------------------


def test_require_names_the_extra_to_install():
    with pytest.raises(MissingExtra) as info:
        require("local", "ragmeter_no_such_module_xyz", "the local judge")
    assert str(info.value) == ("the local judge needs ragmeter_no_such_module_xyz, which is not installed: "
                               "pip install 'ragmeter[local]'")
    assert isinstance(info.value, ImportError) and isinstance(info.value, RagmeterError)
    assert info.value.extra == "local" and not info.value.transient
    assert require("local", "json") is json
    assert install_line("docs") == "pip install 'ragmeter[docs]'"


def test_check_finds_packages_without_importing_them(monkeypatch):
    import importlib.util

    seen = []
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: seen.append(name) or None)
    assert not installed("docs")
    with pytest.raises(MissingExtra, match=r"reading documents needs unstructured, .*'ragmeter\[docs\]'"):
        check("docs", "reading documents")
    assert seen == ["unstructured", "unstructured"]


def test_a_missing_extra_stops_the_cli_in_one_line(data_file, monkeypatch):
    import ragmeter.cli.exits as exits

    def missing(extra, what=None):
        raise MissingExtra(extra, "torch", what)

    monkeypatch.setattr(exits, "check", missing)
    result = runner.invoke(app, ["evaluate", str(data_file), "-q"])
    stderr = plain_error(result, 2)
    assert stderr.strip() == "error: the local judge needs torch, which is not installed: pip install 'ragmeter[local]'"
    # judge-free metrics need no extra: the check is not even asked
    ok = runner.invoke(app, ["evaluate", str(data_file), "-q", "-m", "token_f1,bleu"])
    assert ok.exit_code == 0, ok.output


# --- 2. configuration errors: one or two lines, exit 2 -------------------------------------


@pytest.mark.parametrize("judge", ["openai:gpt-4o-mini", "local+openai:gpt-4o-mini"])
def test_a_missing_key_is_one_line_and_exit_2(data_file, judge):
    stderr = plain_error(runner.invoke(app, ["evaluate", str(data_file), "-q", "-j", judge, "--no-cache"]), 2)
    assert "OPENAI_API_KEY is not set" in stderr


def test_an_openai_embedder_without_a_key_is_a_configuration_error(data_file):
    result = runner.invoke(app, ["evaluate", str(data_file), "-q", "-m", "answer_similarity",
                                 "-e", "openai:text-embedding-3-small", "--no-cache"])
    assert "embedder openai:text-embedding-3-small: OPENAI_API_KEY is not set" in plain_error(result, 2)


def test_generate_with_a_missing_key_is_one_line_and_exit_2(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Paris\n\nParis is the capital of France. It lies on the Seine.\n")
    result = runner.invoke(app, ["generate", str(docs), "-n", "1", "-q", "-j", "openai:gpt-4o-mini",
                                 "--no-cache", "-o", str(tmp_path / "t.jsonl")])
    assert "OPENAI_API_KEY is not set" in plain_error(result, 2)


def test_a_dry_run_needs_no_key(data_file):
    import os

    result = runner.invoke(app, ["evaluate", str(data_file), "-q", "-m", "faithfulness", "-j", "openai:gpt-4o-mini",
                                 "--dry-run", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert "judge openai:gpt-4o-mini: 4 calls" in result.stdout
    assert "OPENAI_API_KEY" not in os.environ  # the placeholder was for the dry run only


def test_an_unknown_metric_is_one_line(data_file):
    assert "unknown metric 'faithfullness'" in plain_error(
        runner.invoke(app, ["evaluate", str(data_file), "-m", "faithfullness", "-q"]), 2)


# --- 3. nothing scored: exit 1, and why ----------------------------------------------------


@pytest.mark.parametrize(("name", "text", "why"), [
    ("empty.jsonl", "", "is empty (0 bytes)"),
    ("blank.jsonl", "\n  \n", "is empty (only blank lines)"),
    ("header.csv", "question,answer\n", "has a header row but no rows"),
    ("empty.json", "[]", "is an empty JSON array"),
])
def test_an_empty_file_says_it_is_empty_and_exits_1(tmp_path, name, text, why):
    path = tmp_path / name
    path.write_text(text)
    stderr = plain_error(runner.invoke(app, ["evaluate", str(path), "-m", "token_f1", "-q"]), 1)
    assert f"error: nothing to score: {path} {why}" in " ".join(stderr.split())


def test_every_row_invalid_exits_1(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"answer": 42, "ground_truth": "x"}\n{"answer": ["a"], "ground_truth": "y"}\n')
    result = runner.invoke(app, ["evaluate", str(path), "-m", "token_f1", "-q"])
    assert result.exit_code == 1
    assert "nothing could be scored: all 2 rows of the input are invalid" in result.stderr


def test_a_judge_that_is_down_scores_nothing_and_exits_1(data_file):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed once the block ends: nothing listens there
    result = runner.invoke(app, ["evaluate", str(data_file), "-m", "faithfulness", "-q", "--no-cache",
                                 "-j", f"openai:m@http://127.0.0.1:{port}/v1", "--max-attempts", "1", "--no-resume"])
    assert result.exit_code == 1, result.output
    assert "nothing could be scored: all 2 scores of 2 samples failed (JudgeUnavailable 2)" in " ".join(result.stderr.split())


def test_a_run_with_scores_exits_0_even_with_some_errors(tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_text(json.dumps(ROWS[0]) + "\n" + '{"answer": 42}\n')
    result = runner.invoke(app, ["evaluate", str(path), "-m", "token_f1", "-q"])
    assert result.exit_code == 0, result.output


# --- 12. the CLI's own output --------------------------------------------------------------


def test_the_summary_line_names_only_metrics_that_have_a_score(tmp_path):
    path = tmp_path / "d.jsonl"
    # no context ids: token_f1 and rouge_l score, id_context_precision has nothing to read
    path.write_text("\n".join(json.dumps({"answer": r["answer"], "ground_truth": r["ground_truth"]}) for r in ROWS))
    result = runner.invoke(app, ["evaluate", str(path), "-m", "token_f1,rouge_l,id_context_precision", "-q"],
                           env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    summary_line = [line for line in result.stdout.splitlines() if line.startswith("summary score")]
    assert len(summary_line) == 1 and summary_line[0].startswith("summary score (harmonic mean of token_f1, rouge_l): ")


def test_help_keeps_the_brackets_of_an_extra():
    result = runner.invoke(app, ["evaluate", "--help"], env={"COLUMNS": "300"})
    assert result.exit_code == 0
    assert "pip install 'ragmeter[ray]'" in " ".join(result.stdout.replace("│", " ").split())


def test_generate_prints_each_skipped_file_once(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Curie\n\nMarie Curie was born in Warsaw in 1867. She won two Nobel Prizes.\n")
    (docs / "empty.md").write_text("\n")
    result = runner.invoke(app, ["generate", str(docs), "-n", "1", "-q", "--no-cache", "-o", str(tmp_path / "t.jsonl")],
                           env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    assert result.stderr.count("empty.md") == 1, result.stderr  # named once, with its reason
    assert "no text found" in result.stderr


# --- 6. CSV files written by pandas and Ragas ----------------------------------------------


def test_a_csv_written_by_pandas_loads_its_lists(tmp_path):
    frame = pd.DataFrame({
        "question": ["Who?", "When?"],
        "answer": ["It's Ada.", "In 1843."],
        "contexts": [["It's Ada Lovelace.", 'She wrote "notes".'], ["In 1843 she published."]],
        "ground_truth": ["Ada.", "1843."],
        "retrieved_context_ids": [[1, "c2"], [3]],
    })
    path = tmp_path / "ragas.csv"
    frame.to_csv(path)  # with the index column, as df.to_csv() writes by default
    assert "['In 1843 she published.']" in path.read_text()  # Python repr, not JSON
    ds = Dataset.load(path)
    assert ds.errors == []
    assert [s.contexts for s in ds.samples] == [["It's Ada Lovelace.", 'She wrote "notes".'], ["In 1843 she published."]]
    assert [s.retrieved_context_ids for s in ds.samples] == [["1", "c2"], ["3"]]
    result = runner.invoke(app, ["evaluate", str(path), "-m", "token_f1", "-q"])
    assert result.exit_code == 0 and "problem" not in result.stdout, result.output


def test_list_cells_are_read_as_literals_only():
    assert list_cell('["a", "b"]') == ["a", "b"]
    assert list_cell("['a', \"b's\"]") == ["a", "b's"]
    assert list_cell("('a',)") is None  # a tuple is not a list column
    assert list_cell("['a',)") is None
    assert list_cell("[__import__('os').system('echo pwned')]") is None  # a call is not a literal
    assert list_cell("[open('x')]") is None
    with pytest.raises(InvalidInput, match=r"field 'contexts': expected a list of strings, got str \(not a valid JSON list"):
        Sample.model_validate({"contexts": "[a, b]"})
    with pytest.raises(InvalidInput, match=r"expected a list of strings, got a list with int at index 1"):
        Sample.model_validate({"contexts": "['a', 2]"})


# --- 7. a result that prints and indexes like Ragas' -------------------------------------


def test_result_indexing_repr_and_plain_numbers():
    rows = [{"answer": "a b c", "ground_truth": "a b d"}, {"answer": "x", "ground_truth": "x"}, {"answer": "y"}]
    result = evaluate(rows, ["token_f1", "exact_match"], show_progress=False, journal=False)
    assert result["token_f1"] == [pytest.approx(2 / 3), 1.0, None]  # None: row 2 has no ground truth
    assert result["exact_match"] == [0.0, 1.0, None]
    assert repr(result) == "{'token_f1': 0.8333, 'exact_match': 0.5}" == str(result)
    assert result.means() == {"token_f1": pytest.approx(5 / 6), "exact_match": 0.5}
    assert json.loads(json.dumps(result.means()))["exact_match"] == 0.5
    assert float(result.summary()["exact_match"]) == 0.5
    with pytest.raises(KeyError, match="'faithfulness' is not a metric of this run"):
        result["faithfulness"]
    nothing = evaluate([{"answer": "y"}], ["token_f1"], show_progress=False, journal=False)
    assert repr(nothing) == "{'token_f1': None}"
    with pytest.raises(ValueError, match="no score was computed"):
        float(nothing.summary()["token_f1"])


def test_a_streamed_result_indexes_from_its_file(tmp_path):
    out = tmp_path / "r.json"
    result = evaluate([{"answer": "a", "ground_truth": "a"}, {"answer": "b", "ground_truth": "c"}], ["exact_match"],
                      show_progress=False, journal=False, out=out)
    assert result.samples == [] and result["exact_match"] == [1.0, 0.0]


# --- 4. --app forms ------------------------------------------------------------------------


def test_app_file_imports_the_modules_beside_it(tmp_path, data_file, monkeypatch):
    monkeypatch.chdir(tmp_path)
    project = tmp_path / "project"
    project.mkdir()
    (project / "knowledge_first_hour.py").write_text("FACTS = {'Capital of France?': 'Paris.'}\n")
    (project / "rag_first_hour.py").write_text(textwrap.dedent("""
        from knowledge_first_hour import FACTS

        def answer(question):
            return {"answer": FACTS.get(question, "I don't know."), "contexts": ["Paris is the capital of France."]}
    """))
    monkeypatch.setattr(sys, "path", list(sys.path))
    out = tmp_path / "answers.jsonl"
    result = runner.invoke(app, ["run", str(data_file), "--app", "project/rag_first_hour.py:answer", "-q", "-o", str(out)])
    assert result.exit_code == 0, result.output
    answers = [json.loads(line)["answer"] for line in out.read_text().splitlines()]
    assert answers == ["Paris.", "I don't know."]


def test_app_may_name_a_langchain_runnable(tmp_path, data_file, monkeypatch):
    pytest.importorskip("langchain_core")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "chain_first_hour.py").write_text(textwrap.dedent("""
        from langchain_core.runnables import RunnableLambda, RunnableParallel, RunnablePassthrough

        retrieve = RunnableLambda(lambda q: ["Paris is the capital of France."])
        chain = RunnableParallel(contexts=retrieve, question=RunnablePassthrough()).assign(
            answer=RunnableLambda(lambda x: "From the context: " + x["contexts"][0]))
    """))
    monkeypatch.setattr(sys, "path", list(sys.path))
    out = tmp_path / "answers.jsonl"
    result = runner.invoke(app, ["run", str(data_file), "--app", "chain_first_hour:chain", "-q", "-o", str(out)])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["answer"] for r in records] == ["From the context: Paris is the capital of France."] * 2
    assert [r["contexts"] for r in records] == [["Paris is the capital of France."]] * 2


def test_app_that_is_not_an_app_is_one_line(tmp_path, data_file, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notapp_first_hour.py").write_text("ANSWER = 42\n")
    monkeypatch.setattr(sys, "path", list(sys.path))
    result = runner.invoke(app, ["run", str(data_file), "--app", "notapp_first_hour:ANSWER", "-q"])
    assert "is a int, not a callable, a LangChain Runnable or a LlamaIndex query engine" in plain_error(result, 2)


def test_run_on_an_empty_test_set_exits_1(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text("")
    result = runner.invoke(app, ["run", str(path), "--app", "x:y", "-q"])
    assert f"no questions to run: {path} is empty (0 bytes)" in " ".join(plain_error(result, 1).split())
