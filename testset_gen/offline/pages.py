"""A document read for the structure recipes: its sections, what it is about, and which chunk
holds each of its sentences.

The structure recipes (``recipes/sections.py``, ``definitions.py``, ``lists.py``,
``tables.py``, ``steps.py``, ``quantities.py``, ``shared_entities.py``, ``comparisons.py``)
ask about a page's headings, lists and tables, so they read whole documents, not chunks; a
question's reference context is still the chunk that holds its answer.

What a page is about (``Page.subject``) is what every question from it names: the name the
documentation patterns found (``page_subject.page_names``: "Click" on each page of the
Click docs), else the page's title when the page writes it (the longest leading part of the
title written in the body: "Trailhead 2" of "Trailhead 2 Tent"), else nothing, and then a
question must name its subject itself.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Mapping, Sequence

from testset_gen.documents.sentence_split import sentence_spans
from testset_gen.documents.structure import Block, Section, sections_of
from testset_gen.graph.knowledge_graph import KnowledgeGraph
from testset_gen.offline.page_subject import proper_name

_SHORTCODE = re.compile(r"\{\{[%<].*?[%>]\}\}")
_TERMINAL = re.compile(r"[.!?][\"'”’)\]]*$")


@dataclass
class Page:
    """One document: ``sections`` (``documents.structure``), ``subject`` (what its questions
    name, with its article: "the Ember Stove", "Click"; "" when unknown), ``chunks``:
    ``(start, end, chunk id)`` in reading order."""

    document_id: str
    text: str
    title: str
    subject: str
    sections: list[Section]
    chunks: list[tuple[int, int, str]] = field(default_factory=list)

    def chunk_for(self, start: int, end: int) -> str | None:
        """The first chunk that holds ``text[start:end]`` whole (None: cut between chunks)."""
        for a, b, cid in self.chunks:
            if a <= start and end <= b:
                return cid
        return None

    def sentences(self, block: Block) -> list[tuple[str, int, int]]:
        """The whole sentences of a paragraph block: ``(text, start, end)`` in the page."""
        return [(sentence, block.start + a, block.start + b)
                for sentence, a, b in _split(self.text[block.start:block.end])]


@lru_cache(maxsize=8192)
def _split(raw: str) -> tuple[tuple[str, int, int], ...]:
    """A block's sentences, offsets within the block. Cached by the block's text: the structure
    and the guide-prose recipes ask for the same blocks' sentences several times each."""
    out = []
    for a, b in sentence_spans(raw):
        # a site generator's shortcode ("{{% note %}}") is markup around the sentence
        sentence = " ".join(_SHORTCODE.sub(" ", raw[a:b]).split())
        if sentence:
            out.append((sentence, a, b))
    return tuple(out)


def whole_sentence(text: str) -> bool:
    """A sentence as a reader would quote it: a capital or digit first, a full stop (or ! ?)
    last, no line of code in it."""
    return bool(text) and (text[0].isupper() or text[0].isdigit()) and bool(
        _TERMINAL.search(text)) and "```" not in text and not text.startswith((">>>", "$ "))


def _with_article(name: str, body: str) -> str:
    """"the Ember Stove" when the page writes "the Ember Stove" more often than the bare name
    at a sentence start or after a verb ("Ember Stove is ..."); names of software stand
    bare ("Click")."""
    with_the = len(re.findall(r"\b[Tt]he " + re.escape(name) + r"\b", body))
    bare = len(re.findall(r"(?<![Tt]he )\b" + re.escape(name) + r"\b", body))
    return f"the {name}" if with_the > bare / 2 and with_the else name


def title_subject(title: str, prose: str) -> str:
    """The longest leading part of ``title`` (every word of it capitalised or a number) that
    the page's prose writes inside a sentence, case and all ("the Ember Stove is ..."): a
    name. A topic title ("Options") is written capitalised only at a sentence's start."""
    words = title.split()
    for n in range(len(words), 0, -1):
        head = " ".join(words[:n])
        if not all(w[:1].isupper() or w[:1].isdigit() for w in words[:n]):
            continue
        # not the start of a longer name: "Acme" of "the Acme Shop" is not "Acme Returns"
        if re.search(r"(?<=[A-Za-z0-9,;] )" + re.escape(head) + r"(?![\w-]| [A-Z0-9])", prose):
            return head
    return ""


FOLDER_SHARE = 0.4
"""A name written inside sentences, at least ``MIN_FOLDER_MENTIONS`` times, on this share of a
folder's pages (and in a page's title) is what the folder documents ("Click" in its docs:
written so on 17 of its 34 pages at least three times, on more at least twice)."""
MIN_FOLDER_MENTIONS = 2
TITLE_SHARE = 0.1


