"""``ragmeter review``: a person keeps, drops, edits or skips each generated record with one
key; every decision lands in the review file at once, a rerun shows only what is left, and
the kept records of every session are written in the test-set format. No model is loaded:
the test sets are written here."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ragmeter.cli.answer_excerpt import ANSWER_STYLE, excerpt
from ragmeter.cli.app import app
from ragmeter.data import Dataset
from testset_gen.record import Testset
from testset_gen.review.decisions import ReviewDecision, append_decision, read_decisions

runner = CliRunner()


def record(rid: str, kind: str, question: str, answer: str, contexts: list[str], files: list[str]) -> dict:
    return {"id": rid, "question": question, "ground_truth": answer, "reference_contexts": contexts,
            "evolution_type": kind, "reference_context_ids": [f"chunk-{rid}-{i}" for i in range(len(contexts))],
            "sources": [{"chunk_id": f"chunk-{rid}-{i}", "source": f, "title": f, "page": None}
                        for i, f in enumerate(files)],
            "metadata": {"generator": "offline", "template": "structure:quantity"}}


RECORDS = [
    record("q-a", "simple", "When was the Ember Stove released?", "The Ember Stove was released in 2019.",
           ["The Ember Stove was released in 2019. It weighs 310 g."], ["stove.md"]),
    record("q-b", "simple", "What does the page include?", "It includes a pot.",
           ["The Trailhead 2 kit includes a pot and a lid."], ["kit.md"]),
    record("q-c", "simple", "How much does Trailhead weigh?", "The Trailhead 2 weighs 540 g.",
           ["The Trailhead 2 weighs 540 g with its lid."], ["kit.md"]),
    record("q-d", "reasoning", "Why is the Ember Stove lighter?", "Because its burner is titanium.",
           ["The Ember Stove is lighter because its burner is titanium."], ["stove.md"]),
    record("q-e", "multi_context", "Which is heavier: the Ember Stove or the Trailhead 2?",
           "The Trailhead 2 (540 g) is heavier than the Ember Stove (310 g).",
           ["The Ember Stove weighs 310 g.", "The Trailhead 2 weighs 540 g."], ["stove.md", "kit.md"]),
]


def write_testset(path: Path, rows: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return path


def review_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def kept_ids(path: Path) -> list[str]:
    return [r.id for r in Testset.from_jsonl(path)]


def flat(text: str) -> str:
    return " ".join(text.split())


def decision(rid: str, usable: bool, note: str | None = None, edited: bool = False, question: str | None = None) -> dict:
    source = next(r for r in RECORDS if r["id"] == rid)
    return {"id": rid, "question": question or source["question"], "ground_truth": source["ground_truth"],
            "evolution_type": source["evolution_type"], "usable": usable, "note": note, "edited": edited}


def test_keep_drop_edit_skip_quit_then_resume_to_the_end(tmp_path):
    testset = write_testset(tmp_path / "t.jsonl", RECORDS)
    ratings, reviewed = tmp_path / "t.review.jsonl", tmp_path / "t.reviewed.jsonl"
    # q-a: a bad key, then keep; q-b: drop with the note on the key's line; q-c: edit the
    # question, Enter keeps the ground truth; q-d: skip; q-e: quit
    first = runner.invoke(app, ["review", str(testset)],
                          input="x\ny\nn partial answer\ne\nHow much does the Trailhead 2 weigh?\n\ns\nq\n")
    assert first.exit_code == 0, first.output
    shown = flat(first.stdout)
    assert "5 records to review (0 already in" in shown
    assert "1 of 5 · simple · q-a" in shown and "5 of 5 · multi_context · q-e" in shown
    assert "context 1 (stove.md): The Ember Stove was released in 2019." in shown
    assert "context 2 (kit.md): The Trailhead 2 weighs 540 g." in shown
    assert "type y (keep), n (drop), e (edit), s (skip) or q (quit), not 'x'" in first.stderr
    assert "quit: 3 reviewed now" in shown
    assert review_lines(ratings) == [
        decision("q-a", True), decision("q-b", False, note="partial answer"),
        decision("q-c", True, edited=True, question="How much does the Trailhead 2 weigh?")]
    # written on quit, from the review file: the kept records, the edited one with its new text
    assert kept_ids(reviewed) == ["q-a", "q-c"]
    edited = Testset.from_jsonl(reviewed)[1]
    assert edited.question == "How much does the Trailhead 2 weigh?"
    assert edited.ground_truth == "The Trailhead 2 weighs 540 g."
    assert edited.metadata == {"generator": "offline", "template": "structure:quantity", "edited": True,
                               "original_question": "How much does Trailhead weigh?",
                               "original_ground_truth": "The Trailhead 2 weighs 540 g."}
    assert edited.reference_contexts == RECORDS[2]["reference_contexts"] and edited.sources == Testset.from_jsonl(
        testset)[2].sources

    # resume: only q-d and q-e are shown; q-d dropped with the note asked for; piped input
    # ends at q-e, which is a quit (q-e is not saved half-decided)
    second = runner.invoke(app, ["review", str(testset)], input="n\nvague\n")
    assert second.exit_code == 0, second.output
    shown = flat(second.stdout)
    assert "2 records to review (3 already in" in shown
    assert "q-a" not in shown and "q-b" not in shown and "q-c" not in shown
    assert "1 of 2 · reasoning · q-d" in shown and "2 of 2 · multi_context · q-e" in shown
    assert "quit: 1 reviewed now" in shown
    assert review_lines(ratings)[3:] == [decision("q-d", False, note="vague")]
    assert kept_ids(reviewed) == ["q-a", "q-c"]

    third = runner.invoke(app, ["review", str(testset)], input="y\n")
    assert third.exit_code == 0, third.output
    assert "1 records to review (4 already in" in flat(third.stdout) and "done: 1 reviewed now" in flat(third.stdout)
    assert review_lines(ratings)[4:] == [decision("q-e", True)]
    # every kept record of the three sessions, in the test set's order
    assert kept_ids(reviewed) == ["q-a", "q-c", "q-e"]
    # the summary counts every session's decisions (rows as printed to a pipe: tab-separated)
    table = third.stdout.split("# review\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert table == [
        "evolution\trecords\treviewed\tkept\tedited\tdropped\tmost common notes",
        "simple\t3\t3\t2\t1\t1\tpartial answer 1",
        "reasoning\t1\t1\t0\t0\t1\tvague 1",
        "multi_context\t1\t1\t1\t0\t0\t-",
        "all\t5\t5\t3\t1\t2\t",
    ]
    assert "3 kept of 5 reviewed (0 not yet)" in flat(third.stdout)
    # the reviewed set is a test set `ragmeter run` / `evaluate` read as they read generate's
    loaded = Dataset.load(reviewed)
    assert not loaded.errors and [s.question for s in loaded] == [
        "When was the Ember Stove released?", "How much does the Trailhead 2 weigh?", RECORDS[4]["question"]]

    # nothing left: no record shown, the output written again the same
    fourth = runner.invoke(app, ["review", str(testset)], input="")
    assert fourth.exit_code == 0 and "0 records to review (5 already in" in flat(fourth.stdout)
    assert kept_ids(reviewed) == ["q-a", "q-c", "q-e"]


def test_an_edit_that_changes_nothing_is_a_keep_and_notes_are_counted_most_common_first(tmp_path):
    rows = [record(f"q-{i}", "simple", f"What is item {i}?", f"Item {i} is a pot.", [f"Item {i} is a pot."], ["a.md"])
            for i in range(4)]
    testset = write_testset(tmp_path / "set.jsonl", rows)
    ratings, out = tmp_path / "mine.jsonl", tmp_path / "kept.jsonl"
    result = runner.invoke(app, ["review", str(testset), "--ratings", str(ratings), "-o", str(out)],
                           input="e\n\n\nn Vague\nn partial answer\nn vague\n")
    assert result.exit_code == 0, result.output
    assert [(d["id"], d["usable"], d["note"], d["edited"]) for d in review_lines(ratings)] == [
        ("q-0", True, None, False), ("q-1", False, "Vague", False), ("q-2", False, "partial answer", False),
        ("q-3", False, "vague", False)]
    assert kept_ids(out) == ["q-0"] and "edited" not in Testset.from_jsonl(out)[0].metadata
    assert "simple\t4\t4\t1\t0\t3\tvague 2, partial answer 1" in result.stdout
    assert not (tmp_path / "set.review.jsonl").exists() and not (tmp_path / "set.reviewed.jsonl").exists()


def test_a_bad_row_is_named_by_file_row_and_field_and_the_rest_are_reviewed(tmp_path):
    missing_question = {k: v for k, v in RECORDS[1].items() if k != "question"}
    wrong_type = {**RECORDS[2], "evolution_type": "weird"}
    testset = write_testset(tmp_path / "t.jsonl", [RECORDS[0], missing_question, "{not json", wrong_type, RECORDS[3]])
    result = runner.invoke(app, ["review", str(testset)], input="y\nn\n\n")
    assert result.exit_code == 0, result.output
    problems = [line for line in result.stderr.splitlines() if line.startswith("skipped:")]
    assert problems[0] == "skipped: t.jsonl: row 1, field 'question': missing"
    assert problems[1].startswith("skipped: t.jsonl: row 2 (line 3): invalid JSON")
    assert problems[2].startswith("skipped: t.jsonl: row 3, field 'evolution_type': Input should be 'simple'")
    assert problems[2].endswith("got 'weird'") and len(problems) == 3
    assert "2 records to review (0 already in" in flat(result.stdout)
    assert [(d["id"], d["usable"], d["note"]) for d in review_lines(tmp_path / "t.review.jsonl")] == [
        ("q-a", True, None), ("q-d", False, None)]
    assert kept_ids(tmp_path / "t.reviewed.jsonl") == ["q-a"]


def test_a_file_with_no_whole_record_exits_1_and_an_empty_one_too(tmp_path):
    bad = write_testset(tmp_path / "bad.jsonl", [{"id": "x", "question": "What?"}])
    result = runner.invoke(app, ["review", str(bad)], input="")
    assert result.exit_code == 1
    assert "skipped: bad.jsonl: row 0, field 'ground_truth': missing" in result.stderr
    assert "nothing to review: no row of" in flat(result.stderr)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    result = runner.invoke(app, ["review", str(empty)], input="")
    assert result.exit_code == 1 and "nothing to review:" in result.stderr and "is empty" in result.stderr


def test_a_conversation_set_is_refused_with_exit_2(tmp_path):
    chat = {"id": "c-1", "messages": [{"role": "user", "content": "Who was Marie Curie?"},
                                      {"role": "assistant", "content": "A physicist.", "reference": "A physicist."}],
            "reference": "A physicist.", "metadata": {"turns": []}}
    testset = write_testset(tmp_path / "chats.jsonl", [chat])
    result = runner.invoke(app, ["review", str(testset)], input="y\n")
    assert result.exit_code == 2
    assert "holds 1 conversation(s) (written by `ragmeter generate --conversations`)" in flat(result.stderr)
    assert not (tmp_path / "chats.review.jsonl").exists() and not (tmp_path / "chats.reviewed.jsonl").exists()


def test_the_output_cannot_overwrite_the_test_set_and_is_jsonl(tmp_path):
    testset = write_testset(tmp_path / "t.jsonl", RECORDS)
    same = runner.invoke(app, ["review", str(testset), "-o", str(testset)], input="")
    assert same.exit_code == 2 and "must be three different files" in flat(same.stderr)
    csv = runner.invoke(app, ["review", str(testset), "-o", str(tmp_path / "kept.csv")], input="")
    assert csv.exit_code == 2 and "written as JSONL" in flat(csv.stderr)
    assert testset.read_text(encoding="utf-8").count("\n") == len(RECORDS)


def test_a_review_file_cut_short_by_a_crash_is_read_and_appended_to(tmp_path):
    ratings = tmp_path / "t.review.jsonl"
    ratings.write_text(json.dumps(decision("q-a", True)) + "\n" + '{"id": "q-b", "usa')  # the crash
    append_decision(ratings, ReviewDecision.model_validate(decision("q-c", False, note="vague")))
    log = read_decisions(ratings)
    assert list(log.decisions) == ["q-a", "q-c"] and log.decisions["q-c"].note == "vague"
    assert len(log.problems) == 1 and log.problems[0].startswith("t.review.jsonl: line 2: not a review decision")
    # the record whose line was cut is shown again
    testset = write_testset(tmp_path / "t.jsonl", RECORDS)
    result = runner.invoke(app, ["review", str(testset)], input="q\n")
    assert result.exit_code == 0 and "3 records to review (2 already in" in flat(result.stdout)
    assert "1 of 3 · simple · q-b" in flat(result.stdout)


def test_a_long_context_is_cut_around_the_ground_truths_words_which_are_marked():
    filler = "Unrelated words about the weather fill this paragraph. " * 20
    context = filler + "The Ember Stove was released in 2019 by Fetchly. " + filler
    shown = excerpt(context, "The Ember Stove was released in 2019.", limit=300)
    assert len(shown.plain) <= 300 + 4 and shown.plain.startswith("… ") and shown.plain.endswith(" …")
    assert "The Ember Stove was released in 2019 by Fetchly." in shown.plain
    marked = [shown.plain[s.start:s.end] for s in shown.spans if s.style == ANSWER_STYLE]
    assert marked == ["Ember", "Stove", "released", "2019"]  # "The", "was", "in" are too common to mark
    short = excerpt("Paris is\n the capital.", "Paris")
    assert short.plain == "Paris is the capital." and [(s.start, s.end) for s in short.spans] == [(0, 5)]


def test_csv_and_parquet_test_sets_are_reviewed_and_written_back_as_the_generator_writes_them(tmp_path):
    generated = write_testset(tmp_path / "t.jsonl", RECORDS)
    for suffix in (".csv", ".parquet"):
        flat_file = tmp_path / f"t{suffix}"
        Dataset.load(generated).save(flat_file)  # sources and evolution_type travel in the metadata column
        out = tmp_path / f"kept{suffix}.jsonl"
        result = runner.invoke(app, ["review", str(flat_file), "--ratings", str(tmp_path / f"r{suffix}.jsonl"),
                                     "-o", str(out)], input="y\n" * len(RECORDS))
        assert result.exit_code == 0, result.output
        assert [json.loads(line) for line in out.read_text().splitlines()] == [
            Testset.from_jsonl(generated)[i].model_dump() for i in range(len(RECORDS))], suffix


def test_a_record_written_twice_is_asked_once_and_kept_where_it_stands(tmp_path):
    testset = write_testset(tmp_path / "t.jsonl", [RECORDS[0], RECORDS[1], RECORDS[0]])
    result = runner.invoke(app, ["review", str(testset)], input="y\nn vague\n")
    assert result.exit_code == 0, result.output
    assert "2 records to review" in flat(result.stdout) and "done: 2 reviewed now" in flat(result.stdout)
    assert review_lines(tmp_path / "t.review.jsonl") == [decision("q-a", True), decision("q-b", False, note="vague")]
    assert kept_ids(tmp_path / "t.reviewed.jsonl") == ["q-a", "q-a"]
