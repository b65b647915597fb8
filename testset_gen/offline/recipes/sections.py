"""simple: a section asked by its heading ("How do you pitch the Trailhead 2?" under "Pitching
the tent"), the section's opening sentences as the ground truth.

A heading says what its section answers. A verb heading ("Configuring timeouts", "How to
install", "Define commands") is asked as "How do you ...?"; a noun heading ("Warranty") as
"What is the warranty of <page>?", only on a page with a subject and when the opening
sentence writes the heading's word (a "Care" section that starts "Wash the bag by hand"
answers no "What is the care of ...?"). Generic headings (Introduction, Installation,
Examples...) are not asked: a reader cannot tell which section they mean.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from testset_gen.documents.structure import CODE, ITEM, PARAGRAPH, Section, runs
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.heading_forms import (GENERIC_HEADINGS, HOW, NONE, QUESTION, WHAT, HeadingForm,
                                               defines, grounded, lead_in, says_how)
from testset_gen.offline.pages import Page, whole_sentence
from testset_gen.offline.wording import in_subject, joined

MAX_LIST_ITEMS = 10

META_OPENING = re.compile(r"^(?:This (?:section|page|chapter|guide|document|tutorial)|In this |Here |The "
                          r"following|See |Note\b|For (?:more|details|example)|Below|The (?:above|previous)|"
                          r"As (?:you|we) (?:have )?(?:saw|seen))", re.I)

MAX_OPENING_WORDS = 60
"""The ground truth's length: the opening sentences up to this many words (whole sentences)."""

LEAD_IN = re.compile(r"^(?:Sometimes|Often|Occasionally|In (?:some|many|certain) (?:cases|situations)|"
                     r"It (?:can|might|may) be (?:useful|interesting|helpful))\b")
"""An opening that says when the section matters, not how it is done."""


def prose_of(page: Page) -> str:
    """The page's paragraphs (no headings: "Invoking Other Commands" proves no name)."""
    return " ".join(b.text for s in page.sections for b in s.paragraphs())


def cased(heading: str, text: str) -> str:
    """A Title Case heading in sentence case ("Command Short Help" -> "command short help",
    "Sub-Commands" -> "sub-commands"), a word the page writes capitalised inside a sentence
    kept ("Click", "Git")."""
    def one(w: str) -> str:
        keep = (w[1:] != w[1:].lower() or any(ch.isdigit() for ch in w)
                or re.search(r"(?<=[a-z,] )" + re.escape(w) + r"\b", text))
        return w if keep else w.lower()
    return " ".join("-".join(one(p) if p else p for p in w.split("-")) if "-" in w.strip("-") else one(w)
                    for w in heading.split())


def mixed_case(noun: str) -> bool:
    """A noun phrase a question cannot write as it stands: a lower-case word before a
    capitalised one ("docker Container images") or a capitalised first word before lower-case
    ones with no article to take ("Module path": "What is Module path?")."""
    words = noun.split()
    caps = [w[:1].isupper() for w in words]
    if any(not a and b for a, b in zip(caps, caps[1:])):
        return True
    return len(words) > 1 and caps[0] and not caps[-1]


def opening(page: Page, section: Section) -> tuple[str, list[str], int, int] | None:
    """The section's opening: whole sentences of its first paragraph, up to
    ``MAX_OPENING_WORDS``, as ``(ground truth, sentences, start, end)``; None when the
    section opens with a list, a table, code, or a sentence that introduces one (":")."""
    if not section.blocks or section.blocks[0].kind != PARAGRAPH:
        return None
    sentences = page.sentences(section.blocks[0])
    while sentences and META_OPENING.match(sentences[0][0]):
        sentences = sentences[1:]
    kept: list[tuple[str, int, int]] = []
    for s in sentences:
        if not whole_sentence(s[0]) or s[0].endswith(":"):
            break
        if kept and sum(len(k[0].split()) for k in kept) + len(s[0].split()) > MAX_OPENING_WORDS:
            break
        kept.append(s)
        if len(" ".join(k[0] for k in kept).split()) >= 20:
            break
    if not kept:
        return None
    return " ".join(k[0] for k in kept), [k[0] for k in kept], kept[0][1], kept[-1][2]


MAX_ATTACHED_CODE = 100
"""A command a sentence introduces ("To publish, run:" and ``poetry publish``) is part of the
answer up to this many characters; a longer block is an example, not an answer."""

SCANNED = 8
"""Sentences of a section read for its answer: the answer is near the top or it is a
different section's."""

GOAL_WORDS = 20
"""The ground truth goes on, whole sentences, until it has this many words (at most
``MAX_OPENING_WORDS``)."""


_POINTS_ON = re.compile(r"(?i)\b(?:following|these|this|below|like so|as follows|here|example|like this|such as)\b")
"""A sentence that says only that something follows ("Poetry uses the following
directories:"): without what follows it says nothing."""


