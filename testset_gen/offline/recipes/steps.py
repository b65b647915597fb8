"""simple: a procedure asked as "How do you ...?" ("How do you return a product?" over "To
return a product:" and its numbered steps), every step in order as the ground truth.

Steps are list items most of which start with a verb in the imperative ("Lay the
footprint ...", "Clip the inner tent ..."). The goal comes from the sentence that
introduces them ("To return a product:") or from a verb heading ("Pitching the tent").
The ground truth is whole sentences: "To pitch the tent, lay the footprint on flat
ground. Then clip the inner tent to the poles. Finally, stake out the guy lines."
"""

from __future__ import annotations

import re

from testset_gen.offline.candidate import Candidate
from testset_gen.offline.pages import Page
from testset_gen.offline.recipes.lists import MAX_ITEMS, item_runs
from testset_gen.offline.recipes.sections import action
from testset_gen.offline.wording import in_subject, lower_first, strip_end

GOAL = re.compile(r"^To (?P<goal>[a-z][^:,]{3,80})[:,]?(?: (?:follow|do|complete) (?:these|the following) steps)?:$")


def told(goal: str, steps: list[str]) -> str:
    """The steps as whole sentences: "To <goal>, <first>. Then <second>. Finally, <last>."."""
    first, *rest = [lower_first(strip_end(s)) for s in steps]
    out = [f"To {goal}, {first}."]
    for i, s in enumerate(rest):
        out.append(f"Finally, {s}." if i == len(rest) - 1 and len(rest) > 1 else f"Then {s}.")
    return " ".join(out)


def step_questions(page: Page, imperative: set[str], heading_tags: dict[str, tuple[str, str]]) -> list[Candidate]:
    out = []
    for run in item_runs(page):
        texts = [b.text for b in run.items]
        m = GOAL.match(run.intro) if run.intro else None
        # "To return a product:" says steps follow, whatever the tagger makes of the items
        if not 2 <= len(texts) <= MAX_ITEMS or (
                not m and sum(t in imperative for t in texts) * 3 < 2 * len(texts)):
            continue
        if m:
            goal = m.group("goal").strip()
        elif not run.intro:
            tag, lemma = heading_tags.get(run.section.heading, ("", ""))
            goal = action(run.section.heading, tag, lemma)
        else:
            goal = ""
        if not goal or re.search(r"[`{}=<>]|\w\(", goal):
            continue
        chunk = page.chunk_for(run.intro_start, run.items[-1].end)
        if chunk is None:
            continue
        question = f"How do you {goal}{in_subject(page.subject, goal)}?"
        out.append(Candidate("simple", question, told(goal, texts), (chunk,), (
            ("template", "structure:steps"), ("constructed", True), ("wh", "how"), ("page", page.subject),
            ("steps", len(texts)), ("source_sentences", ([run.intro] if run.intro else []) + texts)),
            structural=True))
    return out
