"""What makes two recorded runs' scores not comparable: another test set, judge, embedder or
set of judge prompts.

A comparison across any of these is still computed (comparing two judges on one test set is
a fair question), but its deltas then measure the change of setup as much as the change of
the app. ``runs compare`` and the UI's compare view say so in one warning line instead of
showing the numbers without a word.
"""

from __future__ import annotations

from pydantic import BaseModel

from ragmeter.runs._models import RunSummary


class RunDifference(BaseModel):
    """One setting that differs: ``what``, and its value in the baseline (A) and current (B) run."""

    what: str
    baseline: str
    current: str

    def __str__(self) -> str:
        return f"{self.what} (A {self.baseline}, B {self.current})"


def _test_set(run: RunSummary) -> str:
    name = run.dataset_name
    fingerprint = (run.dataset or "")[:8]
    return f"{name} {fingerprint}" if name and fingerprint and name != run.dataset else name or "unknown"


def run_differences(baseline: RunSummary, current: RunSummary) -> list[RunDifference]:
    """The settings that differ between two runs, test set first. The test set is told by its
    fingerprint (questions and reference answers), not its file name: two versions of an
    app answering one test set are comparable, two files that happen to share a name are not."""
    found = []
    if baseline.dataset != current.dataset:
        found.append(RunDifference(what="test set", baseline=_test_set(baseline), current=_test_set(current)))
    for what, a, b in (
        ("judge", baseline.judge, current.judge),
        ("embedder", baseline.embedder, current.embedder),
        ("judge prompts", baseline.prompts, current.prompts),
    ):
        if a != b:
            found.append(RunDifference(what=what, baseline=a or "none", current=b or "none"))
    return found


def describe_differences(differences: list[RunDifference]) -> str:
    """One line: ``A and B differ in judge (A local, B openai:gpt-4o): ...``."""
    items = [str(d) for d in differences]
    listed = items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    return f"A and B differ in {listed}: the deltas measure that change too, not only the app's"
