"""simple: a list asked whole ("What does the Ember Stove include?" over "The Ember Stove
includes:" and its three items), the intro and every item in one sentence as the ground truth.

A list is a run of list items after a sentence that introduces it (ending in ":") or
right under a heading. Its question comes from the intro ("X includes:", "X supports
the following:") with the page's subject put in for "the tent" or "it", or, with no
intro, from a plural heading ("What are the features of the Trailhead 2?"). The ground
truth names every item: a list asked in part is answered in part. Lists of steps are
``steps``' (imperative items), long lists (more than ``MAX_ITEMS``) are not asked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from testset_gen.documents.structure import HEADING, ITEM, PARAGRAPH, Block, Section
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.pages import Page
from testset_gen.offline.wording import PRONOUNS, does, joined, strip_end

MAX_ITEMS = 10
MAX_ITEM_WORDS = 12

INTRO = re.compile(r"^(?P<subj>.+?) (?P<verb>includes?|supports?|provides?|offers?|contains?|has|have|"
                   r"comes? with|features?|requires?|accepts?)(?P<rest>(?: [^:]*)?):$")
BASE = {"includes": "include", "supports": "support", "provides": "provide", "offers": "offer",
        "contains": "contain", "has": "have", "comes with": "come with", "features": "feature",
        "requires": "require", "accepts": "accept"}


@dataclass(frozen=True)
class ItemRun:
    """A list: its ``items``, the sentence that introduces it ("" for none) and where."""

    section: Section
    intro: str
    intro_start: int
    items: tuple[Block, ...]


def item_runs(page: Page) -> list[ItemRun]:
    out = []
    for section in page.sections:
        blocks = section.blocks
        i = 0
        while i < len(blocks):
            if blocks[i].kind != ITEM:
                i += 1
                continue
            j = i
            while j < len(blocks) and blocks[j].kind == ITEM:
                j += 1
            items = tuple(blocks[i:j])
            intro, start = "", items[0].start
            if i > 0 and blocks[i - 1].kind == PARAGRAPH:
                sentences = page.sentences(blocks[i - 1])
                if sentences and sentences[-1][0].endswith(":"):
                    intro, start = sentences[-1][0], sentences[-1][1]
            elif i > 0 and blocks[i - 1].kind != HEADING:
                i = j
                continue
            out.append(ItemRun(section, intro, start, items))
            i = j
    return out


def named_subject(subject: str, page: Page) -> str:
    """The intro's subject as a question can write it: the page's subject for a pronoun or
    for "the tent" on the Trailhead 2 Tent page; a capitalised name as it is; else ""."""
    words = subject.split()
    if subject.lower() in PRONOUNS or subject.lower() in ("this", "we", "you"):
        return page.subject
    if len(words) == 2 and words[0].lower() == "the" and words[1].islower():
        title = page.title.lower()
        return page.subject if page.subject and words[1] in title.split() else ""
    if not any(w[:1].isupper() for w in words[1:] or words):
        return ""
    return "the " + subject[4:] if subject.startswith("The ") else subject


def list_questions(page: Page, imperative: set[str]) -> list[Candidate]:
    """``imperative``: item texts whose first word is a verb in the imperative (steps)."""
    out = []
    for run in item_runs(page):
        texts = [b.text for b in run.items]
        if (not 2 <= len(texts) <= MAX_ITEMS or any(len(t.split()) > MAX_ITEM_WORDS for t in texts)
                or sum(t in imperative for t in texts) * 3 >= 2 * len(texts)
                or run.intro.startswith("To ")  # steps (``steps``)
                or any(re.search(r"[`{}=<>]|\w\(|: | - | – ", t) for t in texts)):
            continue
        chunk = page.chunk_for(run.intro_start, run.items[-1].end)
        if chunk is None:
            continue
        items = joined(texts)
        if run.intro:
            m = INTRO.match(run.intro)
            subject = named_subject(m.group("subj"), page) if m else ""
            if not m or not subject or len(run.intro.split()) < 3:
                continue
            verb = m.group("verb")
            base = BASE.get(verb, verb)
            rest = (m.group("rest") or "").strip()
            # "requires only a few dependencies:" -> "What dependencies does Typer require?";
            # any other words after the verb make no question of the list
            kind = re.fullmatch(r"(?:only |also )?(?:the following|these|several|many|a few|some|"
                                r"two|three|four|five|six)?\s*(?P<noun>[a-z]+s)?", rest)
            if kind is None:
                continue
            noun = kind.group("noun") or ""
            question = (f"What {noun} {does(subject)} {subject} {base}?" if noun
                        else f"What {does(subject)} {subject} {base}?")
            lead = strip_end(run.intro)
            truth = f"{lead[:1].upper()}{lead[1:]} {items}."
            if subject != m.group("subj"):
                truth = f"{subject[:1].upper()}{subject[1:]} {verb}{m.group('rest') or ''} {items}."
        else:
            h = run.section.heading
            words = h.split()
            if (not page.subject or not h or not words[-1].endswith("s") or len(words) > 4
                    or re.search(r"(?i)\b(?:links|resources|contents|talks|sponsors|contributors)\b", h)
                    or not all(w.isalpha() for w in words)):
                continue
            of = "of" if page.subject.lower().startswith("the ") else "in"
            question = f"What are the {h.lower()} {of} {page.subject}?"
            truth = f"The {h.lower()} {of} {page.subject} are {items}."
        out.append(Candidate("simple", question, truth, (chunk,), (
            ("template", "structure:list"), ("constructed", True), ("wh", "what"), ("page", page.subject),
            ("items", len(texts)), ("source_sentences", ([run.intro] if run.intro else []) + texts)),
            structural=True))
    return out
