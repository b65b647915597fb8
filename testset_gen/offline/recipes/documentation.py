"""Documentation pages' patterns: "How can you X in Y?", a Python floor asked about another
version, a cause the page gives, and two pages' licences or floors compared."""

from __future__ import annotations

import random
import re
from typing import Sequence
from ragmeter.text.nlp import normalise_text
from testset_gen.offline.doc_questions import DocQuestion, python_support
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.chunk_reading import ChunkQuestions, source_sentence


def documentation_questions(cq: ChunkQuestions) -> list[Candidate]:
    """The documentation patterns' questions ("How can you enable logging in the OpenAI
    Python API library?"): simple, the sentence as ground truth, the page's name in the
    metadata (the filter reads it as a known name, not one the sentence must write). Two
    kinds are reasoning, each with the derivation the filter checks: a cause the page gives
    ("Why is the context manager required in ...?", ``derived="cause"``) and a stated
    Python floor asked about another version ("Can you use Rich with Python 3.7?" - "No.
    Rich requires Python 3.8 or later.", ``derived="python_support"``)."""
    out = []
    for q in cq.documentation:
        source = source_sentence(q.statement, cq.sentences)
        kind, derived = (("reasoning", q.template) if q.template in ("cause", "consequence")
                         else ("simple", ""))
        supports = python_support(q, cq.page)
        if not supports:  # a floor is asked about a version beside it, not as written
            out.append(Candidate(kind, q.text, q.statement, (cq.chunk_id,), (
                ("answer", q.answer), ("wh", q.text.split()[0].lower()), ("template", f"doc:{q.template}"),
                ("page", cq.page), ("source_sentences", [source])), derived=derived))
        for s in supports:
            out.append(Candidate("reasoning", s.text, s.statement, (cq.chunk_id,), (
                ("answer", s.answer), ("asked_version", s.fact), ("template", "doc:python_support"),
                ("page", cq.page), ("source_sentences", [source])), derived="python_support"))
    return out


def page_facts(chunks: Sequence[ChunkQuestions], kind: str) -> list[tuple[DocQuestion, ChunkQuestions]]:
    """One fact of ``kind`` ("licence", "python") per page, the first read."""
    seen: dict[str, tuple[DocQuestion, ChunkQuestions]] = {}
    for cq in chunks:
        for q in cq.documentation:
            if q.template == kind and cq.page not in seen:
                seen[cq.page] = (q, cq)
    return [seen[p] for p in sorted(seen)]


COMPARED_LICENCES = frozenset({"MIT", "BSD", "APACHE", "ISC"})


LICENCE_NAMES = re.compile(r"\b(?:MIT|BSD|APACHE|ISC|GPL|LGPL|AGPL|MPL|PSF|UNLICENSE)\b")


