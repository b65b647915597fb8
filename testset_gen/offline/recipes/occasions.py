"""A rule the folder gives for several occasions or reasons, asked once with all of them.

"When should you contact the GDS Information Security team?" was answered with one of the
three occasions the folder gives (rated a partial answer). The guidance recipe asks each
rule sentence alone; this recipe looks at every rule of the folder at once
(``guidance.action_rules``), grouped by the action they tell (the verb and the head of its
object: ``guidance.action_of``):

* no other rule for the action, and its object, when a named thing ("the GDS Information
  Security team"), written in no other rule of the folder: the question stands;
* another rule tells the action with no condition ("Include a summary about the
  document"), so "When should you include a summary?" has no one occasion; or other rules
  name the same thing with another verb ("Report all incidents to the GDS Information
  Security team"), so the folder may give more occasions than the sentence: dropped
  (precision first);
* two or three rules give different occasions (or reasons) for the same action: one
  question whose ground truth is all of them and whose references are their chunks:
  ``multi_context`` when each is in its own chunk (neither chunk answers alone: each holds
  only its own occasion), ``reasoning`` when one chunk holds them. A sentence told twice
  counts once.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Sequence

from testset_gen.offline.candidate import Candidate

MAX_OCCASIONS = 3
"""More occasions than this make a ground truth nobody would write as one answer."""

KINDS = {"structure:rule_when": "when", "structure:rule_reason": "why"}


def _mentions(thing: str, text: str) -> bool:
    return bool(re.search(r"(?<![\w-])" + re.escape(thing.lower()) + r"(?![\w-])", text.lower()))


def settle_occasions(candidates: Sequence[Candidate],
                     rules: Sequence[tuple[str, str, str, str, str]]) -> list[Candidate]:
    """``candidates`` with each "When/Why should you ...?" settled against ``rules``, the
    folder's rules as ``(action, kind, sentence, chunk, page subject)``."""
    by_action: dict[str, list[tuple[str, str, str, str]]] = defaultdict(list)
    for action, told_kind, sentence, chunk, page in rules:
        if action and (told_kind, sentence, chunk, page) not in by_action[action]:
            by_action[action].append((told_kind, sentence, chunk, page))
    out: list[Candidate] = []
    done: set[tuple[str, str]] = set()
    for c in candidates:
        meta = dict(c.meta)
        kind = KINDS.get(str(meta.get("template", "")))
        action = str(meta.get("action", ""))
        if kind is None or not action:
            out.append(c)
            continue
        if (kind, action) in done:
            continue  # asked already with all its occasions
        told = by_action.get(action, [])
        # the rule's own sentence (its ground truth may go on with a further reason)
        own = {c.ground_truth, *[str(x) for x in meta.get("source_sentences", ()) or ()]}
        same = [r for r in told if r[1] not in own]
        thing = str(meta.get("object", ""))
        sentences = {r[1] for r in told} | own
        if any(r[0] != kind for r in same):
            continue  # told with no (or another kind of) occasion elsewhere: no one answer
        if meta.get("object_named") and any(
                _mentions(thing, sentence) for _, _, sentence, _, _ in rules if sentence not in sentences):
            continue  # the same thing in other rules: the folder may say more
        if not same:
            out.append(c)
            continue
        group = [(c.ground_truth, c.chunk_ids[0], str(meta.get("page", "")))] + [(s, ch, p) for _, s, ch, p in same]
        if len(group) > MAX_OCCASIONS:
            continue
        done.add((kind, action))
        chunks = tuple(dict.fromkeys(ch for _, ch, _ in group))
        pages = [p for p in dict.fromkeys(p for _, _, p in group) if p]
        evolution = "multi_context" if len(chunks) == len(group) else "reasoning"
        out.append(Candidate(evolution, c.question, " ".join(s for s, _, _ in group), chunks, (
            ("template", str(meta["template"]) + "_all"), ("wh", c.question.split()[0].lower()),
            ("answer", " ".join(s for s, _, _ in group)), ("page", pages[0] if pages else ""),
            ("pages", pages), ("source_sentences", [s for s, _, _ in group])),
            derived=kind + "_all", structural=True))
    return out
