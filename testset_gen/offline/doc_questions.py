"""Questions from the sentence patterns of documentation, qualified by the page's subject.

Documentation states most of its facts as instructions and defaults about a subject it
does not name (measured on the bench folder ``docs``: of 1,462 prose sentences, 232 have no
subject and 194 have "you", "we", "it" or "this"): "You can enable logging by setting an
environment variable", "To test pull requests, use sympy-bot", "By default, the async
client uses HTTPX2". The statement rules (``questions``) skip them all. Here each pattern
is asked the way a user asks it, naming the page's subject (``page_subject``) so that the
question stands alone; the ground truth is the sentence itself, verbatim:

* "You can X by/using/via/through Y." -> "How can you X in <page>?" (answer: "by Y");
* "You can use Y to X." / "Use Y to X." -> "What can you use to X in <page>?" (answer Y);
* "To X, use Y." -> "What do you use to X in <page>?"; "To X, <do Y>." -> "How do you X
  in <page>?" (answer: the instruction);
* "By default, <subject> <verb> <object>." -> "What does <subject> <verb> by default in
  <page>?"; "... <verb> after 10 minutes" -> "When do requests time out by default ...?";
  "X defaults to Y." -> "What does X default to in <page>?";
* "<page> requires Python 3.8 or later." -> "Which Python version does <page> require?";
* "<page> is licensed under the MIT license." / "This project is MIT licensed." -> "Which
  licence does <page> use?".

The last two are facts of one kind across pages, so two pages' facts compare
(``shared_licences``, ``newer_pythons``: multi_context questions that need both pages).
Two kinds are ``reasoning`` records: a stated floor asked about another version ("Rich
requires Python 3.8 or later." -> "Can you use Rich with Python 3.7?", ground truth "No.
Rich requires ..."; ``python_support``), and a cause or purpose after the main clause
("X is required so that Y." -> "Why is X required in <page>?", answer "so that Y";
``cause_question``).

"<page>" is left out when the question already names it ("How can you install spaCy from
conda?"); "this library", "the project" in the sentence become the page's name.

A sentence is asked nothing when it is not one plain line (brackets, colons, semicolons,
quotes, more than one comma in the asked part), when the purpose points elsewhere ("To
learn more, see ...") or when the part after "You can" does not start with a verb. What
is left of code, pronouns and vague answers, the record filter removes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc


@dataclass(frozen=True)
class DocQuestion:
    """``text``: the question; ``answer``: the part of ``statement`` it asks for;
    ``statement``: the source sentence (the ground truth); ``template``: which pattern;
    ``fact``: for "licence" and "python", the comparable value ("MIT", "3.8")."""

    text: str
    answer: str
    statement: str
    template: str
    fact: str = ""


_PLAIN = re.compile(r"^[A-Z][^()\[\]{}:;\"“”<>|`]*\.$")
"""One plain sentence: no brackets, colons, semicolons, quotes or markup."""

_CODE_NAME = re.compile(r"\b[A-Za-z_]\w*\.[a-z_]\w*|\w\(|@\w|=")
"""An attribute, a call, a decorator or an assignment ("client.get", "load()", "@traceable",
"raw=True"): code written inline, which extraction leaves without its backticks."""

_HEDGES = r"(?:(?:also|optionally|easily|then|manually|directly|simply|now|even|further) )*"

_HOW_CAN = re.compile(r"^You can " + _HEDGES +
                      r"(?P<act>[a-z].+?) (?P<how>(?:by|using|via|through) .+)\.$")
_INSTALL_WITH = re.compile(r"^You can " + _HEDGES + r"(?P<act>install .+?) (?P<how>with .+)\.$")
_USE_TO = re.compile(r"^(?:You can " + _HEDGES + r"use|Use) (?P<tool>.+?) to (?P<act>[a-z].+)\.$")
_TO_DO = re.compile(r"^To (?P<act>[a-z][^,]+), (?:please )?(?P<can>you can )?" + _HEDGES
                    + r"(?P<instr>[a-z].+)\.$")
_LETS_YOU = re.compile(r"^(?P<subject>[A-Z][\w .-]{1,40}?) (?P<verb>lets|allows|enables) "
                       r"(?P<who>you|users|developers) (?:to )?(?P<act>[a-z][^,]+)\.$")
"""What a named thing is for, as the page says it: "PySocks lets you send traffic through
SOCKS and HTTP proxy servers." -> "What does PySocks let you do?"."""

