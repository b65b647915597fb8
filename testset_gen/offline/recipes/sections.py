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

from testset_gen.documents.structure import PARAGRAPH, Section
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.pages import Page, whole_sentence
from testset_gen.offline.wording import in_subject, lower_first

GENERIC_HEADINGS = frozenset("""introduction overview summary contents installation install usage
examples example notes note license licence contributing changelog changes history faq links
see also references background description details features requirements support sponsors
credits acknowledgements authors documentation docs about quickstart tutorial api more
getting started next steps further reading table of contents resources community help
""".split())

META_OPENING = re.compile(r"^(?:This (?:section|page|chapter|guide|document|tutorial)|In this |Here |The "
                          r"following|See |Note\b|For (?:more|details|example)|Below|The (?:above|previous)|"
                          r"As (?:you|we) (?:have )?(?:saw|seen))", re.I)

MAX_OPENING_WORDS = 60
"""The ground truth's length: the opening sentences up to this many words (whole sentences)."""

INSTRUCTION = re.compile(r"(?:^|[.!?] )To [a-z]|\b[Yy]ou (?:can|need to|must|should|have to)\b|(?:^|[.!?] )(?:Use|Pass|Set|"
                         r"Call|Add|Define|Run|Install|Create|Open|Write)\b")
"""A sentence that tells the reader what to do."""

LEAD_IN = re.compile(r"^(?:Sometimes|Often|Occasionally|In (?:some|many|certain) (?:cases|situations)|"
                     r"It (?:can|might|may) be (?:useful|interesting|helpful))\b")
"""An opening that says when the section matters, not how it is done."""

NOT_GERUNDS = frozenset("string thing nothing something everything anything spring ring king "
                        "wing ceiling building morning evening during setting settings".split())


IMPERATIVES = frozenset("use add set create define install configure enable disable run write "
                        "build test deploy choose call pass handle return read open".split())
"""Verbs a heading starts with that the tagger, on two words alone, often calls a noun."""


def prose_of(page: Page) -> str:
    """The page's paragraphs (no headings: "Invoking Other Commands" proves no name)."""
    return " ".join(b.text for s in page.sections for b in s.paragraphs())


def cased(heading: str, text: str) -> str:
    """A Title Case heading in sentence case ("Command Short Help" -> "command short help"),
    a word the page writes capitalised inside a sentence kept ("Click", "Git")."""
    out = []
    for w in heading.split():
        keep = (w[1:] != w[1:].lower() or any(ch.isdigit() for ch in w)
                or re.search(r"(?<=[a-z,] )" + re.escape(w) + r"\b", text))
        out.append(w if keep else w.lower())
    return " ".join(out)


def action(heading: str, first_tag: str, lemma: str) -> str:
    """What a verb heading says to do, in the base form ("Pitching the tent" -> "pitch the
    tent"; "How to install Click" -> "install Click"); "" for any other heading."""
    h = heading.strip().rstrip("?")
    if m := re.match(r"(?i)how (?:to|do (?:I|you)) (.+)$", h):
        return lower_first(m.group(1))
    words = h.split()
    if len(words) < 2 or any(c in h for c in "()`=<>{}[]/:"):
        return ""
    first = words[0].lower()
    if first_tag == "VBG" or (first.endswith("ing") and len(first) > 5 and first not in NOT_GERUNDS):
        if not lemma or lemma == first:
            return ""
        return " ".join([lemma] + words[1:])
    if first_tag == "VB" or first in IMPERATIVES:
        return lower_first(h)
    return ""


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


def section_questions(page: Page, heading_tags: dict[str, tuple[str, str]]) -> list[Candidate]:
    """``heading_tags``: heading -> (tag, lemma) of its first word (one parse for all pages)."""
    out = []
    for section in page.sections:
        h = section.heading.strip()
        if not h or h.lower() in GENERIC_HEADINGS or h == page.title:
            continue
        got = opening(page, section)
        if got is None:
            continue
        truth, sentences, start, end = got
        chunk = page.chunk_for(start, end)
        if chunk is None:
            continue
        tag, lemma = heading_tags.get(h, ("", ""))
        if re.search(r" (?:is|are|was|were|has|have) ", h):
            continue  # a heading that is a sentence ("The Language is a dataclass")
        h = re.sub(r"^(?:The|A|An) ", "", h)
        prose = prose_of(page)
        act = action(cased(h, prose_of(page)), tag, lemma)
        if act and tag != "VBG" and " and " in h:
            act = ""  # "Help Pages and Exit Codes": a noun, not "help pages and exit codes"
        if act:
            if LEAD_IN.match(truth):
                continue  # "Sometimes, it might be interesting to invoke ...": why, not how
            # the opening must tell how: the heading's verb in it ("Support can be added"), or
            # an instruction ("To implement a custom type, you need to ..."); a lead-in ("In
            # some situations it's helpful to understand ...") answers no "How do you ...?"
            verb = act.split()[0].lower()
            stem = verb[:-1] if verb.endswith("e") else verb
            said = re.search(r"\b" + re.escape(stem) + r"(?:e|es|s|ed|d|ing|ting|ped|ned)?\b", truth, re.I)
            sure = tag == "VBG" or verb in IMPERATIVES or h.lower().startswith("how ")
            if (re.search(r"(?<=[a-z,] )" + re.escape(verb.capitalize()) + r"\b", prose)  # a name: "Click"
                    or not (said or (sure and INSTRUCTION.search(truth)))):
                continue
            question = f"How do you {act}{in_subject(page.subject, act)}?"
            template = "structure:section_how"
        else:
            words = h.split()
            head = " ".join(sentences[0].split()[:8]).lower()
            if (not page.subject or len(words) > 4 or not all(w.isalpha() for w in words)
                    or not all(re.sub(r"s$", "", w.lower())[:5] in head for w in words)
                    or not re.search(r" (?:is|are) ", head)):
                continue  # the opening must say what the heading is ("The context object is ...")
            noun = cased(h, prose)
            be = "are" if words[-1].endswith("s") and not words[-1].endswith("ss") else "is"
            of = "of" if page.subject.lower().startswith("the ") else "in"
            question = f"What {be} the {noun} {of} {page.subject}?"
            template = "structure:section_what"
        out.append(Candidate("simple", question, truth, (chunk,), (
            ("template", template), ("wh", question.split()[0].lower()), ("page", page.subject),
            ("heading", h), ("source_sentences", sentences)), structural=True))
    return out
