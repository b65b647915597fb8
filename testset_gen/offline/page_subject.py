"""What a documentation page is about: the package or product its sentences leave unnamed.

Documentation writes most facts without naming its subject: "You can enable logging by
setting an environment variable", "By default, the async client uses HTTPX2", "To test pull
requests, use sympy-bot". A question made from such a sentence makes sense to a reader who
has not seen the page only when it names the page's subject ("How can you enable logging in
the OpenAI Python API library?"). Page titles rarely name it (measured on the bench folder
``docs``: "Sponsors", "Compatibility", "Installation" head the FastAPI, Rich and Transformers
READMEs), so the name is found where documentation reliably writes it:

* the **file name** ("readme_openai.md", "rich.md"): a name written in the page whose
  letters and digits, lowercased, are the file name's ("OpenAI", "Sentence Transformers",
  "charset-normalizer"), at least ``MIN_MENTIONS`` times; the page's most frequent spelling;
* else a **short first title** (one or two words, no colon: "ragmeter", "SymPy") written at
  least ``MIN_MENTIONS`` times in the page;
* else, across a folder (``page_names``), the name of another page of the folder that this
  page writes at least ``FOLDER_MENTIONS`` times (the docs pages of one project: "ragmeter").

A title that starts with the name and ends with a kind of software ("OpenAI Python API
library", "LangSmith Client SDK") names it better than the bare name, which may be the
vendor's ("OpenAI"): "the OpenAI Python API library". A page with no such name has none, and
its unnamed sentences are asked nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import PurePath
from typing import Mapping

MIN_MENTIONS = 3
"""A file name or title word written fewer times is not what the page is about."""

FOLDER_MENTIONS = 5
PROJECT_PAGES = 3
"""A name written ``FOLDER_MENTIONS`` times on each of this many pages is the folder's
project ("ragmeter" on this project's docs pages); a page without a name of its own takes
it. Only that one name: "spaCy", written often on the local judge page, is not its subject."""

_SOFTWARE_KINDS = re.compile(r"^(?:(?:[A-Z][\w.-]*|Python|API) ){0,3}"
                             r"(?P<kind>library|Library|SDK|client|Client|toolkit|framework)$")
"""What a title may add after the name to say which of the vendor's things the page is."""

_WORD = re.compile(r"[A-Za-z][\w.-]*[A-Za-z0-9]|[A-Za-z]")


def _compact(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _prose(text: str) -> str:
    """The page without code blocks and link targets, where names are spelled as code."""
    text = re.sub(r"```.*?```|~~~.*?~~~", " ", text, flags=re.S)
    return re.sub(r"\]\([^)]*\)|https?://\S+", " ", text)


def _spellings(text: str, target: str) -> Counter[str]:
    """Runs of one to three words whose compact form is ``target``, counted as written."""
    found: Counter[str] = Counter()
    words = list(_WORD.finditer(text))
    for i in range(len(words)):
        for n in (1, 2, 3):
            if i + n > len(words):
                break
            run = words[i:i + n]
            if any(text[a.end():b.start()] != " " for a, b in zip(run, run[1:])):
                break
            surface = text[run[0].start():run[-1].end()].rstrip(".-")
            if _compact(surface) == target and "_" not in surface:
                found[surface] += 1
    return found


def _mentions(text: str, name: str) -> int:
    # not a file name ("report.html")
    return len(re.findall(r"(?<![\w.-])" + re.escape(name) + r"(?![\w-]|\.\w)", text))


def _common_noun(text: str, name: str) -> bool:
    """A lowercase word the page writes after an article ("the alignment", "a test set", "the report")
    in at least a fifth of its mentions: a topic, not a product (measured on this project's
    docs pages, named after their topic; "pandas", "attrs", "fsspec" never take one). A
    spelling with a capital is a name even after an article ("the LangSmith SDK")."""
    total = _mentions(text, name)
    articled = len(re.findall(r"\b(?:[Tt]he|[Aa]n?|[Tt]his|[Ee]ach|[Yy]our|[Oo]ur) "
                              + re.escape(name) + r"(?![\w-])", text))
    return total == 0 or articled * 5 >= total


def _abbreviation(text: str, name: str) -> bool:
    """A term's short form, defined where it is first written ("service level objectives
    (SLOs)"): an acronym of common words names a topic, not a product."""
    short = name[:-1] if name.endswith("s") and name[:-1].isupper() else name
    return bool(short.isupper() and re.search(r"\(" + re.escape(short) + r"s?\)", text))


def proper_name(text: str, name: str) -> bool:
    """Whether ``name`` is a name the page's prose writes as one: inside sentences (after a
    word or a comma) in that spelling in at least ``PROPER_SHARE`` of the places it is written
    there at all ("Use Rich" against "rich text"). A topic a file or title names ("Variables", "Performance
    testing") is written lowercase inside sentences ("you can set variables"); a capitalised
    acronym defined in brackets ("(SLO)") is a term; a lowercase phrase ("technical debt"), a
    word written after an article ("the logging"), or one neither written as code nor
    opening a sentence in lowercase ("metrics"; "fsspec uses Black" is a package's) is a
    topic."""
    core = name[4:] if name.lower().startswith("the ") else name
    words = re.sub(r" (?:library|client)$", "", core).split()
    if len(words) > 1 and words[0][:1].isupper() and any(w[:1].islower() for w in words[1:]):
        return False  # a heading in sentence case ("Inclusive language"), not a name
    prose = _prose(text)
    inside = re.findall(r"(?<=[A-Za-z0-9,;] )" + re.escape(core) + r"(?![\w-])", prose, re.I)
    if sum(m == core for m in inside) < PROPER_SHARE * len(inside) or _abbreviation(prose, core):
        return False
    if core == core.lower() and (" " in core or _common_noun(prose, core) or not (
            _in_code(text, core) or re.search(r"(?:^|[.!?]\s+)" + re.escape(core) + r"\b", prose, re.M))):
        return False
    return True


PROPER_SHARE = 0.5


def _in_code(text: str, name: str) -> bool:
    """Whether the page writes ``name`` in code (a fenced block or a code span)."""
    code = " ".join(re.findall(r"```.*?```|~~~.*?~~~|`[^`\n]+`", text, flags=re.S))
    return bool(re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", code))


def page_name(text: str, source: str = "", title: str = "") -> str:
    """The name of what the page documents, from its file name or a short title ("" when
    neither is written in it often enough)."""
    prose = _prose(text)
    stem = re.sub(r"^readme[_-]?|[_-]?readme$", "", PurePath(source).stem.lower()) if source else ""
    name = ""
    if stem:
        found = _spellings(prose, _compact(stem))
        if found and sum(found.values()) >= MIN_MENTIONS:
            # "Datasets" over "datasets": a spelling with a capital is a name, not a word
            cased = [s for s in sorted(found) if s != s.lower() and found[s] >= MIN_MENTIONS]
            name = max(cased or sorted(found), key=lambda s: found[s])
            if name == name.lower() and _common_noun(prose, name):
                name = ""
    title = title.strip()
    if not name and title and ":" not in title and 1 <= len(title.split()) <= 2 and re.fullmatch(
            r"[\w .-]+", title) and _mentions(prose, title) >= MIN_MENTIONS:
        name = title
    if not name:
        return ""
    rest = title[len(name):].strip() if title.lower().startswith(name.lower() + " ") else ""
    kind = _SOFTWARE_KINDS.match(rest) if rest else None
    if kind is not None:
        named = f"{title[:len(title) - len(kind.group('kind'))]}{kind.group('kind')}"
        if kind.group("kind") in ("Library", "Client"):
            named = named[:-len(kind.group("kind"))] + kind.group("kind").lower()
        return "the " + named
    return name


def page_names(pages: Mapping[str, tuple[str, str, str]]) -> dict[str, str]:
    """``page_name`` of every page (id -> (text, source, title)). A page with none, or with
    a lowercase one (its topic: "metrics"), or whose own it writes less often, takes the
    folder's project name (``PROJECT_PAGES``) when it writes it ``MIN_MENTIONS`` times."""
    found = {pid: page_name(*page) for pid, page in pages.items()}
    known = sorted({n for n in found.values() if n and not n.startswith("the ")})
    # code blocks count here: "ragmeter report" commands on the report page, "import
    # pandas" on the pandas page say which of the two the page is about
    counts = {pid: {n: _mentions(text, n) for n in known} for pid, (text, _, _) in pages.items()}
    # a project's name runs through its folder; a package's name through its own page and a
    # few others ("spaCy" is written more than "ragmeter" on the local judge page)
    spread = {n: sum(c[n] >= FOLDER_MENTIONS for c in counts.values()) for n in known}
    project = max(known, key=lambda n: spread[n], default="")
    if not project or spread[project] < PROJECT_PAGES:
        project = ""
    # a page's own name that is no name (a topic: "Variables", "metrics") is no place a
    # question can be "in"; the folder's project is, however it is spelled
    own = {pid: n if n and (n == project or proper_name(pages[pid][0], n)) else "" for pid, n in found.items()}
    out = dict(own)
    if not project:
        return out
    for pid in pages:
        mine = own[pid]
        # a lowercase file name ("metrics", "report") is the page's topic; a capitalised one
        # ("CI") yields to the project's name written more often
        if counts[pid][project] >= MIN_MENTIONS and (
                not mine or mine == mine.lower() or counts[pid][project] > _mentions(
                    pages[pid][0], mine)):
            out[pid] = project
    return out