_USED_FOR = re.compile(r"^(?P<subject>[A-Z][\w .-]{1,40}?) (?P<be>is|are) (?:mainly |primarily |mostly )?"
                       r"(?P<how>used|designed|intended) (?P<prep>to|for) (?P<purpose>[a-z][^,]+)\.$")
"""A purpose stated of a named thing: "The selenium package is used to automate web browser
interaction from Python." -> "What is the selenium package used for?"."""

_SELF_NAMED = re.compile(r"^(?:this|the) (?:\w+ )?(?:library|package|project|module|framework)$", re.I)
"""A subject naming the page ("This Python module", "The library"): asked as the page."""

_BY_DEFAULT = re.compile(r"^By default,? (?P<rest>[A-Za-z].+)\.$")
_DEFAULTS_TO = re.compile(r"^(?P<subject>(?:The |the )?[A-Za-z][\w .-]{2,40}?) defaults to "
                          r"(?P<value>[^,]+)\.$")
_PYTHON = re.compile(r"^(?P<subject>.+?) (?P<verb>requires|supports|needs|works with) Python "
                     r"(?P<ver>3\.\d+)(?P<tail> or (?:later|higher|newer|above|greater)|"
                     r" and (?:higher|later|above|newer|up)|\+)"
                     # "Transformers works with Python 3.11+, and PyTorch 2.6+.": another
                     # requirement after the floor stays in the statement, not in the answer
                     r"(?:,? and [A-Z][\w.+ -]*)?\.$")
_LICENSED_UNDER = re.compile(
    r"^(?P<subject>.+?) (?:is|has been|are) (?:licensed|released|distributed) under "
    r"(?:the terms of )?(?:the )?(?P<lic>(?:[A-Z][\w.-]*)(?: [A-Z][\w.-]*)?)(?: [Ll]icen[cs]e)?\b")
_X_LICENSED = re.compile(r"^(?P<subject>.+?) (?:is|has been|are) (?P<lic>[A-Z][A-Za-z0-9.]*)"
                         r"[ -]licensed\b")

SELF_REFERENCES = ("this library", "this package", "this project", "this module",
                   "this framework", "the library", "the package",
                   "the project")
"""How a page names its own subject; replaced by the page's name in a question."""

ELSEWHERE = frozenset("learn understand see know read find get give try cite".split())
"""Purposes that point to other pages or examples ("To learn more, see the docs")."""

HOW_CAN_ANSWER_WORDS = 14
"""A longer "by ..." answer is a list of steps, not one way."""


def _core(page: str) -> str:
    return page[4:] if page.startswith("the ") else page


def names_page(text: str, page: str) -> bool:
    """``text`` names the page's subject: a capitalised or odd word of the page name
    ("LangSmith" for "the LangSmith Client SDK"), or the whole name, any case."""
    core = _core(page)
    if re.search(r"(?<![\w-])" + re.escape(core) + r"(?![\w-])", text, re.I):
        return True
    words = [w for w in re.findall(r"[\w.-]+", core)
             if len(w) > 2 and w.lower() not in ("python", "api", "sdk", "client", "library")]
    return any(re.search(r"(?<![\w-])" + re.escape(w) + r"(?![\w-])", text) for w in words)


def _own(text: str, page: str) -> str:
    """"support the project" -> "support pypdf": the page's words for itself, replaced."""
    for ref in SELF_REFERENCES:
        text = re.sub(r"\b" + ref + r"\b", page, text, flags=re.I)
    return text


def _qualified(body: str, page: str) -> str:
    """``body`` + " in <page>" unless it names the page already; with "?"."""
    body = _own(body, page)
    if not names_page(body, page):
        body = f"{body} in {page}"
    return body[:1].upper() + body[1:] + "?"


