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
from typing import Any, Mapping, Sequence

from testset_gen.offline.candidate import Candidate
from testset_gen.offline.pages import Page
from testset_gen.offline.recipes.lists import MAX_ITEMS, item_runs
from testset_gen.offline.heading_forms import HOW, HeadingForm, grounded
from testset_gen.offline.recipes.sections import cased, prose_of, said_in
from testset_gen.offline.wording import in_subject, lower_first, strip_end

GOAL = re.compile(r"^To (?P<goal>[a-z][^:,]{3,80})[:,]?(?: (?:follow|do|complete) (?:these|the following) steps)?:$")


_TOLD = re.compile(r",? (?:you|we) (?:should|can|must|may|will|need to|have to|will need to)(?: also| first)?$")


def told(goal: str, steps: list[str]) -> str:
    """The steps as whole sentences: "To <goal>, <first>. Then <second>. Finally, <last>."."""
    first, *rest = [lower_first(strip_end(s)) for s in steps]
    out = [f"To {goal}, {first}."]
    for i, s in enumerate(rest):
        out.append(f"Finally, {s}." if i == len(rest) - 1 and len(rest) > 1 else f"Then {s}.")
    return " ".join(out)


def step_questions(page: Page, imperative: set[str], forms: Mapping[str, Sequence[HeadingForm]],
                   docs: Mapping[str, Any]) -> list[Candidate]:
    """``forms``: heading -> what it asks (``heading_forms``); ``docs``: parsed sentences of
    the sections (``sections.section_sentences``)."""
    out = []
    for run in item_runs(page):
        texts = [b.text for b in run.items]
        m = GOAL.match(run.intro) if run.intro else None
        # "To return a product:" says steps follow, whatever the tagger makes of the items
        if not 2 <= len(texts) <= MAX_ITEMS or (
                not m and sum(t in imperative for t in texts) * 3 < 2 * len(texts)):
            continue
        if m:
            # "To help with eradication you should:": the goal ends where the reader is told
            goal = _TOLD.sub("", m.group("goal").strip())
        elif not run.intro:
            # a heading read as a task names the goal; read as an imperative ("Pull requests")
            # it must be a task the section's prose does ("pull" acting on "requests")
            said = [docs[s.sentence] for s in said_in(page, run.section) if s.sentence in docs]
            goal = next((cased(form.phrase, prose_of(page)) for form in forms.get(run.section.heading.strip(), ())
                         if form.kind == HOW and (form.frame in ("gerund", "how_to")
                                                  or any(grounded(form, d) for d in said))), "")
        else:
            goal = ""
        if not goal or re.search(r"[`{}=<>]|\w\(", goal) or re.search(r"(?i)\b(?:you|we|I|it|they|this)\b", goal):
            # a goal still holding a subject or a pronoun is no clean verb phrase
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
