"""The checks a structure question passes (``Candidate.structural``), each with the reason it
gives when it fails.

The statement rules (``record_filter.rule_reasons``) judge a question cut out of one
sentence: whether the cut left a clause, a pronoun, an answer in the question. A structure
question is written whole from a heading, a list or a table, so most of those rules do not
apply, and some misfire (measured on the hand-rated records: "How many houses were burnt in
the city of Kangpokpi?" failed ``unresolved_reference``). These are the failures a
structure question can still have:

* ``not_a_question``: no question mark, too short or too long to read, or an aside in it
  (brackets, quotes, ", which ...");
* ``unresolved_reference``: a pronoun the question does not resolve ("What does it use?");
* ``names_nothing``: no name or number after the first word, and fewer than two words
  that say what it is about ("What is the setting?"); "How do you return a product?"
  names enough;
* ``ground_truth_cut``: a ground truth that is not whole sentences;
* ``points_unnamed``: a ground truth that ends cut off ("... with a certain priority,
  e.g.", a colon with nothing after) or points at what it does not say ("please see
  here", "as shown below", "prefer project.readme over this setting" where no setting was
  named before);
* ``code_or_markup``: code in the question (a reader asks about behaviour, not syntax);
* ``answered_several_ways``: the folder gives the same question different ground truths
  ("What does HTTPX support?" on five pages): every one of them is dropped.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Iterable

from ragmeter.text.nlp import normalise_text
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.wording import has_pronoun

MAX_QUESTION_WORDS = 25
MAX_TRUTH_WORDS = 150
_CODE = re.compile(r"[`{}<>=\[\]]|\w\(|\(\)|::|\w\.\w+\.\w|\w_\w|(?:^|\s)--\w")
_ASIDE = re.compile(r"[()\"“”;]|, (?:which|who|whose|where) ")
"""An aside a reader must skip to find the question ("When was the draft, which is officially
referred to as ..., held?")."""
_WHOLE = re.compile(r"^[A-Z0-9\"'“(].*[.!?][\"'”’)]?$", re.S)


FUNCTION_WORDS = frozenset("""what which who whom whose when where why how is are was were do does did
can could should would will you your a an the of in on at to for with by from and or its it this
that these those there be been being have has had many much long""".split())


def content_words(question: str) -> list[str]:
    """The words that say what a question is about ("return", "product")."""
    return [w for w in re.findall(r"[A-Za-z][\w'-]+", question.lower()) if w not in FUNCTION_WORDS]


_CUT_OFF = re.compile(r"(?:\b(?:e\.g|i\.e|etc|cf|viz)\.|[:,;])\s*$", re.I)
_POINTS_AWAY = re.compile(r"(?i)\b(?:see|click|found|listed|shown|described|explained|read more) (?:it )?"
                          r"(?:here|below|above|there)\b|\b(?:as follows|the following)[.:]?\s*$")
_DEMONSTRATIVE = re.compile(r"(?i)\b(?:over|to|in|of|for|with|on|from|by|use|see|set|run|than) "
                            r"(?:this|these|those) ([a-z]+)")
"""A demonstrative as an object ("over this setting"), where it points at a thing; "This
will help ..." opening a sentence points at the one before it, which the answer holds."""


def points_unnamed(truth: str) -> bool:
    """Whether a ground truth ends cut off or points at what it does not name: "see here",
    or "this <noun>" whose noun the ground truth has not written before (the section's
    heading said it, the answer does not)."""
    text = truth.strip()
    if _CUT_OFF.search(text) or _POINTS_AWAY.search(text):
        return True
    for m in _DEMONSTRATIVE.finditer(text):
        stem = m.group(1).lower().rstrip("s")
        if len(stem) > 2 and stem not in text[:m.start()].lower():
            return True
    return False


def structure_reasons(c: Candidate) -> list[str]:
    q = c.question.strip()
    words = re.findall(r"[\w'-]+", q)
    reasons = []
    if (not q.endswith("?") or q.count("?") != 1 or not 3 <= len(words) <= MAX_QUESTION_WORDS
            or _ASIDE.search(q)):
        reasons.append("not_a_question")
    if has_pronoun(q):
        reasons.append("unresolved_reference")
    if not re.search(r"[A-Z0-9]", q[1:]) and len(content_words(q)) < 2:
        reasons.append("names_nothing")
    if not _WHOLE.match(c.ground_truth.strip()) or len(c.ground_truth.split()) > MAX_TRUTH_WORDS:
        reasons.append("ground_truth_cut")
    if points_unnamed(c.ground_truth):
        reasons.append("points_unnamed")
    if _CODE.search(q):
        reasons.append("code_or_markup")
    return reasons


def answered_several_ways(candidates: Iterable[Candidate]) -> set[str]:
    """Questions (as written) that the candidates give more than one ground truth for."""
    truths: dict[str, set[str]] = defaultdict(set)
    asked: dict[str, set[str]] = defaultdict(set)
    for c in candidates:
        key = normalise_text(c.question)
        truths[key].add(normalise_text(c.ground_truth))
        asked[key].add(c.question)
    return {q for key, qs in asked.items() if len(truths[key]) > 1 for q in qs}