def _about_page(subject: str, page: str) -> bool:
    return subject.lower() in SELF_REFERENCES or (
        len(subject.split()) <= 4 and names_page(subject, page))


def _starts_with_verb(doc: "Doc", text: str) -> bool:
    """The first word of ``text`` inside ``doc`` is a verb's base form ("enable", "set")."""
    start = doc.text.find(text)
    tok = next((t for t in doc if t.idx == start), None)
    # an imperative after a comma is tagged VBP as often as VB ("..., activate the project")
    return tok is not None and (tok.tag_ == "VB" or tok.tag_ == "VBP" and tok.pos_ == "VERB")


def _by_default(doc: "Doc", rest: str, page: str, sentence: str) -> DocQuestion | None:
    """"By default, the async client uses HTTPX2." -> "What does the async client use by
    default in <page>?"; "By default requests time out after 10 minutes." -> "When do
    requests time out by default in <page>?"."""
    start = doc.text.find(rest)
    toks = [t for t in doc if t.idx >= start and not (t.is_punct and t.i == len(doc) - 1)]
    roots = [t for t in toks if t.dep_ == "ROOT"]
    if len(roots) != 1 or roots[0].tag_ not in ("VBZ", "VBP"):
        return None
    root = roots[0]
    subjects = [c for c in root.children if c.dep_ == "nsubj"]
    if len(subjects) != 1 or subjects[0].pos_ not in ("NOUN", "PROPN"):
        return None
    subject = sorted(subjects[0].subtree, key=lambda t: t.i)
    if subject[0].i != toks[0].i or subject[-1].i + 1 != root.i:
        return None  # only the subject before the verb
    after = [t for t in toks if t.i > root.i]
    subject_text = doc[subject[0].i:subject[-1].i + 1].text
    subject_text = subject_text[:1].lower() + subject_text[1:] if subject[0].lower_ == "the" \
        else subject_text
    do = "does" if root.tag_ == "VBZ" else "do"
    objs = [c for c in root.children if c.dep_ == "dobj"]
    if len(objs) == 1 and after and after[0].i == objs[0].i and max(
            t.i for t in objs[0].subtree) == after[-1].i:
        answer = doc[objs[0].left_edge.i:after[-1].i + 1].text
        body = f"what {do} {subject_text} {root.lemma_} by default"
        return DocQuestion(_qualified(body, page), answer, sentence, "default")
    particles = [t for t in after if t.dep_ == "prt"]
    preps = [c for c in root.children if c.dep_ == "prep" and c.lower_ in ("after", "within")]
    if len(preps) == 1 and (not particles or particles[0].i == root.i + 1) and any(
            t.like_num for t in preps[0].subtree) and max(
            t.i for t in preps[0].subtree) == after[-1].i and preps[0].i == (
            particles[0].i + 1 if particles else root.i + 1):
        verb = " ".join([root.lemma_] + [p.text for p in particles])
        answer = doc[preps[0].i:after[-1].i + 1].text
        return DocQuestion(_qualified(f"when {do} {subject_text} {verb} by default", page),
                           answer, sentence, "default")
    return None


def _superlative(doc: "Doc", text: str) -> bool:
    """A superlative in the purpose ("to see the biggest developers", "to get the best
    results"): the page's judgement, which names no checkable thing (rated unnatural:
    "What can you use to see the biggest developers in SymPy?")."""
    start = doc.text.find(text)
    return start >= 0 and any(t.tag_ in ("JJS", "RBS") and start <= t.idx < start + len(text)
                              for t in doc)


_CAUSE = re.compile(r"(?:,? (?P<conn>because|so that|in order to) )(?P<why>[A-Za-z].+)\.$")
"""A cause or a purpose stated after the main clause: "The context manager is required so
that the response will reliably be closed."."""

_BACK = frozenset("it its they them their this that these those he she him her".split())

CAUSE_AUXILIARIES = frozenset("is are was were should must has have had".split())
"""Inverted in a "why" question. Not "can", "will", "may": "Why can Rich be installed in the
REPL?" asks why it is possible, which the sentence ("..., so that data structures are pretty
printed") does not say."""


