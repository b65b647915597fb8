"""Follow-ups that refer back to the previous turn's topic: the rewordings a chat about one
documentation page needs.

Documentation questions rarely write a named subject ("How do you add a dependency to a
group in Poetry?"): they ask about the project as a whole or about a section's topic, which
the offline generator keeps in the record's metadata (``heading`` for a section question,
``term`` for a definition). So a follow-up on the same page leans on the turn before by
what the two questions share in their structure:

* two questions of one section template ("How do you <heading>?", "What are <heading>?")
  differ in their heading only: "And what about deleting the environments?"
  (``heading_what_about``);
* two questions of one frame that differ in the condition they ask about ("What should you
  do if X?", "What should you do before Y?"): "And before Y?" (``and_condition``);
* the previous turn's topic written again in the follow-up: a pronoun in its place, "them"
  for "the environments", "one of them" for "a group" after "optional groups"
  (``topic_pronoun``).

Each returns None unless the rewording is grammatical by these rules and its antecedent is
the previous turn's topic; the caller then keeps the standalone wording.
"""

from __future__ import annotations

import re

from testset_gen.record import TestsetRecord

SECTION_TEMPLATES = frozenset({"structure:section_how", "structure:section_what"})
"""Templates whose question is a frame around the section's heading."""

_SUBORDINATORS = frozenset({"if", "when", "before", "after", "once", "while", "unless"})
_AUXILIARIES = frozenset("is are was were do does did can could should will would has have must may".split())
_ARTICLES = frozenset({"the", "a", "an"})
_CUT_AT = frozenset("in of with for about to by from on at into under over that which who associated using "
                    "and or".split())
_PRONOUN_FORMS = {False: ("it", "it"), True: ("they", "them")}


def _lower_first(text: str) -> str:
    """The heading as it reads mid-sentence: "Deleting the environments" -> "deleting the
    environments"; a name spelled as one ("PyPI", "CHAOSS") keeps its case."""
    first, _, rest = text.partition(" ")
    if re.search(r"[A-Z].*[A-Z]|\d", first):
        return text
    return (first[:1].lower() + first[1:] + (" " + rest if rest else "")).strip()


def record_topic(record: TestsetRecord) -> str:
    """What the record's question is about, as its structure names it: the section's heading
    or the defined term; "" when the metadata names neither."""
    meta = record.metadata
    return str(meta.get("heading") or meta.get("term") or "").strip()


def heading_what_about(previous: TestsetRecord, record: TestsetRecord) -> str | None:
    """"And what about <the other heading>?" when both questions are one section template
    around different headings: the frame of the turn before is re-aimed at another section.
    A task heading is a gerund phrase ("Removing a specific setting"), a thing heading a noun
    phrase, so either reads after "what about"."""
    template = str(record.metadata.get("template") or "")
    if template not in SECTION_TEMPLATES or previous.metadata.get("template") != template:
        return None
    before, heading = str(previous.metadata.get("heading") or ""), str(record.metadata.get("heading") or "")
    if not heading or not before or heading.lower() == before.lower():
        return None
    if template == "structure:section_how" and not heading.split()[0].lower().endswith("ing"):
        return None  # "How do you <verb> ..." from a heading not written as a gerund: no "what about" form
    if heading.lower().rstrip("?") not in record.question.lower() and not _gerund_asked(heading, record.question):
        return None  # the question does not ask about the heading as written: the frame differs
    return f"And what about {_lower_first(heading).rstrip('?.')}?"


def _gerund_asked(heading: str, question: str) -> bool:
    """Whether "How do you add a dependency ..." asks the heading "Adding a dependency ...":
    the words after the gerund are in the question."""
    rest = heading.split()[1:]
    return bool(rest) and " ".join(rest).lower() in question.lower()


def and_condition(previous: str, question: str) -> str | None:
    """"And if Y?" when ``question`` asks what ``previous`` asks under another condition:
    the same opening of at least three words, then a subordinator ("if", "when", "before")
    and a different clause."""
    a, b = previous.rstrip("?").split(), question.rstrip("?").split()
    for i, word in enumerate(b):
        if word.lower() in _SUBORDINATORS:
            break
    else:
        return None
    if i < 3 or len(a) <= i or [w.lower() for w in a[:i]] != [w.lower() for w in b[:i]]:
        return None
    if a[i].lower() not in _SUBORDINATORS:
        return None  # the turn before asked something else after the shared words
    clause = b[i + 1:]
    if len(clause) < 2 or [w.lower() for w in clause] == [w.lower() for w in a[i + 1:]]:
        return None
    return f"And {b[i].lower()} {' '.join(clause)}?"


def _topic_phrase(topic: str) -> list[str]:
    """The noun phrase of a topic: a task heading's object ("Listing the environments
    associated with the project" -> "the environments"), a thing heading itself up to a
    preposition ("Optional groups")."""
    words = topic.rstrip("?.").split()
    if words and words[0].lower().endswith("ing") and len(words) > 1:
        words = words[1:]
    out: list[str] = []
    for w in words:
        if out and w.lower() in _CUT_AT:
            break
        out.append(w)
    return out


def _plural(noun: str) -> bool:
    n = noun.lower()
    return n.endswith("s") and not n.endswith(("ss", "us", "is"))


def topic_pronoun(previous: TestsetRecord, question: str) -> str | None:
    """``question`` with the previous turn's topic replaced by a pronoun: "How do you delete
    the environments in Poetry?" after "How do you list the environments ...?" -> "How do
    you delete them in Poetry?"; "a group" after "optional groups" -> "one of them". None
    when the question does not write the topic's noun phrase (its head noun, with its
    article or the whole phrase) or the replacement would open the question."""
    phrase = _topic_phrase(record_topic(previous))
    if not phrase or not re.fullmatch(r"[A-Za-z][\w-]*", phrase[-1]):
        return None
    head = phrase[-1]
    plural = _plural(head)
    singular = head[:-1] if plural else head
    body = [w for w in phrase if w.lower() not in _ARTICLES]
    spelled = r"\s+".join(re.escape(w) for w in body)
    patterns: list[tuple[str, bool | None]] = [(rf"\b(?:the\s+|a\s+|an\s+)?{spelled}\b", plural)]
    if plural:  # "a group" after "optional groups": one of them
        patterns.append((rf"\b(?:a|an)\s+{re.escape(singular)}\b", None))
    patterns.append((rf"\bthe\s+{re.escape(head)}\b", plural))
    for pattern, many in patterns:
        m = re.search(pattern, question, re.I)
        if m is None or m.start() == 0:
            continue
        before = question[:m.start()].split()
        previous_word = before[-1].lower() if before else ""
        if previous_word in ("and", "or", "between"):
            return None  # "the difference between mutable variables and it": a pronoun cannot be coordinated so
        if many is None:
            pronoun = "one of them"
        else:
            subject = previous_word in _AUXILIARIES  # "Does it ...", "Are they ..."
            pronoun = _PRONOUN_FORMS[many][0 if subject else 1]
        out = question[:m.start()] + pronoun + question[m.end():]
        if re.search(rf"\b{re.escape(head)}\b", out, re.I) or len(out.rstrip("?").split()) < 4:
            return None  # the topic is still written elsewhere, or too little is left to ask
        return out
    return None