@dataclass(frozen=True)
class Said:
    """A sentence of a section as a ground truth can quote it: ``text`` with what it
    introduces attached ("Run the following command: poetry install."); ``open``: it
    introduces something that cannot be quoted (a long example), so an answer stops before
    it."""

    sentence: str
    text: str
    start: int
    end: int
    open: bool = False
    shows: bool = False  # a command or list is attached: it shows how
    block: int = 0  # the paragraph it is in: an answer goes on within its paragraph only


def said_in(page: Page, section: Section) -> list[Said]:
    """The section's sentences in reading order, up to ``SCANNED``, up to the first
    sub-part that is not prose or a list introduced by a sentence."""
    out: list[Said] = []
    blocks = section.blocks
    for i, block in enumerate(blocks):
        if len(out) >= SCANNED:
            break
        if block.kind != PARAGRAPH:
            continue  # a list or code a sentence introduced is attached to that sentence below
        sentences = page.sentences(block)
        for j, (sentence, start, end) in enumerate(sentences):
            if not whole_sentence(sentence) and not sentence.endswith(":"):
                return out
            if not sentence.endswith(":"):
                out.append(Said(sentence, sentence, start, end, block=i))
                continue
            nxt = blocks[i + 1] if i + 1 < len(blocks) and j == len(sentences) - 1 else None
            lead = sentence[:-1].rstrip()
            if nxt is not None and nxt.kind == ITEM:
                items = [b for b in runs(blocks[i + 1:], ITEM)[0]]
                texts = [b.text for b in items]
                if len(texts) <= MAX_LIST_ITEMS and all(len(t.split()) <= 25 for t in texts):
                    out.append(Said(sentence, f"{lead}: {joined(texts)}.", start, items[-1].end, shows=True, block=i))
                    continue
            if nxt is not None and nxt.kind == CODE and len(nxt.text) <= MAX_ATTACHED_CODE \
                    and "\n" not in nxt.text.strip() and not nxt.text.strip().startswith(("[", "{")):
                code = nxt.text.strip().lstrip("$ ").strip()
                out.append(Said(sentence, f"{lead}: `{code}`.", start, nxt.end, shows=True, block=i))
                continue
            if nxt is not None and nxt.kind == CODE and not _POINTS_ON.search(sentence):
                # "you can delete them by using env remove:" and a long example: the sentence
                # is whole without it
                out.append(Said(sentence, lead + ".", start, end, block=i))
                continue
            out.append(Said(sentence, sentence, start, end, open=True, block=i))
    return out


CONTINUES = re.compile(r"^(?:Also|It also|They also|This also|Then|Next|After that|Afterwards|Finally|Lastly|"
                       r"Second(?:ly)?|Third(?:ly)?|In addition|Additionally|Furthermore|Moreover|Alternatively|"
                       r"Or,?|Once (?:this|that|done)|[A-Z][\w-]*(?: [\w-]+){0,3} also)\b")
"""A sentence that goes on with the answer before it (a further reason, the next step, the
other way): an answer that stops before it is partial."""

FIRST_STEP = re.compile(r"^(?:First(?:ly)?|To (?:begin|start)|Start by)\b")
"""A sentence that opens a sequence: its answer is the steps that follow too."""

OTHER_WAY = re.compile(r"(?i)^Alternatively\b|\b(?:you|one) (?:can|could|may) also\b|\bcan also be\b|"
                       r"\banother (?:way|option|method)\b|\bor(?:,)? you can\b|\binstead, you can\b")
"""A sentence that gives another way of doing what the section does."""

MAX_CONTINUED_WORDS = 90
"""An answer that goes on (``CONTINUES``) may be this long; past it the answer would be
partial, so the section is not asked."""


def _answer(said: list[Said], first: int, through: int) -> list[Said]:
    """Sentences ``first``..``through``, then on while the answer is short or while the next
    sentence of the paragraph continues it (``CONTINUES``, after a first step), never past
    an open sentence; [] when that cannot hold ``first..through`` or what continues it."""
    kept = said[first:through + 1]
    if any(s.open for s in kept) or sum(len(s.text.split()) for s in kept) > MAX_OPENING_WORDS:
        return []
    for s in said[through + 1:]:
        words = sum(len(k.text.split()) for k in kept)
        same = s.block == kept[-1].block
        goes_on = same and (CONTINUES.match(s.sentence) is not None or FIRST_STEP.match(kept[-1].sentence) is not None
                            or kept[-1].sentence.endswith(":"))
        if goes_on:
            if s.open or words + len(s.text.split()) > MAX_CONTINUED_WORDS:
                return []  # the answer goes on past what a ground truth can hold: partial
            kept.append(s)
            continue
        if (words >= GOAL_WORDS or s.open or words + len(s.text.split()) > MAX_OPENING_WORDS or not same):
            break
        kept.append(s)
    if FIRST_STEP.match(kept[-1].sentence):
        return []  # "First, set up the toolchain." and the rest of the steps left out
    return kept


