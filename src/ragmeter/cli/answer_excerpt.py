"""The part of a reference context a reviewer needs: where the ground truth's words are,
those words marked.

Why not the context's first few hundred characters: a chunk runs to 256 tokens, and the
sentence the answer came from is as often at its end as at its start. A reviewer deciding
"is this ground truth what the passage says, and all of it?" needs that sentence, so the
window shown is the one that holds most of the ground truth's words, and they are marked
(bold on a terminal) so the eye finds them; a word of the answer found nowhere is itself a
sign of a garbled or partial ground truth.
"""

from __future__ import annotations

import re

from rich.text import Text

WORD = re.compile(r"\w+", re.UNICODE)

COMMON = frozenset(
    "a an and are as at be been but by can did do does for from had has have how in into is it its of on or "
    "that the their there these this those to was were what when where which who why will with".split())
"""Words too common to point at the answer: marking every "the" would mark nothing."""

ANSWER_STYLE = "bold yellow"


def answer_words(ground_truth: str) -> set[str]:
    """The ground truth's words worth finding (lower case, two characters or more, not common)."""
    return {w for w in (m.lower() for m in WORD.findall(ground_truth)) if len(w) > 1 and w not in COMMON}


def excerpt(context: str, ground_truth: str, limit: int = 600) -> Text:
    """``context`` on one line, cut to about ``limit`` characters around the ground truth's
    words (with "… " where it was cut), those words styled ``ANSWER_STYLE``."""
    text = " ".join(context.split())
    wanted = answer_words(ground_truth)
    hits = [m.span() for m in WORD.finditer(text) if m.group().lower() in wanted]
    start, end = 0, len(text)
    if len(text) > limit:
        start = _best_start(hits, len(text), limit)
        end = start + limit
        if start > 0:  # begin and end on whole words
            start = text.find(" ", start) + 1 or start
        if end < len(text) and (cut := text.rfind(" ", start, end)) > start:
            end = cut
    shown = Text(("… " if start > 0 else "") + text[start:end] + (" …" if end < len(text) else ""))
    offset = 2 if start > 0 else 0
    for a, b in hits:
        if a >= start and b <= end:
            shown.stylize(ANSWER_STYLE, a - start + offset, b - start + offset)
    return shown


def _best_start(hits: list[tuple[int, int]], length: int, limit: int) -> int:
    """Where a window of ``limit`` characters holds most hits (the earliest such window),
    with a little of the text before the first of them; 0 when nothing was found."""
    lead = limit // 6
    best, best_count = 0, -1
    for first, _ in hits:
        begin = max(0, min(first - lead, length - limit))
        count = sum(1 for a, b in hits if a >= begin and b <= begin + limit)
        if count > best_count:
            best, best_count = begin, count
    return best
