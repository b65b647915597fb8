"""Extraction clean-up: the text of a parsed block as a reader would see it.

Parsers hand over text with traces of its source format, and each trace became a broken
question in the offline generator's output:

* **Escape sequences**: Markdown escapes survive extraction (``Imphal\\'s``, ``\\*``,
  ``\\_``); they are unescaped.
* **Glued sentences**: text assembled from several sources without a space after the full
  stop ("...The Oberoi Group.The Oberoi Group is...", as in HaluEval's passages) reads as
  one sentence to the splitter; a space is put back.
* **Headings glued onto a paragraph**: a plain-text or DOCX heading on the line above its
  paragraph comes out as one block ("Release\\nGaucho Americano had its premiere...") and the
  heading became part of the subject ("What did Release Gaucho Americano have?"). A short
  first line with no end punctuation followed by a paragraph is split off as its own block.
* **Navigation text**: menus, breadcrumbs, "Skip to content", "Share on Facebook", cookie
  and copyright lines of a saved web page are dropped.

Tables are not flattened into sentences: ``file_readers`` renders them as pipe rows
("| a | b |"), which the chunker keeps as they are and the question rules never read.
"""

from __future__ import annotations

import re

_ESCAPE = re.compile(r"\\([\\'\"`*_{}\[\]()#+\-.!|<>~])")
_GLUED = re.compile(r"(?<=[a-z0-9)\]\"'])\.(?=[A-Z][a-z])")
_NAVIGATION = re.compile(
    r"^(?:skip to (?:main )?content|jump to (?:navigation|search)|back to top|main menu|"
    r"toggle navigation|share (?:on|this)\b.*|follow us\b.*|sign in|log ?in|sign up|subscribe\b.*|"
    r"(?:accept|manage) cookies\b.*|this (?:site|website) uses cookies\b.*|"
    r"all rights reserved\.?|copyright\b.*|©.*|privacy policy|terms of (?:use|service)|"
    r"home|menu|search|previous|next|read more|related articles?)$", re.I)
_MENU_SEPARATORS = re.compile(r"\s(?:\||»|›|>|·|/)\s")


def unescape(text: str) -> str:
    r"""``Imphal\'s`` -> ``Imphal's``: Markdown backslash escapes removed."""
    return _ESCAPE.sub(r"\1", text)


def unglue_sentences(text: str) -> str:
    """"Group.The Group" -> "Group. The Group": a missing space after a full stop."""
    return _GLUED.sub(". ", text)


def is_navigation(text: str) -> bool:
    """A menu, breadcrumb or page-furniture line rather than content."""
    line = " ".join(text.split())
    if _NAVIGATION.match(line):
        return True
    words = line.split()
    parts = _MENU_SEPARATORS.split(line)
    # "Home | News | Sport | Weather": short items between separators, no sentence
    return (len(parts) >= 3 and len(words) <= 4 * len(parts)
            and not re.search(r"[.!?]$", line) and all(len(p.split()) <= 4 for p in parts))


def split_heading(text: str) -> list[str]:
    """A block whose first line is a heading (at most 8 words, no end punctuation, the rest
    a paragraph of sentences) as two blocks; any other block unchanged."""
    first, newline, rest = text.partition("\n")
    rest = rest.strip()
    if (not newline or not rest or len(first.split()) > 8 or re.search(r"[.!?:;,]$", first.strip())
            or not re.search(r"[.!?]$", rest) or len(rest.split()) < 2 * len(first.split())):
        return [text]
    return [first.strip(), rest]


def separate_headings(raw: str) -> str:
    """Plain text with a blank line after each heading line (at most 8 words, no end
    punctuation, at the start or after a blank line, followed by a longer line), so that the
    text reader, which joins wrapped lines, keeps the heading out of the paragraph."""
    lines = raw.splitlines()
    out: list[str] = []
    for i, line in enumerate(lines):
        out.append(line)
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        prev_blank = i == 0 or not lines[i - 1].strip()
        if (line.strip() and prev_blank and nxt.strip() and len(line.split()) <= 8
                and not re.search(r"[.!?:;,]$", line.strip())
                and len(nxt.split()) > len(line.split())):
            out.append("")
    return "\n".join(out)


def clean_block(text: str, category: str = "") -> list[str]:
    """The block's cleaned text, as zero (navigation), one or two (heading split off)
    blocks. Tables and code are returned as they are: their characters are their content."""
    if category in ("Table", "CodeSnippet", "Formula"):
        return [text]
    text = unglue_sentences(unescape(text)).strip()
    if not text or is_navigation(text):
        return []
    return [b for b in split_heading(text) if b]