def folder_subject(prose: Mapping[str, str], titles: Mapping[str, str],
                   own: Mapping[str, str] | None = None) -> str:
    """The name a folder's pages are all about, or "" (fewer than three pages, or none, or a
    collection: more than two thirds of the pages have a name of their own, ``own``
    (``page_names``), as a folder of READMEs has, where "Python" is written on most pages and
    is the subject of none; 16 of the 34 Click docs pages have one, a topic: "Options")."""
    if len(prose) < 3 or sum(bool(n) for n in (own or {}).values()) * 3 > 2 * len(prose):
        return ""

    spread: Counter[str] = Counter()
    for text in prose.values():
        counts = Counter(re.findall(r"(?<=[a-z,] )([A-Z][A-Za-z0-9-]+)\b", text))
        spread.update(n for n, k in counts.items() if k >= MIN_FOLDER_MENTIONS)
    # and in the titles of a tenth of the pages ("Extending Click", "Why Click?"): "Python" is
    # written on most pages of a folder of READMEs and is the subject of few of their titles
    # A page's headings and its first sentence say what it is about as its title does
    # ("How Nushell Code Gets Run", "## Nushell's Environment", "Nu is ...").
    # Each page's title and headlines, read once: every candidate name is looked for in them.
    about = [titles.get(d, "") + "\n" + _headlines(prose.get(d, "")) for d in set(titles) | set(prose)]

    def titled(n: str) -> int:
        return sum(bool(re.search(r"\b" + re.escape(n) + r"\b", text)) for text in about)
    # or defined by the folder ("Poetry is a tool for dependency management ..."): a
    # project's docs say once what it is, and may title no page with its name (Poetry's
    # 15 pages: "Basic usage", "Repositories", ...); "Python is a ..." no README writes
    def defined(n: str) -> bool:
        return any(re.search(r"(?:^|[.!?]\s+|\n)" + re.escape(n) + r" is (?:a|an) ", text) for text in prose.values())
    best = [n for n, k in spread.most_common() if k >= FOLDER_SHARE * len(prose)
            and (titled(n) >= max(1, TITLE_SHARE * len(titles)) or defined(n))]
    return best[0] if best else ""


def _headlines(text: str) -> str:
    """A page's headings (a line of up to ten words without a sentence's end, with or
    without its markdown marks) and its first sentence of prose."""
    lines = [ln.strip().lstrip("#").strip() for ln in re.sub(r"(?s)^---\n.*?\n---\n", "", text).split("\n")]
    heads = [ln for ln in lines if ln and len(ln.split()) <= 10 and ln[-1:].isalnum()]
    first = next((ln for ln in lines if ln[:1].isalpha() and ln[-1:] in ".!?"), "")
    return "\n".join(heads + [first.split(". ")[0]])


def graph_subject(graph: KnowledgeGraph, names: Mapping[str, str] | None = None) -> str:
    """``folder_subject`` of every document of the graph; ``names``: ``page_names``."""
    every = graph.document_ids()
    texts = {d: str(graph.node(d).get("text", "")) for d in every}
    # a document given as text has no title field: its first line is its title
    return folder_subject(texts, {d: str(graph.node(d).get("title") or "") or texts[d].lstrip("# ").split("\n", 1)[0]
                                  for d in every}, names)


def read_pages(graph: KnowledgeGraph, names: Mapping[str, str],
               document_ids: Sequence[str] | None = None, project: str | None = None) -> list[Page]:
    """The pages of ``document_ids`` (default: all), with their chunks and subjects;
    ``names``: document id -> what it documents (``page_names``); ``project``: the folder's
    subject (``graph_subject``, computed when not given)."""
    project = graph_subject(graph, names) if project is None else project
    chunks: dict[str, list[tuple[int, int, str]]] = {}
    for cid in graph.chunk_ids():
        node = graph.node(cid)
        chunks.setdefault(str(node.get("document_id", "")), []).append(
            (int(node.get("start", 0)), int(node.get("end", 0)), cid))
    read = []
    for doc_id in document_ids if document_ids is not None else graph.document_ids():
        node = graph.node(doc_id)
        text = str(node.get("text", ""))
        labels = (node.get("metadata") or {}).get("blocks")
        sections = sections_of(text, labels, title=str(node.get("title") or ""))
        title = sections[0].title if sections else str(node.get("title") or "")
        prose = "\n".join(text[b.start:b.end] for s in sections for b in s.paragraphs())
        read.append((doc_id, text, title, sections, prose))

    # a name ``page_names`` gave to many pages as their folder's project, which is not the
    # folder's project here ("Python" across a folder of READMEs), names none of them
    given = Counter(n for n in names.values() if n)
    out = []
    for doc_id, text, title, sections, prose in read:
        named, titled = names.get(doc_id, ""), title_subject(title, prose)
        # a title's words ("Disaster Recovery", "Threat Modelling") name the page's topic
        # unless its prose writes them as a name: a place no question can be "in"
        titled = titled if titled and proper_name(text, titled) else ""
        named, titled = ("" if n and given[n] >= 3 and n != project else n for n in (named, titled))
        if project and project.lower() in text.lower():
            # a plain word or phrase from the file name or the title ("commands", "entry
            # points", "Options", "Prompts") is the page's topic within the folder's project;
            # a name spelled as one ("FastAPI", "urllib3") stays
            named, titled = (n if re.search(r"\w[A-Z]|\d", n) and len(n) > 3 else "" for n in (named, titled))
        # the title's name when it holds the one found in the file name ("Stove" of stove.md
        # is the "Ember Stove" of the title)
        name = titled if titled and (not named or named.lower() in titled.lower()) else named
        subject = (_with_article(name, prose) if name and not name.lower().startswith("the ")
                   else name) or project
        out.append(Page(doc_id, text, title, subject, sections, sorted(chunks.get(doc_id, []))))
    return out
