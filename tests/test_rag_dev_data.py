"""The RAG development set (bench/data/rag_dev.jsonl) as shipped, and the validation that
bench/quality_rag_dev.py runs before scoring it: a bad row is named by line, id and field."""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("quality_rag_dev", ROOT / "bench" / "quality_rag_dev.py")
rag_dev = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rag_dev)


def _good_row(rid: str) -> dict:
    return {"id": rid, "split": "dev", "question": "Q?", "contexts": ["One.", "Two."],
            "ground_truth": "T.", "answer": "A.", "answer_expected": 1.0,
            "variants": [{"kind": "negation", "answer": "Not A.", "expected": 0.0},
                         {"kind": "partial", "answer": "A. B.", "expected": 0.5},
                         {"kind": "wrong_date", "answer": "A in 1900.", "expected": 0.0}]}


def test_shipped_set_is_valid_and_counted():
    rows = rag_dev.load()
    c = rag_dev.counts(rows)
    assert c["questions"]["dev"] == 82
    assert c["questions"]["heldout"] == 30
    assert c["questions"]["fresh"] == 20  # h31-h50, written blind after the last verifier change
    assert c["questions"]["fresh2"] == 20  # h51-h70, written blind after the methods were fixed
    assert c["questions"]["fresh3"] == 20  # h71-h90, written blind by a helper who ran no scorer
    assert c["questions"]["fresh4"] == 20  # h91-h110, written blind in the fifth session, no scorer run
    assert c["questions"]["fresh5"] == 20  # h111-h130, written blind in the sixth session, no scorer run
    assert c["questions"]["fresh6"] == 20  # h131-h150, written blind in the seventh session, no scorer run
    assert c["questions"]["fresh7"] == 20  # h151-h170, written blind in the ninth session
    assert c["questions"]["fresh8"] == 20  # h171-h190, written blind in the eleventh session, the blind part today
    # every kind the construction rules name is used
    # (the four kinds fresh8 brought in, 2026-11-27, are used 6 to 9 times each)
    assert all(n >= (20 if kind in rag_dev.KINDS[:8] else 6) for kind, n in c["variants"].items()), c["variants"]
    assert len({r["id"] for r in rows}) == len(rows)
    new = [r for r in rows if r["split"] == "dev" and int(r["id"][1:]) >= 23]
    assert len(new) == 60
    # construction rules of the rows written for issue 14: most variants wholly wrong,
    # at most a quarter partly right at 0.5 or more
    expected = [v["expected"] for r in new for v in r["variants"]]
    assert sum(e == 0.0 for e in expected) > len(expected) / 2
    assert sum(e >= 0.5 for e in expected) <= len(expected) / 4


def test_bad_rows_are_named_by_line_id_and_field(tmp_path: Path):
    no_expected = _good_row("d02")
    del no_expected["variants"][1]["expected"]
    one_context = _good_row("d03")
    one_context["contexts"] = ["Only one."]
    bad_kind = _good_row("d04")
    bad_kind["variants"][2]["kind"] = "typo"
    bad_kind["answer_expected"] = 1.5
    lines = [json.dumps(_good_row("d01")), json.dumps(no_expected), json.dumps(one_context),
             json.dumps(bad_kind), "{not json", json.dumps(copy.deepcopy(_good_row("d01")))]
    path = tmp_path / "rag_dev.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(rag_dev.RagDevDataError) as info:
        rag_dev.load(path)
    problems = str(info.value).splitlines()[1:]
    assert [p.strip() for p in problems] == [
        "rag_dev.jsonl line 2 (id d02): variants[1].expected: None is not a number in [0, 1]",
        "rag_dev.jsonl line 3 (id d03): contexts: need 2-4 chunks, got 1",
        "rag_dev.jsonl line 4 (id d04): answer_expected: 1.5 is not a number in [0, 1]",
        "rag_dev.jsonl line 4 (id d04): variants[2].kind: 'typo' is not one of "
        + ", ".join(rag_dev.KINDS),
        "rag_dev.jsonl line 5: not valid JSON (Expecting property name enclosed in double quotes)",
        "rag_dev.jsonl line 6 (id d01): id: duplicate of line 1",
    ]


def test_check_flag_exits_nonzero_on_a_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture):
    row = _good_row("d01")
    row["variants"] = row["variants"][:2]
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    assert rag_dev.main(["--check", "--data", str(path)]) == 1
    assert "bad.jsonl line 1 (id d01): variants: need 3, got 2" in capsys.readouterr().err
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps(_good_row("d01")) + "\n", encoding="utf-8")
    assert rag_dev.main(["--check", "--data", str(good)]) == 0
    assert "1 rows valid; questions dev 1, heldout 0" in capsys.readouterr().out
