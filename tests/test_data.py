"""The data layer: aliases, strict types, per-row load errors, and lossless round trips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragmeter.data import FIELDS, SAMPLE_DATA_PATH, Dataset, RowError, Sample
from ragmeter.errors import InvalidInput

# --- fixtures ------------------------------------------------------------------------------


def rich_records() -> list[dict]:
    """Records that exercise every field and the awkward characters of every format."""
    return [
        {
            "id": "a-1",
            "question": "Where was Einstein born?",
            "answer": "In Ulm, Germany.",
            "contexts": [
                'Albert Einstein (born 14 March 1879) was a "German-born" physicist.',
                "Line one,\nline two; commas, quotes ' and \u00fcml\u00e4uts \u2013 \U0001f600",
            ],
            "ground_truth": "Ulm, Germany",
            "reference_contexts": ["He was born in Ulm."],
            "retrieved_context_ids": [3, "doc-7"],
            "reference_context_ids": ["doc-7"],
            "metadata": {"kind": "correct", "score": 0.5, "tags": ["x", "y"], "nested": {"n": 1}},
        },
        {
            "id": "a-2",
            "question": "Only a question",
            "metadata": {"kind": "partial", "flag": True, "none": None},
        },
        {"answer": "No id, no metadata", "contexts": []},
        {"id": "a-4", "question": "Q4", "answer": "A4", "contexts": ["c1", "c2", "c3"]},
    ]


@pytest.fixture
def rich() -> Dataset:
    ds = Dataset.from_records(rich_records())
    assert ds.errors == []
    return ds


# --- Sample ----------------------------------------------------------------------------------


def test_canonical_fields_and_defaults():
    s = Sample(question="q", answer="a", contexts=["c"], ground_truth="g")
    assert s.question == "q" and s.contexts == ["c"] and s.metadata == {} and s.id is None
    assert FIELDS == (
        "question",
        "answer",
        "contexts",
        "ground_truth",
        "reference_contexts",
        "retrieved_context_ids",
        "reference_context_ids",
    )


def test_ragas_v02_aliases_load_into_canonical_fields():
    s = Sample.model_validate(
        {
            "user_input": "q",
            "response": "a",
            "retrieved_contexts": ["c1", "c2"],
            "reference": "g",
            "reference_contexts": ["r"],
        }
    )
    assert s.to_record() == {
        "question": "q",
        "answer": "a",
        "contexts": ["c1", "c2"],
        "ground_truth": "g",
        "reference_contexts": ["r"],
    }


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (["Paris"], "Paris"),
        (["Paris is the capital.", "It is in France."], "Paris is the capital. It is in France."),
        (["  padded ", " twice  "], "padded twice"),
        ("A plain string", "A plain string"),
        ('["from", "a CSV cell"]', "from a CSV cell"),
        ([], None),
    ],
)
def test_old_ground_truths(value, expected):
    assert Sample(ground_truths=value).ground_truth == expected


def test_alias_equal_to_canonical_is_fine_and_none_alias_is_ignored():
    s = Sample(question="q", user_input="q", reference="g", ground_truths=["g"], response=None)
    assert s.question == "q" and s.ground_truth == "g" and s.answer is None


@pytest.mark.parametrize(
    ("record", "names"),
    [
        ({"question": "a", "user_input": "b"}, ("question", "user_input")),
        ({"answer": "a", "response": "b"}, ("answer", "response")),
        ({"contexts": ["a"], "retrieved_contexts": ["b"]}, ("contexts", "retrieved_contexts")),
        ({"ground_truth": "a", "reference": "b"}, ("ground_truth", "reference")),
        ({"reference": "a", "ground_truths": ["b"]}, ("reference", "ground_truths")),
    ],
)
def test_conflicting_alias_is_an_error_naming_both(record, names):
    with pytest.raises(InvalidInput) as info:
        Sample.model_validate(record)
    for name in names:
        assert repr(name) in str(info.value)


@pytest.mark.parametrize(
    ("record", "field", "got"),
    [
        ({"answer": 42}, "answer", "got int"),
        ({"question": {"text": "q"}}, "question", "got dict"),
        ({"ground_truth": True}, "ground_truth", "got bool"),
        ({"answer": 1.5}, "answer", "got float"),
        ({"question": ["q"]}, "question", "got list"),
        ({"contexts": 7}, "contexts", "got int"),
        ({"contexts": "just text"}, "contexts", "got str"),
        ({"contexts": "[not json"}, "contexts", "got str"),
        ({"contexts": ["ok", 3]}, "contexts", "int at index 1"),
        ({"contexts": '["ok", 3]'}, "contexts", "int at index 1"),
        ({"retrieved_contexts": {"a": 1}}, "retrieved_contexts", "got dict"),
        ({"reference_contexts": [None]}, "reference_contexts", "NoneType at index 0"),
        ({"metadata": [1, 2]}, "metadata", "got list"),
        ({"id": 1.5}, "id", "got float"),
    ],
)
def test_wrong_types_are_rejected_not_coerced(record, field, got):
    with pytest.raises(InvalidInput) as info:
        Sample.model_validate(record)
    assert info.value.field == field
    assert got in str(info.value)
    assert "expected" in str(info.value)


def test_json_list_string_is_parsed_for_list_fields():
    s = Sample(contexts='["a", "b, c"]', reference_contexts=' ["r"] ')
    assert s.contexts == ["a", "b, c"] and s.reference_contexts == ["r"]


def test_unknown_columns_go_to_metadata_and_merge_with_explicit_metadata():
    s = Sample.model_validate(
        {"question": "q", "source": "wiki", "latency_ms": 12, "metadata": {"kind": "x"}}
    )
    assert s.metadata == {"kind": "x", "source": "wiki", "latency_ms": 12}
    assert Sample(metadata='{"a": 1}', b=2).metadata == {"a": 1, "b": 2}
    with pytest.raises(InvalidInput):
        Sample(metadata={"a": 1}, a=2)


def test_id_accepts_integers():
    assert Sample(id=7).id == "7"
    assert Sample(id="x-7").id == "x-7"


def test_missing_flags_absent_blank_and_empty_list():
    s = Sample(question="  \n", answer="a", contexts=[], ground_truth=None)
    assert s.missing(FIELDS) == [
        "question",
        "contexts",
        "ground_truth",
        "reference_contexts",
        "retrieved_context_ids",
        "reference_context_ids",
    ]
    assert s.missing(["answer"]) == []
    assert Sample(contexts=["  ", ""]).missing(["contexts"]) == ["contexts"]
    assert Sample(contexts=["", "text"]).missing(["contexts"]) == []
    assert Sample(answer="a").missing(["response", "retrieved_contexts"]) == ["retrieved_contexts"]
    with pytest.raises(ValueError):
        s.missing(["questoin"])


def test_fingerprint_is_stable_and_tracks_inputs_only():
    a = Sample(question="q", answer="a", contexts=["c"], id="1", metadata={"k": 1})
    b = Sample(user_input="q", response="a", retrieved_contexts=["c"], id="2")
    assert a.fingerprint() == b.fingerprint()
    assert len(a.fingerprint()) == 64
    assert a.fingerprint() != Sample(question="q", answer="a!", contexts=["c"]).fingerprint()
    assert a.fingerprint() != Sample(question="q", answer="a", contexts=["c", "d"]).fingerprint()


def test_fingerprint_matches_canonical_json():
    import hashlib

    s = Sample(question="q", contexts=["c"])
    payload = json.dumps(
        {
            "answer": None,
            "contexts": ["c"],
            "ground_truth": None,
            "question": "q",
            "reference_contexts": None,
        },
        separators=(",", ":"),
    )
    assert s.fingerprint() == hashlib.sha256(payload.encode()).hexdigest()


# --- round trips ---------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".jsonl", ".ndjson", ".json", ".csv", ".parquet"])
def test_file_round_trip_preserves_every_field(rich, tmp_path, suffix):
    path = tmp_path / f"data{suffix}"
    rich.save(path)
    back = Dataset.load(path)
    assert back.errors == []
    assert back.to_records() == rich.to_records()
    assert back.rows == [0, 1, 2, 3]
    assert back.source == str(path)


def test_explicit_savers_and_loaders(rich, tmp_path):
    rich.to_jsonl(tmp_path / "a.jsonl")
    rich.to_csv(tmp_path / "a.csv")
    rich.to_parquet(tmp_path / "a.parquet")
    for ds in (
        Dataset.from_jsonl(tmp_path / "a.jsonl"),
        Dataset.from_csv(tmp_path / "a.csv"),
        Dataset.from_parquet(tmp_path / "a.parquet"),
    ):
        assert ds.to_records() == rich.to_records()


def test_pandas_round_trip(rich):
    df = rich.to_pandas()
    assert list(df.columns) == ["id", *FIELDS, "metadata"]
    back = Dataset.from_pandas(df)
    assert back.errors == []
    assert back.to_records() == rich.to_records()


def test_pandas_nan_and_numpy_arrays(tmp_path):
    import numpy as np
    import pandas as pd

    df = pd.DataFrame(
        {
            "user_input": ["q1", None, "q3"],
            "response": ["a1", "a2", np.nan],
            "retrieved_contexts": [np.array(["c1", "c2"]), None, np.array([], dtype=object)],
            "score": [1.0, np.nan, 3.0],
            "n": np.array([1, 2, 3], dtype=np.int64),
        }
    )
    ds = Dataset.from_pandas(df)
    assert ds.errors == []
    assert [s.to_record() for s in ds] == [
        {
            "question": "q1",
            "answer": "a1",
            "contexts": ["c1", "c2"],
            "metadata": {"score": 1.0, "n": 1},
        },
        {"answer": "a2", "metadata": {"n": 2}},
        {"question": "q3", "contexts": [], "metadata": {"score": 3.0, "n": 3}},
    ]
    assert type(ds[0].metadata["n"]) is int
    # pandas reading Parquet gives numpy arrays in list columns
    Dataset(ds.samples).to_parquet(tmp_path / "x.parquet")
    again = Dataset.from_pandas(pd.read_parquet(tmp_path / "x.parquet"))
    assert again.to_records() == ds.to_records()


def test_pandas_wrong_type_is_a_row_error():
    import pandas as pd

    df = pd.DataFrame({"question": ["q", "q"], "answer": ["fine", None], "contexts": ["[]", 5]})
    ds = Dataset.from_pandas(df)
    assert len(ds) == 1 and ds.rows == [0]
    assert [(e.row, e.field) for e in ds.errors] == [(1, "contexts")]


def test_hf_round_trip(rich):
    hf = rich.to_hf()
    assert hf.num_rows == 4
    assert set(hf.column_names) == {"id", *FIELDS, "metadata"}
    back = Dataset.from_hf(hf)
    assert back.errors == []
    assert back.to_records() == rich.to_records()


def test_hf_ragas_style_dataset_and_dataset_dict():
    import datasets

    hf = datasets.Dataset.from_dict(
        {
            "user_input": ["q1", "q2"],
            "response": ["a1", "a2"],
            "retrieved_contexts": [["c1"], ["c2", "c3"]],
            "reference": ["g1", "g2"],
        }
    )
    ds = Dataset.from_hf(hf)
    assert ds[1].contexts == ["c2", "c3"] and ds[0].ground_truth == "g1"
    dd = datasets.DatasetDict({"train": hf, "test": hf.select([0])})
    assert len(Dataset.from_hf(dd, split="test")) == 1
    with pytest.raises(ValueError):
        Dataset.from_hf(dd)


def test_csv_with_ragas_columns_and_extra_columns(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text(
        "user_input,response,retrieved_contexts,ground_truths,team\n"
        'q1,a1,"[""c1"", ""c2""]","[""g1""]",search\n'
        "q2,,,,\n",
        encoding="utf-8",
    )
    ds = Dataset.load(path)
    assert ds.errors == []
    assert ds.to_records() == [
        {
            "question": "q1",
            "answer": "a1",
            "contexts": ["c1", "c2"],
            "ground_truth": "g1",
            "metadata": {"team": "search"},
        },
        {"question": "q2"},
    ]


def test_csv_bad_cells_are_row_errors_with_line_numbers(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text(
        "question,contexts,metadata\n"
        'q0,"[""multi"",\n""line""]",\n'  # lines 2-3
        "q1,not a list,\n"  # line 4
        "\n"  # line 5, blank
        'q2,"[1]",\n'  # line 6
        "q3,[],{oops\n"  # line 7
        "q4,[],,extra\n"  # line 8
        "q5,[],\n",  # line 9
        encoding="utf-8",
    )
    ds = Dataset.from_csv(path)
    assert [s.question for s in ds] == ["q0", "q5"]
    assert ds[0].contexts == ["multi", "line"]
    assert ds.rows == [0, 5]
    assert [(e.row, e.line, e.field) for e in ds.errors] == [
        (1, 4, "contexts"),
        (2, 6, "contexts"),
        (3, 7, "metadata"),
        (4, 8, None),
    ]


def test_json_columns_and_json_that_is_really_jsonl(tmp_path):
    cols = tmp_path / "cols.json"
    cols.write_text(json.dumps({"question": ["q1", "q2"], "answer": ["a1", None]}))
    assert Dataset.load(cols).to_records() == [
        {"question": "q1", "answer": "a1"},
        {"question": "q2"},
    ]
    lines = tmp_path / "lines.json"
    lines.write_text('{"question": "q1"}\n{"question": "q2"}\n')
    assert [s.question for s in Dataset.load(lines)] == ["q1", "q2"]


def test_load_json_list_and_unknown_extension(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps([{"question": "q", "answer": 3}, {"question": "q2"}]))
    ds = Dataset.load(path)
    assert len(ds) == 1 and ds.rows == [1]
    assert str(ds.errors[0]) == "row 0, field 'answer': expected a string, got int"
    with pytest.raises(ValueError, match="extension"):
        Dataset.load(tmp_path / "x.txt")
    with pytest.raises(ValueError, match="extension"):
        Dataset(ds.samples).save(tmp_path / "x.xlsx")


# --- malformed rows --------------------------------------------------------------------------


def _good(i: int) -> dict:
    return {
        "id": f"r{i}",
        "question": f"Question {i}?",
        "answer": f"Answer {i}.",
        "contexts": [f"Chunk {i}a.", f"Chunk {i}b."],
        "ground_truth": f"Truth {i}.",
    }


BAD_ROWS: dict[int, tuple[object, str | None, str]] = {
    # row: (record or raw line, expected field, text expected in the message)
    3: ({"question": "q", "answer": []}, "answer", "expected a string, got list"),
    7: ({"question": "q", "contexts": 5}, "contexts", "expected a list of strings, got int"),
    11: ({"question": "q", "contexts": ["ok", 2]}, "contexts", "int at index 1"),
    15: ({"question": "q", "answer": 42}, "answer", "expected a string, got int"),
    19: ({"question": {"text": "q"}, "answer": "a"}, "question", "expected a string, got dict"),
    23: ('{"question": "q", "answer": "unterminated}', None, "invalid JSON"),
    27: ({"user_input": "q", "retrieved_contexts": 3.5}, "retrieved_contexts", "got float"),
    31: ({"question": "q", "user_input": "other"}, "question", "'user_input'"),
    35: ({"question": "q", "ground_truth": False}, "ground_truth", "got bool"),
    44: ("[1, 2, 3]", None, "expected a JSON object, got list"),
}

# rows whose only problem is a missing field: not load errors
MISSING_ONLY = {
    5: {"question": "only a question"},
    9: {"question": "q", "answer": None, "contexts": None},
    13: {"question": "q", "answer": "  ", "contexts": []},
    17: {},
}


def _write_malformed(path: Path) -> dict[int, int]:
    """Write 50 rows (with blank lines in between); return row -> line number."""
    lines: list[str] = []
    line_of: dict[int, int] = {}
    for row in range(50):
        if row % 10 == 0:
            lines.append("")  # blank lines are not rows
        if row in BAD_ROWS:
            content = BAD_ROWS[row][0]
            text = content if isinstance(content, str) else json.dumps(content)
        else:
            text = json.dumps(MISSING_ONLY.get(row, _good(row)))
        lines.append(text)
        line_of[row] = len(lines)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return line_of


def test_malformed_jsonl_gives_one_error_per_bad_row(tmp_path):
    path = tmp_path / "mixed.jsonl"
    line_of = _write_malformed(path)
    ds = Dataset.load(path)

    assert len(ds.errors) == 10
    assert len(ds) == 40
    assert ds.rows == [r for r in range(50) if r not in BAD_ROWS]
    for sample, row in zip(ds, ds.rows, strict=True):
        expected = MISSING_ONLY.get(row, _good(row))
        assert sample.question == expected.get("question")
        if row not in MISSING_ONLY:
            assert sample.id == f"r{row}"

    for err, (row, (_, field, text)) in zip(ds.errors, sorted(BAD_ROWS.items()), strict=True):
        assert isinstance(err, RowError)
        assert (err.row, err.field, err.line) == (row, field, line_of[row])
        assert text in err.message
        assert str(err).startswith(f"row {row} (line {line_of[row]})")

    assert "10 errors" in repr(ds) and "40 samples" in repr(ds)
    with pytest.raises(InvalidInput, match="10 row"):
        ds.raise_for_errors()


def test_row_error_str():
    err = RowError(row=7, field="contexts", message="expected a list of strings, got int")
    assert str(err) == "row 7, field 'contexts': expected a list of strings, got int"
    assert str(RowError(row=0, line=3, message="invalid JSON")) == "row 0 (line 3): invalid JSON"


# --- Dataset as a container ---------------------------------------------------------------


def test_dataset_from_samples_directly(rich):
    ds = Dataset([Sample(question="a"), Sample(question="b"), {"user_input": "c"}])
    assert len(ds) == 3 and ds.rows == [0, 1, 2] and ds.errors == [] and ds.source is None
    assert [s.question for s in ds] == ["a", "b", "c"]
    assert ds[-1].question == "c"
    part = rich[1:3]
    assert isinstance(part, Dataset) and part.rows == [1, 2] and len(part) == 2
    assert repr(ds) == "Dataset(3 samples, 0 errors)"
    with pytest.raises(InvalidInput):
        Dataset([{"answer": 1}])
    with pytest.raises(ValueError):
        Dataset([Sample()], rows=[0, 1])


def test_to_records_omits_none(rich):
    records = rich.to_records()
    assert records[2] == {"answer": "No id, no metadata", "contexts": []}
    assert all(None not in r.values() for r in records)


# --- bundled sample data ------------------------------------------------------------------


def test_bundled_sample_dataset():
    ds = Dataset.load(SAMPLE_DATA_PATH)
    assert ds.errors == []
    assert len(ds) == 16
    kinds = [s.metadata["kind"] for s in ds]
    assert kinds.count("correct") >= 5
    assert kinds.count("wrong_fact") == 3
    assert kinds.count("incomplete") == 2
    assert kinds.count("refusal") == 1
    assert kinds.count("irrelevant_context") == 1
    assert len({s.id for s in ds}) == 16
    for s in ds:
        assert s.missing(["question", "answer", "contexts", "ground_truth"]) == []
        assert 2 <= len(s.contexts) <= 3
    einstein = [s for s in ds if "Einstein" in (s.question or "")]
    assert len(einstein) == 1
    assert "born 14 March 1879" in einstein[0].contexts[0]
    assert "German-born" in einstein[0].contexts[0]
    assert "20th March 1879" in einstein[0].answer
    refusal = next(s for s in ds if s.metadata["kind"] == "refusal")
    assert refusal.answer == "I don't know based on the provided documents."
    assert Dataset.from_sample_data().to_records() == ds.to_records()
