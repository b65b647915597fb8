"""multi_context: one topic with a section on two pages, asked across both ("How do arguments
and options handle environment variables in Click?": the Arguments page and the Options page
each have an "Environment Variables" section), both sections' openings as the ground truth.

The topic is what the two pages' headings name (their last two words, in lower case and
singular: "Environment Variables" and "Values from Environment Variables"); the pages are named by their titles, which must be short noun
phrases ("Arguments", "Options"), as the question asks how each handles the topic. A
heading shared by more than ``MAX_PAGES`` pages is boilerplate ("Installation") and a
generic one is not asked (``sections.GENERIC_HEADINGS``).
"""

from __future__ import annotations

import re
from itertools import combinations
from typing import Sequence

from testset_gen.offline.candidate import Candidate
from testset_gen.offline.pages import Page
from testset_gen.offline.recipes.sections import GENERIC_HEADINGS, cased, opening, prose_of
from testset_gen.offline.wording import in_subject

MAX_PAGES = 4


def _key(heading: str) -> str:
    """The topic a heading names: its last two words, singular ("Values from Environment
    Variables" and "Environment Variables" -> "environment variable")."""
    words = re.sub(r"^(?:the|a|an) ", "", heading.lower().strip()).split()
    words = [w[:-1] if w.endswith("s") and not w.endswith("ss") else w for w in words]
    return " ".join(words[-2:]) if len(words) >= 2 else (words[0] if words and len(words[0]) > 6 else "")


def _named_title(title: str) -> bool:
    return 1 <= len(title.split()) <= 3 and bool(re.fullmatch(r"[A-Za-z][A-Za-z -]*", title))


def shared_section_questions(pages: Sequence[Page]) -> list[Candidate]:
    found: dict[str, list[tuple[Page, str, tuple[str, list[str], int, int]]]] = {}
    for page in pages:
        if not _named_title(page.title):
            continue
        for section in page.sections:
            h = section.heading.strip()
            if (not h or h.lower() in GENERIC_HEADINGS or len(h.split()) > 4 or h == page.title
                    or not _key(h) or re.search(r"\bexamples?\b|\bintroduction\b|\boverview\b", h.lower())):
                continue
            got = opening(page, section)
            if got is not None:
                found.setdefault(_key(h), []).append((page, h, got))
    out = []
    for key, places in sorted(found.items()):
        pages_of = {p.document_id for p, _, _ in places}
        if not 2 <= len(pages_of) <= MAX_PAGES:
            continue
        for (pa, ha, ga), (pb, hb, gb) in combinations(places, 2):
            if pa.document_id == pb.document_id or pa.title.lower() == pb.title.lower():
                continue
            ca, cb = pa.chunk_for(ga[2], ga[3]), pb.chunk_for(gb[2], gb[3])
            if ca is None or cb is None:
                continue
            shorter = ha if len(ha) <= len(hb) else hb
            topic = cased(shorter, prose_of(pa) + prose_of(pb))
            a, b = (t if re.search(r"\w[A-Z]|\d", t) else t.lower() for t in (pa.title, pb.title))
            subject = pa.subject if pa.subject == pb.subject else ""
            question = f"How do {a} and {b} handle {topic}{in_subject(subject, topic + a + b)}?"
            out.append(Candidate("multi_context", question, f"{ga[0]} {gb[0]}", (ca, cb), (
                ("template", "structure:shared_section"), ("wh", "how"), ("topic", topic),
                ("pages", [pa.title, pb.title]), ("source_sentences", ga[1] + gb[1])),
                structural=True))
    return out
