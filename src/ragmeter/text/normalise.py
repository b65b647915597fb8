"""Normal forms of text for the local judge: one text normaliser, one entity normaliser.

Every comparison of words in ``ragmeter.judges.local`` goes through here, so two modules never
disagree on whether "The Eiffel Tower's" and "eiffel tower" are the same thing.

* ``normalise_text``: words only (NFKC, casefold, digit separators dropped, punctuation to
  spaces), for comparing and searching word strings;
* ``normalise_entity``: ``normalise_text`` without a leading article, for entity names;
* ``normalise_prose``: the same fold (NFKC, casefold, one apostrophe) but the punctuation
  that ends clauses kept, for the rules that cut an answer into clauses (hedges, critiques).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["DIGIT_SEPARATOR", "drop_digit_separators", "normalise_entity", "normalise_prose", "normalise_text", "same_word"]

_ARTICLES = re.compile(r"^(?:the|a|an)\s+")
DIGIT_SEPARATOR = re.compile(r"(?<=\d)[,\u00a0\u202f\u2009'](?=\d{3}\b)")
"""A thousands separator between digits ("1,000", "1 000", "1'000")."""
_NON_WORD = re.compile(r"[^\w\s]")
_SPACES = re.compile(r"\s+")
_MARKUP = re.compile(r"[*_#>|\[\]\"“”«»]+")
_BLANKS = re.compile(r"[ \t]+")


def _fold(text: str) -> str:
    """NFKC (full-width letters, ligatures to plain ones), casefold, curly apostrophe to "'"."""
    return unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")


def drop_digit_separators(text: str) -> str:
    """"1,000,000" -> "1000000" (also thin and no-break spaces and "'" between digit groups)."""
    return DIGIT_SEPARATOR.sub("", text)


def normalise_text(text: str) -> str:
    """NFKC, casefold, digit separators dropped, punctuation to spaces, spaces collapsed.

    The common ground on which entity strings are compared with each other and searched for
    in a passage.
    """
    text = _fold(text).replace("'s ", " ").replace("s' ", "s ")
    if text.endswith("'s"):
        text = text[:-2]
    text = drop_digit_separators(text)
    text = _NON_WORD.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


def normalise_entity(text: str) -> str:
    """An entity's comparable form: ``normalise_text`` without a leading article.

    "The Oberoi Group's" -> "oberoi group"; "1,000 Islands" -> "1000 islands".
    """
    return _ARTICLES.sub("", normalise_text(text))


def normalise_prose(text: str) -> str:
    """NFKC, casefold, every apostrophe and backtick as "'", markdown and quotes to spaces,
    spaces and tabs collapsed; sentence punctuation and line breaks kept (they cut clauses).
    """
    text = _fold(text).replace("\u2018", "'").replace("`", "'")
    text = _MARKUP.sub(" ", text)
    return _BLANKS.sub(" ", text).strip()


def same_word(a: str, b: str) -> bool:
    """Equal, or sharing a prefix of at least 4 letters that covers 80% of the shorter word
    and 60% of the longer.

    "german"/"germany", "physicist"/"physics", "american"/"america" match; "car"/"cart",
    "play"/"playwright", "france"/"french" do not. A cheap stand-in for stemming that also
    catches most demonyms.
    """
    if a == b:
        return True
    if len(a) < 4 or len(b) < 4 or a[:4] != b[:4]:
        return False
    common = 0
    for x, y in zip(a, b):
        if x != y:
            break
        common += 1
    return common >= 0.8 * min(len(a), len(b)) and common >= 0.6 * max(len(a), len(b))
