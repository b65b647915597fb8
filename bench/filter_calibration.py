"""The filter's rejection reasons measured against hand ratings: for each check, how often it
fires on records a person rated unusable (precision) and how many of the unusable records of
its kind it catches (recall).

    .venv/bin/python bench/filter_calibration.py [--ratings bench/testset_hand_ratings.jsonl]

The ratings (``testset_hand_ratings.jsonl``: question, usable, a note on why not) are of
records that passed the filter of their day, so a check that fires on a usable record here
is a check that would reject a good question; recall is counted against the unusable records
whose note names the check's kind of fault (``KINDS``: "not standalone", "surname only" and
"unresolved" are an unresolved reference; "vague", "ambiguous" ambiguity; "awkward",
"unnatural", "garbled" not a question).

Every reason of ``record_filter.rule_reasons`` is printed, whole and split into the tests it
is made of (a reason that fires for several causes hides a bad cause behind good ones: the
eleventh session measured ``unresolved_reference`` whole at 42%). The ratings keep the
question only, no ground truth, answer, source sentence or context, so a reason that reads
those (``answer_in_question``, ``not_prose``, ``rewritten_statement``, ``derivation_wrong``,
the local judge's ``unsupported``/``irrelevant``) cannot be measured here; the table lists
them as such rather than run them on empty inputs, which would make them fire or stay silent
for no reason. The question-reading parts of mixed reasons (``ambiguous``) are run alone.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent

KINDS = {
    "unresolved_reference": re.compile(r"not standalone|unresolved|surname|which \w+|whose", re.I),
    "ambiguous": re.compile(r"vague|ambiguous|many (?:\w+ )?could", re.I),
    "not_a_question": re.compile(r"awkward|unnatural|garbled|odd", re.I),
}

NOT_MEASURABLE = {
    "answer_in_question": "reads the answer",
    "not_prose": "reads the source sentences and contexts",
    "rewritten_statement": "reads the source sentences",
    "derivation_wrong": "reads the derivation's sentences",
    "unsupported / irrelevant (local judge)": "reads the contexts",
    "structure: ground_truth_cut": "reads the ground truth",
    "unresolved_reference: surname only": "reads the record's page names and subject",
}


def checks() -> dict[str, tuple[str, Callable[[str], bool]]]:
    """Check name -> (the kind of fault it claims, whether it fires on a question)."""
    from testset_gen.offline import record_filter as rf
    from testset_gen.offline.candidate import Candidate
    from testset_gen.offline.structure_checks import structure_reasons

    def rule(reason: str) -> Callable[[str], bool]:
        def fires(q: str) -> bool:
            return reason in rf.rule_reasons(rf.FilterInput(q, "", "", (), ()))
        return fires

    def structure(reason: str) -> Callable[[str], bool]:
        return lambda q: reason in structure_reasons(Candidate("simple", q, "A sentence.", ("c",), (),
                                                               structural=True))

    def words(q: str) -> list[str]:
        return re.findall(r"[\w'’-]+", q.lower())

    def ambiguous_question(q: str) -> bool:
        # the answer-reading tests of the reason get a neutral answer: only the question's count
        return "ambiguous" in rf.rule_reasons(rf.FilterInput(q, "", "a thing", (), ()))

    return {
        "rule: not_a_question (question part)": ("not_a_question", rule("not_a_question")),
        "  opener or length": ("not_a_question", lambda q: not words(q) or words(q)[0] not in rf.OPENERS
                               or not (3 if rf.DEFINITION.match(q) else 4) <= len(words(q[:-1])) <= rf.MAX_WORDS),
        "  subordinate_clause": ("not_a_question", rf.subordinate_clause),
        "  aside or ';'": ("not_a_question", lambda q: bool(";" in q or rf._ASIDE.search(q))),
        "  capitalised function word inside": ("not_a_question", lambda q: bool(re.search(
            r"\s(?:As|In|On|At|The|For|With|From|By|To|Of)\s", q[1:]))),
        "  'even'": ("not_a_question", lambda q: bool(re.search(r"\beven\b", q, re.I))),
        "rule: unresolved_reference (question part)": ("unresolved_reference", lambda q: rf.unresolved_reference(q)
                                                        or rf.names_nothing(q)),
        "  pronoun": ("unresolved_reference", lambda q: any(w in rf.PRONOUNS for w in words(q))),
        "  the <generic noun>": ("unresolved_reference", rf.generic_description),
        "  pointing word (also, again, instead...)": ("unresolved_reference", lambda q: bool(re.search(
            rf.POINTING, q.lower()))),
        "  time-bound word (now, currently, here...)": ("unresolved_reference", lambda q: bool(re.search(
            rf.TIME_BOUND, q.lower()))),
        "  names nothing": ("unresolved_reference", rf.names_nothing),
        "  possessive of one name": ("unresolved_reference", lambda q: bool(
            re.search(r"(?<![A-Z][\w'-] )(?<![A-Z][\w'-]{2} )\b[A-Z][a-z]+'s\b", q[1:])
            and not re.search(r"[A-Z][\w'-]+ [A-Z][a-z]+'s\b", q))),
        "rule: ambiguous, on simple records (question part)": ("ambiguous", lambda q: ambiguous_question(q)),
        "  unanchored who": ("ambiguous", rf.unanchored_who),
        "  located/based/born without a year": ("ambiguous", lambda q: bool(re.match(
            r"(?:which \w+|what|who) (?:is|was|are|were) (?:located|based|headquartered|situated|born|found)\b",
            q.lower())) and not rf._YEAR.search(q)),
        "  'what' + light verb": ("ambiguous", lambda q: words(q)[:1] == ["what"] and words(q)[-1] in rf.LIGHT_VERBS
                                  and not re.search(r"\b(?:let|allow|enable) (?:you|users|developers) (?:to )?do\?$", q)),
        "rule: code_or_markup (question part)": ("not_a_question", rule("code_or_markup")),
        "structure: unresolved_reference (a pronoun)": ("unresolved_reference", structure("unresolved_reference")),
        "structure: names_nothing": ("ambiguous", structure("names_nothing")),
        "structure: not_a_question (length, aside)": ("not_a_question", structure("not_a_question")),
        "structure: code_or_markup": ("not_a_question", structure("code_or_markup")),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ratings", default=str(HERE / "testset_hand_ratings.jsonl"))
    parser.add_argument("--show", default="", help="print the usable questions this check fires on")
    args = parser.parse_args()
    rows = [json.loads(line) for line in open(args.ratings, encoding="utf-8")]
    # one rating per question (the same record rated at several commits counts once)
    rows = list({r["question"]: r for r in rows}.values())
    bad = [r for r in rows if not r["usable"]]
    print(f"{len(rows)} rated questions, {len(bad)} unusable\n")
    print("| check | fires | on unusable (precision) | on usable (would reject good) | recall of its kind |")
    print("|---|---|---|---|---|")
    for name, (kind, fires) in checks().items():
        # "ambiguous" is tested on simple records only: derived questions skip it ("Who was
        # born first: X or Y?" would fire "born")
        pool = [r for r in rows if r["evolution_type"] == "simple"] if kind == "ambiguous" and "rule" in name or name.startswith("  ") and kind == "ambiguous" else rows
        hit = [r for r in pool if fires(r["question"])]
        wrong = [r for r in hit if r["usable"]]
        of_kind = [r for r in bad if KINDS[kind].search(r.get("note", ""))]
        caught = sum(fires(r["question"]) for r in of_kind)
        precision = f"{(len(hit) - len(wrong)) / len(hit):.0%}" if hit else "-"
        recall = f"{caught}/{len(of_kind)}" if of_kind else "-"
        print(f"| {name} | {len(hit)} | {len(hit) - len(wrong)} ({precision}) | {len(wrong)} | {recall} |")
        if args.show and args.show in name:
            for r in wrong:
                print(f"|   usable: {r['question']} | | | | |")
    for name, why in NOT_MEASURABLE.items():
        print(f"| {name} | not measurable: {why}, which the ratings do not keep | | | |")


if __name__ == "__main__":
    main()