def cause_question(doc: "Doc", page: str, sentence: str,
                   auxiliaries: frozenset[str] = CAUSE_AUXILIARIES) -> DocQuestion | None:
    """"Why is the context manager required in <page>?" from "The context manager is
    required so that the response will reliably be closed." (answer: "so that the response
    will reliably be closed"; a ``reasoning`` record: the question asks for the reason the
    page gives, the ground truth is the sentence).

    Only a main clause of one plain statement before the connective: a named subject
    (a noun phrase, the page's self-reference or "you", never "it", "this" or "they"), its
    verb, and what follows the verb up to the connective, with no comma; the question
    inverts the first auxiliary ("is", "can", "should") or adds "do"/"does"/"did"."""
    cause = _CAUSE.search(sentence)
    if cause is None:
        return None
    main = sentence[:cause.start()]
    if "," in main or len(cause.group("why").split()) > 16:
        return None
    toks = [t for t in doc if t.idx < len(main)]
    roots = [t for t in toks if t.dep_ == "ROOT"]
    if len(roots) != 1 or roots[0].pos_ not in ("VERB", "AUX"):
        return None
    root = roots[0]
    subjects = [c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")]
    if len(subjects) != 1:
        return None
    subject = sorted(subjects[0].subtree, key=lambda t: t.i)
    if subject[0].i != 0 or subject[-1].idx >= len(main):
        return None  # the subject opens the sentence
    head = subjects[0]
    self_named = bool(_SELF_NAMED.match(main[:subject[-1].idx + len(subject[-1].text)]))
    if head.lower_ != "you" and not self_named and (head.pos_ not in ("NOUN", "PROPN") or any(
            t.lower_ in ("it", "this", "that", "these", "those", "they", "its", "their")
            for t in subject)):
        return None  # "This framework" is the page's name for itself: asked as the page
    after_subject = [t for t in toks if t.i > subject[-1].i]
    if not after_subject or any(t.lower_ in _BACK for t in after_subject):
        return None  # "Chardet reads a part of it": "it" is the sentence before's
    subject_text = page if self_named else main[:subject[-1].idx + len(subject[-1].text)]
    # "Stream consumption" opening the sentence is "stream consumption" inside the question;
    # a name ("Rich") keeps its capital
    if not self_named and subject[0].tag_ not in ("NNP", "NNPS") and not subject[0].text.isupper():
        subject_text = subject_text[:1].lower() + subject_text[1:]
    first = after_subject[0]
    if head.lower_ == "you" and first.lower_ not in ("should", "must"):
        return None  # "Why do you have various options to choose from?": advice only
    rest_start = first.idx + len(first.text)
    if first.i == root.i and root.lemma_ == "be" and subject[0].pos_ == "NOUN" and not any(
            t.dep_ == "det" for t in subject):
        # "Configuration is a huge challenge for ML code because ...": a bare common noun
        # defined or judged is a general claim, not one about the page ("... in confection?"
        # was rated a misattribution); a passive of it stays ("Stream consumption is not
        # retried because ...")
        return None
    if first.lower_ in auxiliaries and (first.dep_ in ("aux", "auxpass") or (
            first.i == root.i and root.lemma_ == "be")):
        verb, rest = first.lower_, main[rest_start:].strip()
        body = f"why {verb} {subject_text} {rest}".strip()
    elif first.i == root.i and root.tag_ in ("VBZ", "VBP", "VBD") and root.lemma_ != "be":
        do = {"VBZ": "does", "VBP": "do", "VBD": "did"}[root.tag_]
        rest = main[rest_start:].strip()
        body = f"why {do} {subject_text} {root.lemma_} {rest}".strip()
    else:
        return None
    answer = f"{cause.group('conn')} {cause.group('why')}"
    return DocQuestion(_qualified(body, page), answer, sentence, "cause")


_SO = re.compile(r"^(?P<cause>[A-Z][^,]+), so (?P<effect>[a-z][^,]+)\.$")
"""A cause stated before its effect: "The bins are the same in every report, so two reports
can be compared by eye."."""


def consequence_question(page: str, sentence: str) -> DocQuestion | None:
    """"Why can two reports be compared by eye in ragmeter?" from "The bins are the same in
    every report, so two reports can be compared by eye." (answer: the clause before ", so";
    a ``reasoning`` record, as ``cause_question``). The effect is asked by the same rules
    as a main clause before "because", so the same subjects and pronouns are refused."""
    m = _SO.match(sentence)
    if m is None or len(m.group("cause").split()) > 16:
        return None
    from ragmeter.text.syntax import parse

    effect, cause = m.group("effect"), m.group("cause")
    if re.match(r"(?:What|Which|Who|How|When|Where)\b", cause):
        return None  # "What is left is the change itself, so ...": names nothing
    as_cause = f"{effect[:1].upper()}{effect[1:]} because {cause}."
    # "can" here asks why it is possible, which is what the sentence says ("..., so two
    # reports can be compared by eye"), unlike a purpose after "so that"
    asked = cause_question(parse([as_cause])[0], page, as_cause,
                           CAUSE_AUXILIARIES | {"can", "will", "may"})
    if asked is None or _PERSONAL.search(cause) or re.search(r"\byou\b", cause, re.I) or any(
            w in _BACK for w in re.findall(r"[a-z]+", cause.lower())):
        return None
    first = effect.split()[0]  # capitalised to open the made sentence; lowercase again
    text = re.sub(r"(?<= )" + re.escape(first[:1].upper() + first[1:]) + r"\b", first, asked.text, count=1)
    return DocQuestion(text, cause, sentence, "consequence")


PYTHON_RELEASES = (6, 13)
"""The Python 3 minor versions a support question may name: released ones that READMEs
still state as a floor (3.6) up to the newest widely packaged (3.13)."""


def python_support(q: DocQuestion, page: str) -> list[DocQuestion]:
    """"Can you use Rich with Python 3.7?" (No) and "... with Python 3.9?" (Yes) from "Rich
    requires Python 3.8 or later": a ``reasoning`` question whose answer is derived from
    the stated floor, never written in the page. Ground truth: "No. <the sentence>";
    ``fact``: the version asked. One minor version below the floor and one above, each only
    when it is in ``PYTHON_RELEASES``."""
    if q.template != "python" or not q.fact:
        return []
    minor = int(q.fact.split(".")[1])
    out = []
    for asked, verdict in ((minor - 1, "No"), (minor + 1, "Yes")):
        if PYTHON_RELEASES[0] <= asked <= PYTHON_RELEASES[1]:
            out.append(DocQuestion(f"Can you use {page} with Python 3.{asked}?", verdict,
                                   f"{verdict}. {q.statement}", "python_support", f"3.{asked}"))
    return out


def _named_subject(subject: str, page: str) -> str | None:
    """The subject of a "lets you" / "is used for" sentence as a question names it: the
    page for a self-reference ("This Python module" on the PySocks page); a name of a few
    words as written, "The" lowered ("the Realtime API"); ``None`` for a pronoun, an
    indefinite ("A C extension module is used for ...": which one?) or a common noun with
    no capital ("the cache")."""
    if _SELF_NAMED.match(subject) or _about_page(subject, page):
        return page
    words = subject.split()
    if len(words) > 4 or words[0].lower() in ("a", "an", "it", "this", "that", "these", "those",
                                              "they", "which", "each", "every", "some"):
        return None
    if words[0] == "The":
        if not any(w[:1].isupper() for w in words[1:]):
            return None
        return "the " + " ".join(words[1:])
    return subject if subject[:1].isupper() else None


def _lets_you(doc: "Doc", m: "re.Match[str]", page: str, sentence: str) -> DocQuestion | None:
    """"What does PySocks let you do?" (answer: "send traffic through SOCKS and HTTP proxy
    servers"): only a verb's base form after "to", at most ``HOW_CAN_ANSWER_WORDS`` words,
    and no reader or writer inside it ("fine-tune your own ...": whose?)."""
    subject = _named_subject(m.group("subject"), page)
    act = m.group("act")
    if (subject is None or not _starts_with_verb(doc, act) or _PERSONAL.search(act)
            or len(act.split()) > HOW_CAN_ANSWER_WORDS):
        return None
    verb = {"lets": "let", "allows": "allow", "enables": "enable"}[m.group("verb")]
    to = "" if verb == "let" else "to "
    return DocQuestion(_qualified(f"what does {subject} {verb} {m.group('who')} {to}do", page),
                       act, sentence, "lets_you")


def _used_for(doc: "Doc", m: "re.Match[str]", page: str, sentence: str) -> DocQuestion | None:
    """"What is the selenium package used for?" (answer: "to automate web browser
    interaction from Python"); "designed" and "intended" alike."""
    subject = _named_subject(m.group("subject"), page)
    purpose = m.group("purpose")
    if (subject is None or _PERSONAL.search(purpose) or len(purpose.split()) > HOW_CAN_ANSWER_WORDS
            or (m.group("prep") == "to" and not _starts_with_verb(doc, purpose))
            or purpose.startswith(("be ", "use ", "work "))):
        return None  # "is designed to be used either as ...": a manner, not a purpose
    body = f"what {m.group('be')} {subject} {m.group('how')} for"
    return DocQuestion(_qualified(body, page), f"{m.group('prep')} {purpose}", sentence, "used_for")


def doc_questions(sentences: Sequence[str], page: str) -> list[DocQuestion]:
    """The questions the patterns above make from a page's ``sentences`` (``page``: its
    subject's name; without one, none)."""
    if not page:
        return []
    plain = [s.strip() for s in sentences if _PLAIN.match(s.strip()) and "\n" not in s.strip()
             and len(s.split()) <= 40 and not _CODE_NAME.search(s)]
    patterned = [s for s in plain if re.match(r"(?:You can|Use|To|By default)\b", s)
                 or " defaults to " in s or " Python 3." in s or "licensed" in s.lower()
                 or _CAUSE.search(s) or _LETS_YOU.match(s) or _USED_FOR.match(s) or _SO.match(s)]
    if not patterned:
        return []
    from ragmeter.text.syntax import parse

    out: list[DocQuestion] = []
    for s, doc in zip(patterned, parse(patterned)):
        out.extend(_asked(s, doc, page))
    return out


_PERSONAL = re.compile(r"\b(?:I|me|my|we|us|our|your)\b", re.I)
"""The writer or the reader inside the asked part: "to help us diagnose the issue", "test
your installation" (whose?)."""


def _asked(s: str, doc: "Doc", page: str) -> list[DocQuestion]:
    out: list[DocQuestion] = []
    acted = re.match(r"(?:You can " + _HEDGES + r"(?:use .+? to )?|Use .+? to |To )(.+?)(?:,|$)", s)
    if acted and (_PERSONAL.search(acted.group(1)) or _superlative(doc, acted.group(1))):
        return out
    if _CAUSE.search(s):
        cause = cause_question(doc, page, s)
        return [cause] if cause is not None else []
    if _SO.match(s):
        so = consequence_question(page, s)
        return [so] if so is not None else []
    lets = _LETS_YOU.match(s)
    if lets:
        q = _lets_you(doc, lets, page, s)
        return [q] if q is not None else []
    used = _USED_FOR.match(s)
    if used:
        q = _used_for(doc, used, page, s)
        return [q] if q is not None else []
    use = _USE_TO.match(s)
    if use and use.group("act").count(",") <= 1 and _starts_with_verb(doc, use.group("act")) \
            and not re.match(r"(?:it|them|this|that|these)\b", use.group("tool")):
        out.append(DocQuestion(_qualified(f"what can you use to {use.group('act')}", page),
                               use.group("tool"), s, "use_to"))
        return out
    how = _HOW_CAN.match(s) or _INSTALL_WITH.match(s)
    if how and how.group("act").count(",") == 0 and _starts_with_verb(doc, how.group("act")) \
            and len(how.group("how").split()) <= HOW_CAN_ANSWER_WORDS:
        out.append(DocQuestion(_qualified(f"how can you {how.group('act')}", page),
                               how.group("how"), s, "how_can"))
        return out
    to = _TO_DO.match(s)
    if to and to.group("act").split()[0] not in ELSEWHERE and _starts_with_verb(
            doc, to.group("act")) and _starts_with_verb(doc, to.group("instr")):
        act, instr = to.group("act"), to.group("instr")
        if instr.startswith("use ") and not act.startswith("use "):
            tool = re.sub(r"\s+instead$", "", instr[4:])
            out.append(DocQuestion(_qualified(f"what do you use to {act}", page), tool, s,
                                   "to_use"))
        else:
            modal = "can" if to.group("can") else "do"
            out.append(DocQuestion(_qualified(f"how {modal} you {act}", page), instr, s, "to_do"))
        return out
    default = _BY_DEFAULT.match(s)
    if default:
        q = _by_default(doc, default.group("rest"), page, s)
        return [q] if q is not None else []
    defaults = _DEFAULTS_TO.match(s)
    if defaults and not re.match(r"(?:it|this|that)\b", defaults.group("subject"), re.I):
        subject = defaults.group("subject")
        subject = subject[:1].lower() + subject[1:] if subject.startswith("The ") else subject
        out.append(DocQuestion(_qualified(f"what does {subject} default to", page),
                               defaults.group("value"), s, "default"))
        return out
    python = _PYTHON.match(s)
    if python and _about_page(python.group("subject"), page):
        verb = {"requires": "require", "supports": "support", "needs": "need",
                "works with": "work with"}[python.group("verb")]
        versions = "version" if verb not in ("support", "work with") else "versions"
        answer = f"{python.group('ver')}{python.group('tail')}"  # "Python" is in the question
        out.append(DocQuestion(f"Which Python {versions} does {page} {verb}?", answer, s,
                               "python", python.group("ver")))
        return out
    licence = _LICENSED_UNDER.match(s) or _X_LICENSED.match(s)
    if licence and _about_page(licence.group("subject"), page):
        lic = re.sub(r" Licen[cs]e$", "", licence.group("lic"))
        # "Which license is Typer released under?" parses as two clauses (the filter's
        # subordinate-clause check drops it); "use" says the same in one. "license", as the
        # pages spell it: the local judge found no context sentence relevant to "licence"
        does = "do" if page.startswith("the ") and page.endswith("s") else "does"
        out.append(DocQuestion(f"Which license {does} {page} use?", lic, s, "licence",
                               lic.upper()))
    return out


def named_statement(claim: str, page: str) -> tuple[str, str, str] | None:
    """The claim as the statement rules can ask it about the page, the page's name as
    spelled in it, and the claim as the page writes it (the ground truth); ``None`` when the
    claim does not open with the page.

    * An opening self-reference becomes the page's name ("This project uses uv for
      dependency management." -> "Unstructured uses uv ..."). A page's "this project" is the
      page's subject (read over the bench folder: every one of them), unlike "it", which
      mostly refers to the sentence before.
    * A lowercase name opening the claim ("fsspec uses Black to ...") is capitalised for the
      rules, which take a lowercase first word for a common one; the question is spelled
      back ("What does fsspec use to ...?")."""
    if not page:
        return None
    for ref in SELF_REFERENCES:
        if claim.lower().startswith(ref + " "):
            name = page[:1].upper() + page[1:] if page.startswith("the ") else page
            return name + claim[len(ref):], _lowered(name), claim
    # the claim splitter capitalises a sentence's first letter ("Fsspec uses ...")
    if page[:1].islower() and " " not in page and claim.lower().startswith(page.lower() + " "):
        name = page[:1].upper() + page[1:]
        return name + claim[len(page):], name, page + claim[len(page):]
    return None


def _lowered(name: str) -> str:
    """The name as a question shows it inside a sentence ("the OpenAI Python API library")."""
    return name[:1].lower() + name[1:] if name.startswith("The ") else name
