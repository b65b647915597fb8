"""The filter's rejection reasons measured against hand ratings: for each question-level check,
how often it fires on records a person rated unusable (precision) and how many of the
unusable records of its kind it catches (recall).

    .venv/bin/python bench/filter_calibration.py [--ratings bench/testset_hand_ratings.jsonl]

The ratings (``testset_hand_ratings.jsonl``: question, usable, a note on why not) are of
records that passed the filter of their day, so a check that fires on a usable record here
is a check that would reject a good question; recall is counted against the unusable records
whose note names the check's kind of fault (``KINDS``: "not standalone", "surname only" and
"unresolved" are an unresolved reference; "vague", "ambiguous" ambiguity; "awkward",
"unnatural", "garbled" not a question). Only checks that read the question alone can be run
on the ratings (they keep no contexts).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent

KINDS = {
    "unresolved_reference": re.compile(r"not standalone|unresolved|surname|which \w+|whose", re.I),
    "ambiguous": re.compile(r"vague|ambiguous|many (?:\w+ )?could", re.I),
    "not_a_question": re.compile(r"awkward|unnatural|garbled|odd", re.I),
}


def checks():
    from testset_gen.offline.candidate import Candidate
    from testset_gen.offline.record_filter import unresolved_reference
    from testset_gen.offline.structure_checks import structure_reasons

    def structure(reason):
        return lambda q: reason in structure_reasons(Candidate("simple", q, "A sentence.", ("c",), (),
                                                               structural=True))
    return {
        "structure: unresolved_reference (a pronoun)": ("unresolved_reference", structure("unresolved_reference")),
        "structure: names_nothing": ("ambiguous", structure("names_nothing")),
        "structure: not_a_question (length, aside)": ("not_a_question", structure("not_a_question")),
        "structure: code_or_markup": ("not_a_question", structure("code_or_markup")),
        "statement rules: unresolved_reference(question)": ("unresolved_reference", unresolved_reference),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ratings", default=str(HERE / "testset_hand_ratings.jsonl"))
    args = parser.parse_args()
    rows = [json.loads(line) for line in open(args.ratings, encoding="utf-8")]
    bad = [r for r in rows if not r["usable"]]
    print(f"{len(rows)} rated records, {len(bad)} unusable\n")
    print("| check | fires | on unusable (precision) | on usable (would reject good) | recall of its kind |")
    print("|---|---|---|---|---|")
    for name, (kind, fires) in checks().items():
        hit = [r for r in rows if fires(r["question"])]
        wrong = sum(r["usable"] for r in hit)
        of_kind = [r for r in bad if KINDS[kind].search(r.get("note", ""))]
        caught = sum(fires(r["question"]) for r in of_kind)
        precision = f"{(len(hit) - wrong) / len(hit):.0%}" if hit else "-"
        recall = f"{caught}/{len(of_kind)}" if of_kind else "-"
        print(f"| {name} | {len(hit)} | {len(hit) - wrong} ({precision}) | {wrong} | {recall} |")


if __name__ == "__main__":
    main()