def other_ways(page: Page, section: Section, answer: list[Said]) -> bool:
    """Whether the section gives a way the answer leaves out ("Alternatively, ...", "You can
    also ...") or the answer is itself the other way to what came before ("Changing the
    directory can also be done ..."): a "How do you ...?" over it is answered partly."""
    used = {s.sentence for s in answer}
    if OTHER_WAY.search(answer[0].sentence):
        return True
    for block in section.blocks:
        if block.kind != PARAGRAPH:
            continue
        for sentence, _, _ in page.sentences(block):
            if sentence not in used and OTHER_WAY.search(sentence):
                return True
    return False


def _lead(text: str, doc: Any) -> bool:
    """A lead-in, or a sentence whose subject points back ("Poetry supports this ...", "It
    ..."): quoted first, it answers about something the answer never names."""
    back = any(t.dep_ in ("nsubj", "nsubjpass", "dobj") and t.lower_ in ("this", "that", "it", "these", "they", "those")
               and t.head.dep_ == "ROOT" for t in doc)
    return bool(META_OPENING.match(text) or LEAD_IN.match(text) or lead_in(doc) or back)


def section_answer(form: HeadingForm, said: list[Said], docs: Mapping[str, Any]) -> list[Said]:
    """The sentences that answer what the heading asks, or [] (see the module docstring)."""
    parsed = [docs.get(s.sentence) for s in said]
    if not said or any(d is None for d in parsed):
        return []
    lead = [_lead(s.sentence, d) for s, d in zip(said, parsed)]
    if form.kind == HOW:
        ground = next((i for i, d in enumerate(parsed) if grounded(form, d) and not lead[i]), None)
        if ground is None:
            return []  # the section never does the heading's verb to its object: no task
        # from the sentence that does the task on to the first that tells the reader what to
        # do (it may be the same): a sentence about what happens answers no "How do you ...?"
        how = next((i for i in range(ground, len(said)) if not lead[i] and says_how(
            form, parsed[i], said[i].text)), None)
        return [] if how is None else _answer(said, ground, how)
    if form.kind == WHAT:
        first = next((i for i, is_lead in enumerate(lead) if not is_lead), None)
        opening = parsed[first] if first is not None else None
        if opening is None or first is None or first > 1 or not defines(opening, form.target) or not all(
                w in {t.lemma_.lower() for t in opening} | {t.lower_ for t in opening} for w in form.words):
            return []  # the opening must define the thing (see ``defines``), all of its words
        return _answer(said, first, first)
    if form.kind == QUESTION:
        first = next((i for i, is_lead in enumerate(lead) if not is_lead), None)
        return [] if first is None or first > 1 else _answer(said, first, first)
    return []


def _standalone(question: str, subject: str) -> str:
    """A heading's question that names what it is about: " in <subject>" added unless the
    question already writes a name (a capitalised word after its first)."""
    q = question.rstrip("?").strip()
    if not subject or re.search(r"\b" + re.escape(subject.removeprefix("the ")) + r"\b", q, re.I):
        return q + "?"
    return f"{q}{in_subject(subject, q)}?"


def section_questions(page: Page, forms: Mapping[str, Sequence[HeadingForm]],
                      docs: Mapping[str, Any]) -> list[Candidate]:
    """``forms``: heading -> what it asks (``heading_forms``, one parse for all pages);
    ``docs``: sentence -> its parse (``section_sentences`` of every page, parsed once)."""
    out = []
    prose = prose_of(page)
    for section in page.sections:
        h = section.heading.strip()
        said = said_in(page, section)
        form, answer = NONE, []
        for form in forms.get(h, ()):
            if h == page.title and form.kind != QUESTION:
                continue
            answer = section_answer(form, said, docs)
            if answer:
                break
        if not answer or form.kind == HOW and other_ways(page, section, answer):
            continue
        chunk = page.chunk_for(answer[0].start, answer[-1].end)
        if chunk is None:
            continue
        if form.kind == HOW:
            act = cased(form.phrase, prose)
            question = f"How do you {act}{in_subject(page.subject, act)}?"
            template = "structure:section_how"
        elif form.kind == WHAT:
            if not page.subject:
                continue
            noun = cased(form.phrase, prose)
            if mixed_case(noun):
                continue
            article = "" if form.plural or noun[:1].isupper() else "the "
            question = f"What {'are' if form.plural else 'is'} {article}{noun}{in_subject(page.subject, noun)}?"
            template = "structure:section_what"
        else:
            question = _standalone(form.phrase, page.subject)
            template = "structure:section_question"
        truth = " ".join(s.text for s in answer)
        out.append(Candidate("simple", question, truth, (chunk,), (
            ("template", template), ("wh", question.split()[0].lower()), ("page", page.subject),
            ("heading", h), ("source_sentences", [s.sentence for s in answer]))
            + ((("thing", noun), ("head", form.target), ("plural", form.plural)) if form.kind == WHAT else ()),
            structural=True))
    return out


def section_sentences(pages: Sequence[Page], forms: Mapping[str, Sequence[HeadingForm]]) -> list[str]:
    """The sentences ``section_questions`` reads, to be parsed in one batch."""
    return [s.sentence for p in pages for sec in p.sections
            if forms.get(sec.heading.strip()) for s in said_in(p, sec)]
