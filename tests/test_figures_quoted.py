"""Every figure README.md and docs/ quote comes from bench/figures.json.

A quoted figure is written ``0.853<!-- fig align.halueval.local.auroc_length_matched -->``: the
value, then an HTML comment naming its key (invisible when the Markdown is rendered). ``make
figures`` rewrites those values from the file; this test fails when one differs from it (a
figure typed by hand, or a file edited after ``make figures``), when a quoted key is not in the
file, and when a sentence reports a measured figure without quoting it.
"""

from __future__ import annotations

import re
from pathlib import Path

from bench_modules import bench_module

ROOT = Path(__file__).resolve().parent.parent
figures = bench_module("figures")

# A sentence that reports a measurement: these words beside a decimal number or a rate.
MEASURED = re.compile(r"AUROC|kappa|pairwise|baseline|accuracy|samples/s|measured|cosine|careful "
                      r"reader|on average|averages?\b|right \S+ of the time|calls per", re.I)
NUMBER = re.compile(r"(?<![\w.\-/=])(0\.\d{2,}|\d+(?:\.\d+)?\s?samples/s|\d+(?:\.\d+)?x the)")


def _prose_lines(text: str):
    """(line number, line) outside fenced code, with inline code and quoted figures blanked."""
    in_code = False
    for n, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if not in_code:
            yield n, figures.QUOTE.sub("", re.sub(r"`[^`]*`", "", line))


def test_every_quoted_figure_equals_the_recorded_one():
    recorded = figures.load_figures()
    wrong, count = [], 0
    for path in figures.quoting_files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for m in figures.QUOTE.finditer(line):
                count += 1
                where = f"{path.relative_to(ROOT)}:{n}: {m['key']}"
                if m["key"] not in recorded:
                    wrong.append(f"{where} is not in bench/figures.json")
                elif m["value"] != figures.quoted(recorded[m["key"]]["value"], m["fmt"]):
                    wrong.append(f"{where} quoted {m['value']}, recorded "
                                 f"{figures.quoted(recorded[m['key']]['value'], m['fmt'])}")
    assert count >= 20, "README and docs quote their figures through bench/figures.json"
    assert not wrong, "run `make figures` (or bench/figures.py --render):\n" + "\n".join(wrong)


def test_no_measured_figure_is_typed_by_hand():
    typed = []
    for path in figures.quoting_files():
        for n, line in _prose_lines(path.read_text(encoding="utf-8")):
            if MEASURED.search(line) and NUMBER.search(line):
                typed.append(f"{path.relative_to(ROOT)}:{n}: {NUMBER.findall(line)} in: {line.strip()[:120]}")
    assert not typed, ("quote these from bench/figures.json (VALUE<!-- fig KEY -->) or leave them "
                       "out:\n" + "\n".join(typed))


def test_render_rewrites_the_value_and_keeps_the_marker():
    recorded = {"a.b": {"value": 0.85312}, "c.d": {"value": 0.5}}
    text = "AUROC 0.700<!-- fig a.b -->, share 40%<!-- fig c.d .0% -->, unknown 1.0<!-- fig x.y -->."
    assert figures.render(text, recorded) == (
        "AUROC 0.853<!-- fig a.b -->, share 50%<!-- fig c.d .0% -->, unknown 1.0<!-- fig x.y -->.")


def test_check_counts_an_undefined_figure_undefined_both_times_as_unmoved():
    from bench_modules import bench_module

    differences = bench_module("figures").differences
    nan = float("nan")
    old = {"a": {"value": nan}, "b": {"value": 0.5}, "c": {"value": nan}}
    new = {"a": {"value": nan}, "b": {"value": nan}, "c": {"value": 0.5}}
    assert differences(old, new) == ["b: recorded 0.5, measured nan", "c: recorded nan, measured 0.5"]
