"""Text normalisation and tokenisation shared by the judge-free metrics.

Both start the same way: Unicode NFKC (full-width letters, ligatures and compatibility
forms become their plain equivalents: "ｆｉ" and "ﬁ" become "fi") and ``casefold`` (a
stronger ``lower`` that also maps "ß" to "ss"), so that text which reads the same compares
the same in every script, not only in English.

Then one rule for punctuation, shared by both functions so that every judge-free metric
agrees: a punctuation mark between two word characters is deleted ("U.S." -> "us",
"e-mail" -> "email", "O'Brien" -> "obrien", "1,631" -> "1631"), any other becomes a space
("Paris, France" -> "paris france"). Slashes and en/em dashes always separate ("and/or",
"1879–1955"): they join two words, not the parts of one. Before this rule tokenisation split
at every mark while exact match deleted them, so "U.S." matched "US" in exact match but
shared no token with it in token F1, BLEU and ROUGE-L.

``normalize_text`` is for whole-string comparison (exact match, string similarity):
whitespace collapsed. ``tokenize`` is for the bag-of-tokens and n-gram metrics (token F1,
BLEU, ROUGE-L): the words of the text.

No language-specific rules (no English article removal as in the SQuAD script, no
stemming): the same answer in any language is treated the same way.
"""

from __future__ import annotations

import unicodedata

__all__ = ["normalize_text", "tokenize"]


_ALWAYS_SEPARATE = frozenset("/\\\u2013\u2014\u2015\u2026")  # slash, backslash, en/em dashes, ellipsis


def _fold(text: str) -> str:
    """NFKC, casefold, and the punctuation rule of the module docstring."""
    text = unicodedata.normalize("NFKC", text).casefold()
    out: list[str] = []
    for i, ch in enumerate(text):
        if not unicodedata.category(ch).startswith("P"):
            out.append(ch)
        elif (
            ch not in _ALWAYS_SEPARATE
            and 0 < i < len(text) - 1
            and _is_word_char(text[i - 1])
            and _is_word_char(text[i + 1])
        ):
            continue  # inside a word: "U.S", "e-mail", "O'Brien", "1,631"
        else:
            out.append(" ")
    return "".join(out)


def normalize_text(text: str) -> str:
    """NFKC, casefold, punctuation folded (see the module docstring), whitespace collapsed.

    Punctuation is every character in a Unicode ``P*`` category (``.,;:!?'"-()[]``, the
    CJK "。、", the Spanish "¿¡"...); inside a word it is deleted, as in the SQuAD
    evaluation script ("U.S." and "US" agree), elsewhere it separates. Symbols (``$ + =
    °``...) are kept: "$5" and "5" do not mean the same thing. (Unicode counts "%", "#",
    "&" and "@" as punctuation.)

    Examples
    --------
    >>> normalize_text("  The  Eiffel-Tower!\\n")
    'the eiffeltower'
    >>> normalize_text("ＰＡＲＩＳ。")
    'paris'
    """
    return " ".join(_fold(text).split())


def _is_cjk(ch: str) -> bool:
    """Han ideographs, Hiragana and Katakana: scripts written without spaces between words."""
    cp = ord(ch)
    return (
        0x3040 <= cp <= 0x30FF  # Hiragana, Katakana
        or 0x31F0 <= cp <= 0x31FF  # Katakana phonetic extensions
        or 0x3400 <= cp <= 0x4DBF  # CJK Extension A
        or 0x4E00 <= cp <= 0x9FFF  # CJK Unified Ideographs
        or 0xF900 <= cp <= 0xFAFF  # CJK Compatibility Ideographs
        or 0x20000 <= cp <= 0x3FFFF  # CJK Extensions B and later
    )


def _is_word_char(ch: str) -> bool:
    # What ``\w`` matches (letters, numbers, "_") plus combining marks, which ``\w`` leaves
    # out and which would otherwise cut Hindi, Bengali, Tamil... words in pieces.
    return ch == "_" or unicodedata.category(ch)[0] in "LMN"


def tokenize(text: str) -> list[str]:
    """The word tokens of ``text`` after NFKC, casefold and the punctuation rule (so
    "U.S." is the one token "us", as exact match reads it).

    A token is a maximal run of letters, combining marks, digits and underscores, which is
    ``re.findall(r"\\w+", text)`` for most text, with two differences so that text in other
    languages works:

    - combining marks (Unicode ``M*``) belong to the word they sit on ("नमस्ते" is one token,
      where ``\\w+`` would cut it at each vowel sign);
    - each Han ideograph, Hiragana and Katakana character is a token of its own, since
      Chinese and Japanese put no spaces between words ("我爱巴黎" gives four tokens, and
      shares "我", "爱" with "我爱北京" instead of nothing).

    Examples
    --------
    >>> tokenize("Einstein's theory (1915), E=mc²!")
    ['einsteins', 'theory', '1915', 'e', 'mc2']
    >>> tokenize("巴黎是法国的首都")
    ['巴', '黎', '是', '法', '国', '的', '首', '都']
    """
    text = _fold(text)
    tokens: list[str] = []
    start = -1
    for i, ch in enumerate(text):
        if _is_cjk(ch):
            if start >= 0:
                tokens.append(text[start:i])
                start = -1
            tokens.append(ch)
        elif _is_word_char(ch):
            if start < 0:
                start = i
        elif start >= 0:
            tokens.append(text[start:i])
            start = -1
    if start >= 0:
        tokens.append(text[start:])
    return tokens
