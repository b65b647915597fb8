"""The quality guard: the local judge's agreement with labels may not fall unnoticed.

On every run of the suite the local judge scores the bundled HaluEval rows (``ragmeter align
--benchmark halueval --judge local``), the RAG development set's development and blind parts
(faithfulness and context recall of paraphrasing answers) and the answer-relevancy triples,
and each guarded figure is compared with the one recorded in ``bench/figures.json`` (written by
``make figures`` on the locked install). The test fails when one falls more than
``GUARD_MARGIN`` (0.02) below its record, or rises that far above it for a lower-is-better
figure (the unfaithful answers' mean, the refusals' relevancy), and prints every guarded
figure either way. About a minute and a half on 2 cores; it needs no shared dataset.

A change that improves a figure passes here; record the new figures with ``make figures``.
"""

from __future__ import annotations

import pytest
from bench_modules import bench_module

figures = bench_module("figures")


def test_guard_compares_in_the_direction_of_each_figure():
    recorded = {"align.halueval.local.cohen_kappa": {"value": 0.70},
                "ragdev.blind.unfaithful_mean": {"value": 0.50}}
    keys = dict(figures.GUARDED)
    try:
        figures.GUARDED.clear()
        figures.GUARDED.update({"align.halueval.local.cohen_kappa": +1, "ragdev.blind.unfaithful_mean": -1})
        # within the margin either way: passes
        assert figures.guard({"align.halueval.local.cohen_kappa": 0.681, "ragdev.blind.unfaithful_mean": 0.519},
                             recorded)[1] == []
        # kappa fell 0.03; the unfaithful mean rose 0.03: both fail
        failed = figures.guard({"align.halueval.local.cohen_kappa": 0.67, "ragdev.blind.unfaithful_mean": 0.53},
                               recorded)[1]
        assert [line.split()[0] for line in failed] == ["align.halueval.local.cohen_kappa",
                                                        "ragdev.blind.unfaithful_mean"]
        # better in the right direction: passes
        assert figures.guard({"align.halueval.local.cohen_kappa": 0.9, "ragdev.blind.unfaithful_mean": 0.1},
                             recorded)[1] == []
        # a figure missing from the record fails rather than passing silently
        assert figures.guard({"align.halueval.local.cohen_kappa": 0.7}, recorded)[1] == [
            "ragdev.blind.unfaithful_mean: not measured"]
    finally:
        figures.GUARDED.clear()
        figures.GUARDED.update(keys)


def test_every_guarded_figure_is_recorded_with_its_provenance():
    recorded = figures.load_figures()
    for key in figures.GUARDED:
        entry = recorded[key]
        assert {"value", "command", "data", "data_kind", "date", "commit", "lock_sha256"} <= set(entry), key
        assert entry["data_kind"] in ("development", "blind"), key
    # the blind figures are measured on blind data only, and the development ones never on it
    assert all(recorded[k]["data_kind"] == "blind" for k in figures.GUARDED if ".blind." in k)
    assert all(recorded[k]["data_kind"] == "development" for k in figures.GUARDED if ".blind." not in k)


def test_the_local_judge_holds_its_recorded_figures(capsys):
    lines, failed = figures.guard(figures.measure_guarded(), figures.load_figures())
    with capsys.disabled():
        print("\nquality guard (bench/figures.json; margin %.2f):\n  " % figures.GUARD_MARGIN
              + "\n  ".join(lines))
    if failed:
        pytest.fail("a guarded figure fell; if the change is meant, record it with `make figures`:\n"
                    + "\n".join(failed))
