"""The rules a guide gives, asked as questions (``recipes/guidance``), and the filter's
calibrated question checks (``record_filter``): one small document per mechanism."""

from __future__ import annotations

import random

from testset_gen.documents.chunking import chunk_documents
from testset_gen.documents.document import Document
from testset_gen.graph.knowledge_graph import build_graph
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.page_subject import page_names
from testset_gen.offline.prose_questions import prose_candidates
from testset_gen.offline.record_filter import names_nothing, subordinate_clause, unresolved_reference
from testset_gen.offline.structure_checks import structure_reasons

GUIDE = """# Writing for the web

Good pages are short. If you're unsure of a reader's pronouns, use they or them.
Avoid moving or deleting content without a good reason, because it can cause frustration for users.
Before you archive a page, review your site analytics.

## Lists

- Don't use semicolons after points in a bulleted list.
- Avoid describing people as disabled.
- Use plain words instead of jargon.
- If that's the case, try using a table instead.
- Even if you don't track every metric on a dashboard, use the framework above.
"""


def candidates(text: str) -> list[Candidate]:
    docs = [Document.make(text, "guide.md")]
    graph = build_graph(docs, chunk_documents(docs), embed=False)
    names = page_names({d: (str(graph.node(d)["text"]), str(graph.node(d)["source"]),
                            str(graph.node(d).get("title") or "")) for d in graph.document_ids()})
    return [c for c in prose_candidates(graph, names, 10**6, random.Random(0)) if not structure_reasons(c)]


def test_a_rule_with_a_condition_is_asked_both_ways() -> None:
    asked = {c.question: c for c in candidates(GUIDE)}
    c = asked["What should you do if you're unsure of a reader's pronouns?"]
    assert c.evolution == "simple"
    assert c.ground_truth == "If you're unsure of a reader's pronouns, use they or them."
    when = asked["When should you review your site analytics?"]
    assert when.evolution == "reasoning"
    assert when.ground_truth == "Before you archive a page, review your site analytics."


def test_a_rule_with_its_reason_is_asked_why() -> None:
    asked = {c.question: c for c in candidates(GUIDE)}
    c = asked["Why should you avoid moving or deleting content without a good reason?"]
    assert c.evolution == "reasoning" and "because it can cause frustration" in c.ground_truth


def test_a_prohibition_and_a_preference() -> None:
    asked = {c.question: c for c in candidates(GUIDE)}
    assert asked["Should you use semicolons after points in a bulleted list?"].ground_truth == (
        "Don't use semicolons after points in a bulleted list.")
    pref = asked["Should you use jargon or plain words?"]
    assert pref.evolution == "reasoning" and dict(pref.meta)["answer"] == "plain words"


def test_rules_that_lean_on_the_paragraph_are_not_asked() -> None:
    questions = " ".join(c.question for c in candidates(GUIDE))
    assert "the case" not in questions  # "If that's the case": a demonstrative
    assert "metric" not in questions  # "Even if ...": a concession; "the framework above"
    assert "table" not in questions  # "try using a table instead": points back


def test_calibrated_question_checks() -> None:
    # rated usable, rejected before (bench/filter_calibration.py)
    assert not subordinate_clause("Who stated that the cost of training GPT-4 was more than $100 million?")
    assert not unresolved_reference("When did the Astor Place Riot occur at the now-demolished Astor Opera House?")
    assert not names_nothing("How do you add a dependency to a group?")
    assert not names_nothing("What is websockets released under?")
    # still rejected
    assert unresolved_reference("What does it use now?")
    assert names_nothing("What was in the box?")
