"""``ragmeter review``: a person's eye on a generated test set, one key per record.

Why: the offline generator writes records of which, as people rated them, about half are
usable (a vague question, a partial ground truth, a page title taken for a place), and no
filter tells that half apart (docs/testset.md). A person does, in seconds a record. Each
decision is appended to the review file the moment it is made, so quitting (q, Ctrl-C, the
end of piped input) loses nothing and the same command resumes where it stopped; the kept
records are written, in the test-set format, from the whole review file.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from ragmeter.cli.console import app, err, out, setup_logging
from ragmeter.cli.exits import EXIT_FAILED, fail, plain_errors, print_error
from ragmeter.cli.keys import read_key, read_line
from ragmeter.cli.readable import print_table
from ragmeter.cli.review_display import show_record, summary_table
from ragmeter.errors import InvalidOption

if TYPE_CHECKING:
    from testset_gen.record import TestsetRecord
    from testset_gen.review.decisions import ReviewDecision

HELP = ("y keep · n drop (a note after it, e.g. 'n vague', or asked next) · e edit question and ground truth"
        " · s skip for now · q quit")
JSONL_SUFFIXES = (".jsonl", ".json-lines", ".jsonlines", ".ndjson")


class Quit(Exception):
    """The reviewer asked to stop (q, Ctrl-C at a prompt, or the end of piped input); Ctrl-C
    elsewhere ends the review the same way."""


@app.command("review")
def review(
    testset: Path = typer.Argument(..., help="A test set as `ragmeter generate` writes it (JSONL; CSV, Parquet and JSON read too).", exists=True, dir_okay=False),
    ratings: Optional[Path] = typer.Option(None, "--ratings", help="The review file: one decision per line, appended as made; records already in it are not shown again (resume). Default: <testset stem>.review.jsonl beside the test set."),
    out_path: Optional[Path] = typer.Option(None, "--out", "-o", help="Where the kept records go, in the test-set format (JSONL), edits applied. Default: <testset stem>.reviewed.jsonl beside the test set."),
) -> None:
    """Review a test set record by record: keep, drop (with a note), edit or skip each one.

    Every decision is appended to --ratings at once; quitting loses nothing, and the same
    command goes on with the records not yet reviewed. When the review ends or is quit, the
    kept records (of every session) are written to --out, and a table counts them per
    evolution type. Exit code 0 when the review ran, 1 when the test set has no readable
    record, 2 for a bad option or a file that is not a single-question test set."""
    from ragmeter.data import empty_message
    from testset_gen.review.decisions import read_decisions
    from testset_gen.review.loading import read_testset

    setup_logging(False)
    ratings = ratings if ratings is not None else testset.with_name(f"{testset.stem}.review.jsonl")
    out_path = out_path if out_path is not None else testset.with_name(f"{testset.stem}.reviewed.jsonl")
    if (empty := empty_message(testset)) is not None:
        fail(f"nothing to review: {empty}", EXIT_FAILED)
    with plain_errors():
        _check_paths(testset, ratings, out_path)
        loaded = read_testset(testset)
        log = read_decisions(ratings)
    for problem in loaded.problems + log.problems:
        print_error(problem, label="skipped", style="yellow")
    if not loaded.records:
        fail(f"nothing to review: no row of {testset} is a whole test-set record (see above)", EXIT_FAILED)
    # a record written twice (same id) is one decision, asked once
    undecided: dict[str, TestsetRecord] = {}
    for record in loaded.records:
        if record.id not in log.decisions:
            undecided.setdefault(record.id, record)
    todo = list(undecided.values())
    out.print(f"{len(todo)} records to review ({len(loaded.records) - len(todo)} already in {ratings}). {HELP}",
              highlight=False, markup=False)
    decided = 0
    try:
        for position, record in enumerate(todo, start=1):
            show_record(out, record, position, len(todo))
            if _decide(record, ratings):
                decided += 1
        out.print(f"done: {decided} reviewed now", highlight=False, markup=False)
    except (Quit, KeyboardInterrupt):
        # the record in hand is not saved half-decided: it comes back on the next run
        out.print(f"quit: {decided} reviewed now; {ratings} holds every decision. Run the same command to go on.",
                  highlight=False, markup=False)
    _finish(loaded.records, ratings, out_path)


def _check_paths(testset: Path, ratings: Path, out_path: Path) -> None:
    """The three files must differ (writing the kept records over the test set would lose the
    rest of it), and the kept records are written as the generator writes a test set: JSONL."""
    if out_path.suffix.lower() not in JSONL_SUFFIXES:
        raise InvalidOption(f"--out {out_path}: the kept records are written as JSONL, as `ragmeter generate` "
                            f"writes a test set; give a name ending in .jsonl")
    resolved = {"the test set": testset.resolve(), "--ratings": ratings.resolve(), "--out": out_path.resolve()}
    if len(set(resolved.values())) < len(resolved):
        raise InvalidOption("the test set, --ratings and --out must be three different files: "
                            + ", ".join(f"{name} {path}" for name, path in resolved.items()))


def _decide(record: TestsetRecord, ratings: Path) -> bool:
    """Ask for one key until it is a known one; append the decision and say True, or say
    False for a skip. Raises ``Quit`` for q and for the end of input."""
    from testset_gen.review.decisions import append_decision

    while True:
        try:
            key, note = read_key("keep? [y/n/e/s/q]")
            if key == "q":
                raise Quit
            if key == "s":
                return False
            if key not in ("y", "n", "e"):
                err.print(f"type y (keep), n (drop), e (edit), s (skip) or q (quit), not {key!r}",
                          highlight=False, markup=False)
                continue
            decision = _decision(record, key, note)
        except typer.Abort:
            raise Quit from None
        append_decision(ratings, decision)
        return True


def _decision(record: TestsetRecord, key: str, note: str) -> ReviewDecision:
    """The decision a key stands for. ``n`` asks for a note unless one followed the key;
    ``e`` asks for the new question and ground truth, Enter keeping each: an edit that
    changes neither is a plain keep."""
    from testset_gen.review.decisions import ReviewDecision

    question, ground_truth = record.question, record.ground_truth
    if key == "n" and not note:
        note = read_line("note (optional: vague, partial answer, ...; Enter for none)")
    if key == "e":
        question = read_line("question (Enter keeps it)", record.question)
        ground_truth = read_line("ground truth (Enter keeps it)", record.ground_truth)
    edited = (question, ground_truth) != (record.question, record.ground_truth)
    dropped = key == "n"
    return ReviewDecision(id=record.id, question=question, ground_truth=ground_truth,
                          evolution_type=record.evolution_type, usable=not dropped,
                          note=(note or None) if dropped else None, edited=edited)


def _finish(records: list[TestsetRecord], ratings: Path, out_path: Path) -> None:
    """Write the kept records of every session (read back from the review file) and print the
    table of decisions per evolution type."""
    from testset_gen.record import Testset
    from testset_gen.review.decisions import read_decisions
    from testset_gen.review.outcome import kept_records, tally

    decisions = read_decisions(ratings).decisions
    kept = kept_records(records, decisions)
    Testset(records=kept).to_jsonl(out_path)
    print_table(out, summary_table(tally(records, decisions)))
    reviewed = sum(1 for record in records if record.id in decisions)
    out.print(f"{len(kept)} kept of {reviewed} reviewed ({len(records) - reviewed} not yet); "
              f"kept records written to {out_path}", highlight=False, markup=False)
