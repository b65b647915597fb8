"""What a heading asks, read from its syntax: a verb phrase ("Publishing to PyPI", "Configure
credentials", "How to install") is a task, asked "How do you ...?"; a noun phrase ("Caret
requirements") is a thing, asked "What is/are ...?"; a heading written as a question ("Why is
Poetry slow?") is that question; anything else (one adjective, a name alone, a version) asks
nothing.

A heading alone is a poor sentence for a tagger ("Version constraints" parses as a clause,
"Managing dependencies" as a noun), so each reading is taken from the heading put in a frame
that fixes its part of speech: "We are <gerund phrase>.", "You should <imperative phrase>.",
"Read about <noun phrase>.". The frame says what the heading could be; whether it IS that
is decided against the section (``grounded``): "Operating modes" frames as a gerund, but
its section says "Poetry can be operated in two different modes", where the modes are not
what is operated, so it is no task and gets no "How do you operate modes?".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ragmeter.text.syntax import parse
from testset_gen.offline.wording import lower_first

HOW = "how"
WHAT = "what"
QUESTION = "question"

_QUESTION_START = re.compile(r"(?i)^(?:how|what|why|when|which|who|where|can|could|is|are|does|do|should|"
                             r"will|must|may)\b")
_HOW_TO = re.compile(r"(?i)^how (?:to|do (?:I|you|we)) (?P<rest>.+?)\??$")
_NOT_PROSE = re.compile(r"[()`=<>{}\[\]/\\|_#*@]|^\W|\d+\.\d+|--|\w\.\w")

GENERIC_HEADINGS = frozenset("""introduction overview summary contents installation install usage
examples example notes note license licence contributing changelog changes history faq links
see also references background description details features requirements support sponsors
credits acknowledgements authors documentation docs about quickstart tutorial api more
getting started next steps further reading table of contents resources community help
options arguments parameters configuration settings reference misc miscellaneous other others
general basics basic advanced tips caveats warning warnings important limitations
""".split())
"""Headings that name a part of a page, not a topic: a reader cannot tell which section of
which page "Usage" or "Options" means."""


@dataclass(frozen=True)
class HeadingForm:
    """``kind``: ``how`` (a task), ``what`` (a thing), ``question`` or "" (asks nothing).
    ``phrase``: what the question writes (the task in the base form "publish to PyPI", the
    noun phrase, or the question itself); ``verb``: the task's verb lemma; ``target``: the
    lemma the section must use with it (the task's object or the object of its preposition,
    or the thing's head noun); ``by_prep``: the target is the object of a preposition."""

    kind: str
    phrase: str = ""
    verb: str = ""
    target: str = ""
    by_prep: bool = False
    plural: bool = False
    frame: str = ""
    words: tuple[str, ...] = ()
    """A thing's content words (lemmas): its section must write each ("generic plugins" is
    not answered by "Every plugin has to ...")."""
    """How a task was read: ``gerund`` ("Pitching the tent"), ``how_to`` ("How to install"),
    ``imperative`` ("Configure credentials", the reading a noun phrase most often gets
    wrongly: "Pull requests")."""


NONE = HeadingForm("")


def _task(doc: Any, at: int, words: list[str], frame: str) -> HeadingForm | None:
    """The task read from a framed parse whose token ``at`` should be the heading's verb."""
    if len(doc) <= at:
        return None
    verb = doc[at]
    if verb.tag_ not in ("VBG", "VB") or verb.pos_ not in ("VERB",):
        return None
    lemma = verb.lemma_.lower()
    stem = verb.lower_[:-3]
    if verb.tag_ == "VBG" and stem.endswith("ll") and lemma + lemma[-1:] == stem:
        lemma = stem  # the lemmatiser's "instal" of "installing"
    if not lemma.isalpha() or lemma == verb.lower_ and verb.tag_ == "VBG":
        return None
    obj = next((c for c in verb.children if c.dep_ in ("dobj", "obj")), None)
    target, by_prep = "", False
    if obj is not None:
        target = obj.lemma_.lower()
    else:
        prep = next((c for c in verb.children if c.dep_ == "prep"), None)
        pobj = next((c for c in prep.children if c.dep_ == "pobj"), None) if prep is not None else None
        if pobj is not None:
            target, by_prep = pobj.lemma_.lower(), True
    if not target:
        return None  # "Installing" alone: which task?
    return HeadingForm(HOW, " ".join([lemma] + words[1:]), lemma, target, by_prep, frame=frame)


def _thing(doc: Any, heading: str) -> HeadingForm | None:
    """The noun phrase of "Read about <heading>.": its head noun is the object of "about"."""
    if len(doc) < 3:
        return None
    head = next((c for c in doc[1].children if c.dep_ == "pobj"), None)
    span = doc[2:len(doc) - 1]
    if head is None or head.pos_ not in ("NOUN", "PROPN") or any(
            t.pos_ in ("VERB", "AUX", "PRON", "NUM") for t in span):
        return None
    if all(t.pos_ == "PROPN" for t in span):
        return None  # a name alone ("Poetry", "pipx"): what about it?
    return HeadingForm(WHAT, re.sub(r"^(?:The|A|An) ", "", heading), "", head.lemma_.lower(),
                       # a Title Case plural ("Sub-Commands") is tagged a singular name
                       plural=head.tag_ in ("NNS", "NNPS") or (
                           head.pos_ == "PROPN" and head.text[:1].isupper() and head.text[1:].islower()
                           and head.text.endswith("s") and not head.text.endswith("ss")),
                       words=tuple(t.lemma_.lower() for t in span if t.pos_ in ("NOUN", "PROPN", "ADJ")))


def heading_forms(headings: Iterable[str]) -> dict[str, tuple[HeadingForm, ...]]:
    """The readings of each heading, the task first (one parse of every frame for all of
    them): "Caret requirements" frames as an imperative too, and only its section (see
    ``grounded``) tells that it is a thing."""
    heads = sorted({h.strip() for h in headings if h.strip()})
    forms: dict[str, HeadingForm] = {}
    framed: list[tuple[str, str, str]] = []  # (heading, frame kind, text)
    for h in heads:
        bare = h.rstrip(":").strip()
        words = bare.split()
        if (not words or bare.lower() in GENERIC_HEADINGS or len(words) > 10
                or (not bare.endswith("?") and _NOT_PROSE.search(bare)) or not bare[:1].isalpha()):
            forms[h] = NONE
            continue
        if m := _HOW_TO.match(bare):
            rest = m.group("rest")
            framed.append((h, "how_to", f"You should {lower_first(rest)}."))
            continue
        if bare.endswith("?") or _QUESTION_START.match(bare):
            forms[h] = HeadingForm(QUESTION, bare) if len(words) >= 3 and bare.endswith("?") else NONE
            continue
        low = lower_first(bare)
        if words[0].lower().endswith("ing"):
            framed.append((h, "gerund", f"We are {low}."))
        elif len(words) >= 2:
            framed.append((h, "imperative", f"You should {low}."))
        framed.append((h, "thing", f"Read about {low}."))
    docs = parse([t for _, _, t in framed], entities=False)
    readings: dict[str, list[HeadingForm]] = {h: [f] for h, f in forms.items() if f.kind}
    for (h, kind, _), doc in zip(framed, docs):
        bare = h.rstrip(":").strip()
        rest = _HOW_TO.match(bare)
        words = (rest.group("rest") if rest else bare).split()
        got = (_task(doc, 2, words, kind) if kind in ("gerund", "imperative", "how_to")
               else _thing(doc, bare))
        if got is not None:
            readings.setdefault(h, []).append(got)
    return {h: tuple(readings.get(h, ())) for h in heads}


def _matches(token: Any, lemma: str) -> bool:
    return bool(token.lemma_.lower() == lemma or token.lower_ == lemma)


def grounded(form: HeadingForm, doc: Any) -> bool:
    """Whether a parsed sentence says what the heading asks: for a task, its verb acting on
    its target ("To install the defined dependencies, run ..." for "Installing
    dependencies"); for a thing, the thing as the sentence's subject ("Caret requirements
    allow ..." for "Caret requirements")."""
    if form.kind == HOW:
        for t in doc:
            if t.pos_ != "VERB" or not _matches(t, form.verb):
                continue
            if form.by_prep:
                if any(_matches(s, form.target) for s in t.subtree if s is not t):
                    return True
            elif any(c.dep_ in ("dobj", "obj", "nsubjpass") and _matches(c, form.target) for c in t.children):
                return True
        return False
    if form.kind == WHAT:
        return any(t.dep_ in ("nsubj", "nsubjpass") and _matches(t, form.target)
                   and t.head.dep_ == "ROOT" for t in doc)
    return False


DEFINING_VERBS = frozenset("refer mean denote represent describe define specify allow let enable stand".split())
"""Verbs whose subject is defined by the sentence ("Caret requirements allow ...", "NUON
stands for ..."); "Durations support fractional values" says a side fact, not what
durations are."""


def defines(doc: Any, target: str) -> bool:
    """Whether a parsed sentence defines ``target`` (a lemma, or a word as written): it is the
    subject of the main verb, and that verb is a copula with a noun phrase that classifies it
    ("X is a tool for ...", "Xs are values that ..."), "X refers to / means ...", or "X is
    used to ..."; not an evaluative or side predicate ("TDD is a skill like any other",
    "Booleans are commonly the result of a comparison", "NUON is a superset of JSON!")."""
    if doc.text.strip().endswith("!"):
        return False
    target = target.lower()
    subject = next((t for t in doc if t.dep_ in ("nsubj", "nsubjpass") and t.head.dep_ == "ROOT"
                    and (_matches(t, target) or t.lower_ == target)), None)
    if subject is None:
        return False
    root = subject.head
    children = list(root.children)
    if any(c.dep_ == "neg" for c in children):
        return False
    if root.lemma_ == "be":
        attr = next((c for c in children if c.dep_ == "attr" and c.pos_ in ("NOUN", "PROPN", "NUM")), None)
        if attr is None or any(c.dep_ == "advmod" and c.lower_ != "also" for c in children):
            return False
        return not any(c.dep_ == "prep" and c.lower_ in ("like", "as") for c in attr.children)
    if root.lemma_ == "use" and any(c.dep_ == "auxpass" for c in children):
        return True  # "X is used to ..."
    return root.lemma_.lower() in DEFINING_VERBS


_MODALS = ("can", "must", "should", "need", "may", "have")


def _instructions(doc: Any) -> list[Any]:
    """The verbs a sentence tells the reader to do: an imperative ("Run the install
    command", "To publish, run ..."), or the verb of "you can/should/must/need to ..."."""
    out = []
    for t in doc:
        if t.pos_ not in ("VERB", "AUX") or t.tag_ != "VB":
            continue
        subjects = [c for c in t.children if c.dep_ in ("nsubj", "nsubjpass")]
        aux = {c.lower_ for c in t.children if c.dep_ in ("aux", "auxpass")}
        if t.dep_ in ("ROOT", "conj") and not subjects and not aux and (
                t.dep_ == "ROOT" or t.head.tag_ == "VB"):
            out.append(t)  # "Run ...", "... and run ..."
        elif any(s.lower_ == "you" for s in subjects) and aux & set(_MODALS):
            out.append(t)
        elif t.dep_ == "xcomp" and t.head.lemma_ in ("need", "have") and any(
                s.lower_ == "you" for s in t.head.children if s.dep_ == "nsubj"):
            out.append(t)  # "you need to run ..."
    return out


def says_how(form: HeadingForm, doc: Any, text: str = "") -> bool:
    """Whether a sentence says HOW to do the task ``form`` names, not only that, when or
    why to do it: code (a command, an option, a setting: ``text``, the sentence with what it
    introduces attached, has a code span), "by <gerund>", "with/using/via <a name>", or an
    instruction beyond the task itself: another verb told to the reader, with an object
    ("To configure timeouts, pass the timeout when you create the client"), or the task's
    verb on another object ("Use the markers property" for "Using environment markers"). "Always use official base images", "You should
    monitor for vulnerabilities in every layer" say only to do the task; "Make sure you
    agree your RPOs" and "Ensure that PII is filtered out" restate it in a clause; "Estimate
    the costs and share them with your owner" adds the next step, not the method."""
    words = [t for t in doc if not t.is_punct]
    if any(t.dep_ == "ROOT" and t.tag_ == "VBD" for t in words):
        return False  # what a team did (a case study), not how to do it
    if "`" in text or "`" in doc.text:
        # a command or option, for this task: the sentence or the code names its verb or
        # object ("run `poetry publish`"); code beside a side matter is no answer
        code = " ".join(re.findall(r"`([^`]+)`", text)).lower()
        if any(_on_task(t, form) for t in words) or form.verb in code or form.target in code:
            return True
    instructions = _instructions(doc)
    for t in words:
        means = (t.lower_ == "by" and any(c.tag_ == "VBG" for c in t.children)) or (
            t.lower_ in ("with", "using", "via", "through") and t.dep_ in ("prep", "advcl", "acl", "xcomp")
            and any(d.pos_ == "PROPN" or (d.text[:1].isupper() and d.i > 0 and not d.is_sent_start)
                    for d in t.subtree if d is not t)) or (t.lower_ == "using" and t.tag_ == "VBG")
        # the means must be the task's: "by logging into Docker Hub" on "view the results"
        # says how to view results, not how to use official images
        # ... and told to the reader or the task's verb ("is done by using"), not a side
        # statement ("Anything published to PyPI is available through Poetry")
        told = t.head in instructions or _matches(t.head, form.verb) or t.head.lemma_ == "do"
        if means and told and _acts_on_task(t.head, form, skip=t):
            return True
    for verb in instructions:
        if verb.dep_ == "conj" and _matches(verb.head, form.verb):
            continue  # the next step after the task
        # "Automate this process": the task again, pointed at
        objects = [c for c in verb.children if c.dep_ in ("dobj", "obj") and c.pos_ in ("NOUN", "PROPN")
                   and not any(d.lower_ in ("this", "that", "these", "those") for d in c.children)]
        # another verb acting on the task ("pass the timeout" for "Configuring timeouts"), or
        # the task's verb on another object ("Use the markers property"); an instruction on
        # a side matter ("adjust your team's SLIs" under "Running a workshop") says no how
        if objects and (not _matches(verb, form.verb) or any(not _matches(o, form.target) for o in objects)) \
                and _acts_on_task(verb, form):
            return True
    return False


def _on_task(token: Any, form: HeadingForm) -> bool:
    return _matches(token, form.verb) or _matches(token, form.target)


def _acts_on_task(verb: Any, form: HeadingForm, skip: Any = None) -> bool:
    """Whether a verb is the task's or writes the task's verb or object in what it governs
    (outside ``skip``, the means phrase being judged)."""
    if _matches(verb, form.verb):
        return True
    hidden = set() if skip is None else {d.i for d in skip.subtree}
    return any(_on_task(d, form) for d in verb.subtree if d is not verb and d.i not in hidden)


def lead_in(doc: Any) -> bool:
    """A sentence that leads into the section rather than saying anything of its topic: an
    interjection first ("Alright, so now you can publish packages."; "Great, now ..."), an
    exclamation, thanks."""
    words = [t for t in doc if not t.is_punct]
    if not words:
        return True
    text = doc.text.strip()
    return (words[0].pos_ == "INTJ" or words[0].tag_ == "UH" or text.endswith("!")
            or any(t.lemma_.lower() == "thank" for t in words[:4]))


def parse_sentences(texts: Sequence[str]) -> dict[str, Any]:
    """Sentence -> parsed doc, one batch for all."""
    uniq = sorted(set(texts))
    return dict(zip(uniq, parse(uniq, entities=False)))
