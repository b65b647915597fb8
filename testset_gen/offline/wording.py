"""English wording the structure recipes share: a heading's verb in its base form, a list
joined into one sentence, a first letter lowered, "do" or "does" for a subject."""

from __future__ import annotations

import re
from typing import Sequence

PRONOUNS = frozenset("it its this these those they them their he she his her here".split())


def lower_first(text: str) -> str:
    """"Lay the footprint" -> "lay the footprint"; an acronym or a name stays ("HTTPX", "Click")."""
    first = text.split(" ", 1)[0]
    if len(first) > 1 and (first[1:].lower() != first[1:] or first.isupper()):
        return text
    return text[:1].lower() + text[1:]


def strip_end(text: str) -> str:
    return text.strip().rstrip(".;:,!").strip()


def joined(items: Sequence[str]) -> str:
    """"a, b and c" of the items (each without its final stop)."""
    parts = [strip_end(i) for i in items]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def does(subject: str) -> str:
    """The "do" a question puts before ``subject``: "does" for one thing, "do" for a plural
    ("refunds", "the Click docs") or "you"."""
    last = subject.split()[-1] if subject.split() else ""
    plural = subject.lower() == "you" or (last.endswith("s") and not last.endswith(("ss", "us", "is"))
                                          and last[:1].islower())
    return "do" if plural else "does"


def in_subject(subject: str, text: str) -> str:
    """" in Click" unless the text already names it."""
    if not subject:
        return ""
    core = subject[4:] if subject.lower().startswith("the ") else subject
    return "" if re.search(r"\b" + re.escape(core) + r"\b", text, re.I) else f" in {subject}"


def has_pronoun(question: str) -> bool:
    """A word that points at something the question does not name ("What does it use?")."""
    return any(w.lower() in PRONOUNS for w in re.findall(r"[A-Za-z]+", question)[1:])


def for_subject(subject: str, text: str) -> str:
    """" for the Ember Stove" (a product), " in Click" (software), unless the text names it."""
    said = in_subject(subject, text)
    return said.replace(" in the ", " for the ", 1) if said.startswith(" in the ") else said


def term_key(term: str) -> str:
    """One key for the ways a set writes one term ("a constant variable", "Constant
    variables", "the constant variable"): lower case, no article, the last word singular."""
    words = re.sub(r"^(?:the|a|an) ", "", term.strip().lower()).split()
    if not words:
        return ""
    last = words[-1]
    if last.endswith("ies") and len(last) > 4:
        last = last[:-3] + "y"
    elif last.endswith("s") and not last.endswith(("ss", "us", "is")) and len(last) > 3:
        last = last[:-1]
    return " ".join(words[:-1] + [last])