def page_comparisons(chunks: Sequence[ChunkQuestions], rng: random.Random) -> list[Candidate]:
    """multi_context questions over two pages' facts of one kind, each fact used once:
    "Which license do FastAPI and RapidFuzz both use?" (the same licence stated
    on each page), "Which uses the MIT license: FastAPI or Transformers?" (two different
    licences) and "Which requires a newer Python version: IDNA or Rich?" (two stated
    minimum versions). Neither page answers alone."""
    out: list[Candidate] = []
    licences = page_facts(chunks, "licence")
    rng.shuffle(licences)
    used: set[str] = set()
    for i, (a, ca) in enumerate(licences):
        for b, cb in licences[i + 1:]:
            if (a.fact != b.fact or ca.page in used or cb.page in used
                    or a.statement == b.statement):
                continue
            used.update((ca.page, cb.page))
            first, second = sorted(((a, ca), (b, cb)), key=lambda p: p[1].page.lower())
            names = (first[1].page, second[1].page)
            out.append(Candidate(
                "multi_context", f"Which license do {names[0]} and {names[1]} both use?",
                f"{first[0].statement} {second[0].statement}", (first[1].chunk_id, second[1].chunk_id), (
                    ("answer", first[0].answer), ("template", "doc:shared_licence"),
                    ("page", names[0]), ("pages", list(names)),
                    ("source_sentences", [first[0].statement, second[0].statement]))))
            break
    # "Which uses the MIT license: FastAPI or Transformers?": two pages stating different
    # licences, each the only licence its sentence names (a "MIT or Apache-2.0" dual licence
    # is not one of two)
    single = [(q, cq) for q, cq in licences if q.fact in COMPARED_LICENCES
              and len(set(LICENCE_NAMES.findall(q.statement.upper()))) == 1]
    used.clear()
    for i, (a, ca) in enumerate(single):
        for b, cb in single[i + 1:]:
            if a.fact == b.fact or ca.page in used or cb.page in used:
                continue
            used.update((ca.page, cb.page))
            (one, c1), (two, c2) = (a, ca), (b, cb)
            page_a, page_b = sorted((c1.page, c2.page), key=str.lower)
            named = c1.page[:1].upper() + c1.page[1:]
            out.append(Candidate(
                "multi_context", f"Which uses the {one.answer} license: {page_a} or {page_b}?",
                f"{named}. {one.statement} {two.statement}", (c1.chunk_id, c2.chunk_id), (
                    ("answer", c1.page), ("template", "doc:which_licence"), ("page", c1.page),
                    ("pages", [page_a, page_b]), ("source_sentences", [one.statement, two.statement])),
                derived="which_licence"))
            break
    out += shared_facts(chunks, rng)
    pythons = page_facts(chunks, "python")
    rng.shuffle(pythons)
    used.clear()
    for i, (a, ca) in enumerate(pythons):
        for b, cb in pythons[i + 1:]:
            if ca.page in used or cb.page in used:
                continue
            used.update((ca.page, cb.page))
            (new, cn), (old, co) = sorted(((a, ca), (b, cb)), key=lambda p: tuple(
                int(x) for x in p[0].fact.split(".")), reverse=True)
            in_order = sorted((cn.page, co.page), key=str.lower)
            out.append(Candidate(
                "multi_context", "What is the oldest Python version that works with both "
                f"{in_order[0]} and {in_order[1]}?",
                f"Python {new.fact}. {new.statement} {old.statement}", (cn.chunk_id, co.chunk_id), (
                    ("answer", f"Python {new.fact}"), ("template", "doc:oldest_python"),
                    ("page", in_order[0]), ("pages", in_order),
                    ("source_sentences", [new.statement, old.statement])),
                derived="oldest_python"))
            break
    used.clear()
    for i, (a, ca) in enumerate(pythons):
        for b, cb in pythons[i + 1:]:
            va, vb = (tuple(int(x) for x in q.fact.split(".")) for q in (a, b))
            if va == vb or ca.page in used or cb.page in used:
                continue
            used.update((ca.page, cb.page))
            (new, cn), (old, co) = sorted(((a, ca), (b, cb)), key=lambda p: tuple(
                int(x) for x in p[0].fact.split(".")), reverse=True)
            in_order = sorted((cn.page, co.page), key=str.lower)  # alphabetical: the order says nothing
            named = cn.page[:1].upper() + cn.page[1:]
            # the answer first: a page's sentence says "This library", not its name
            out.append(Candidate(
                "multi_context", "Which requires a newer Python version: "
                f"{in_order[0]} or {in_order[1]}?",
                f"{named}. {new.statement} {old.statement}", (cn.chunk_id, co.chunk_id), (
                    ("answer", cn.page), ("template", "doc:newer_python"), ("page", cn.page),
                    ("pages", in_order), ("source_sentences", [new.statement, old.statement])),
                derived="newer_python"))
            break
    return out


SHARED_TEMPLATES = frozenset({"to_use", "use_to", "how_can", "to_do", "default", "cause",
                              "lets_you", "used_for"})
"""Documentation questions whose answer two pages can state alike ("To report a security
vulnerability, please use the Tidelift security contact." on AnyIO's, urllib3's and
websockets' READMEs); licences and Python floors are compared by their own templates."""


def shared_facts(chunks: Sequence[ChunkQuestions], rng: random.Random) -> list[Candidate]:
    """"What do you use to report a security vulnerability in both AnyIO and urllib3?":
    one documentation question asked of two pages whose sentences give the same answer; a
    multi_context record that needs both (each page states it of itself only). The
    question must end with "in <page>?" so that "in both A and B?" replaces it; each page
    serves one such record. Ground truth: the two sentences (once when the pages write the
    same sentence)."""
    groups: dict[tuple[str, str, str], list[tuple[DocQuestion, ChunkQuestions]]] = {}
    for cq in chunks:
        for q in cq.documentation:
            tail = f" in {cq.page}?"
            if q.template in SHARED_TEMPLATES and q.text.endswith(tail):
                key = (q.template, q.text[:-len(tail)], normalise_text(q.answer))
                if all(other.page != cq.page for _, other in groups.get(key, [])):
                    groups.setdefault(key, []).append((q, cq))
    out: list[Candidate] = []
    for (template, body, _), members in sorted(groups.items()):
        rng.shuffle(members)
        for (a, ca), (b, cb) in zip(members[::2], members[1::2]):
            (one, c1), (two, c2) = sorted(((a, ca), (b, cb)), key=lambda p: p[1].page.lower())
            said = one.statement if one.statement == two.statement else f"{one.statement} {two.statement}"
            out.append(Candidate(
                "multi_context", f"{body} in both {c1.page} and {c2.page}?", said,
                (c1.chunk_id, c2.chunk_id), (
                    ("answer", one.answer), ("template", "doc:shared_fact"),
                    ("page", c1.page), ("pages", [c1.page, c2.page]),
                    ("source_sentences", [one.statement, two.statement])),
                derived="shared_fact"))
    return out
