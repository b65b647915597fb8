"""The rules a guide gives, asked as questions (``recipes/guidance``), and the filter's
calibrated question checks (``record_filter``): one small document per mechanism."""

from __future__ import annotations

import random

from testset_gen.documents.chunking import chunk_documents
from testset_gen.documents.document import Document
from testset_gen.graph.knowledge_graph import build_graph
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.folder_pages import FolderPages
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
    return [c for c in prose_candidates(FolderPages(graph, names, random.Random(0))) if not structure_reasons(c)]


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
    # "content" and "reason" name nothing the folder could be about alone: the heading opens it
    c = asked["When writing for the web, why should you avoid moving or deleting content without a good reason?"]
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


def folder_candidates(texts: dict[str, str]) -> list[Candidate]:
    docs = [Document.make(text, name) for name, text in texts.items()]
    graph = build_graph(docs, chunk_documents(docs), embed=False)
    names = page_names({d: (str(graph.node(d)["text"]), str(graph.node(d)["source"]),
                            str(graph.node(d).get("title") or "")) for d in graph.document_ids()})
    return [c for c in prose_candidates(FolderPages(graph, names, random.Random(0))) if not structure_reasons(c)]


FEEDBACK = """# Gather feedback

Writers gather feedback from colleagues before they publish a draft.

## How to receive feedback

If you have a deadline, be honest and realistic about it. If your colleague works on the Payments API, send the draft early.

## Notes

If you have a question, ask early.
"""


def test_a_rule_that_names_nothing_carries_its_heading_or_is_not_asked() -> None:
    asked = {c.question: c for c in candidates(FEEDBACK)}
    # "a deadline" names nothing: the section's task heading says what it is about
    assert "When receiving feedback, what should you do if you have a deadline?" in asked
    # a name in the condition is enough alone
    assert "What should you do if your colleague works on the Payments API?" in asked
    # "Notes" reads as no topic and the page title "Gather feedback" opens the question instead
    assert "When gathering feedback, what should you do if you have a question?" in asked
    assert not any(q.startswith("What should you do if you have") for q in asked)


def test_several_occasions_for_one_action_are_asked_once_with_all_of_them() -> None:
    pages = {
        "incidents.md": "# Incidents\n\nIncidents are handled by the on-call engineer.\n\n"
                        "Contact the security team if you find leaked credentials.\n",
        "access.md": "# Access\n\nAccess is granted per role and reviewed every quarter.\n\n"
                     "Contact the security team if you lose your hardware key.\n",
        "docs.md": "# Writing docs\n\nDocs live next to the code they describe.\n\n"
                   "Include a summary at the top of every page. If the page is long, include a summary of each section.\n",
    }
    got = folder_candidates(pages)
    both = [c for c in got if c.question == "When should you contact the security team?"]
    assert len(both) == 1 and both[0].evolution == "multi_context"
    assert len(both[0].chunk_ids) == 2
    assert "leaked credentials" in both[0].ground_truth and "hardware key" in both[0].ground_truth
    # "include a summary" is told without a condition too: no one occasion to ask about
    assert not any(c.question.startswith("When should you include a summary") for c in got)


def test_why_only_from_a_purpose_and_a_means_is_asked_how() -> None:
    text = ("# Admin accounts\n\nAdmin accounts can change every setting of the service.\n\n"
            "You should set up the admin account so that the session timeout is less than 30 minutes. "
            "You should commit the lock file so that everyone working on the project installs the same versions. "
            "To change the working directory, use the cd command.\n")
    asked = {c.question: c for c in candidates(text)}
    assert not any("set up the admin account" in q for q in asked if q.startswith("Why"))
    assert "Why should you commit the lock file?" in asked
    assert not any("cd command" in q for q in asked)  # no "Why should you use the cd command?"
    how = asked["How do you change the working directory?"]
    assert how.evolution == "simple" and how.ground_truth.startswith("To change the working directory")


def test_a_named_thing_other_sentences_prescribe_is_not_asked_as_one_occasion() -> None:
    text = ("# Logging\n\nLogs are shipped to Splunk every minute.\n\n"
            "If you are unsure which role to request, ask in the Splunk Slack channel.\n\n"
            "Any questions about queries should be directed to the Splunk Slack channel.\n")
    assert not any(c.question.startswith("When should you ask") for c in candidates(text))
