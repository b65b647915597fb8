"""Round 3 of the guide rules (``recipes/guidance``, ``recipes/causes``): one small document
per mechanism."""

from __future__ import annotations

from ragmeter.text.syntax import parse
from testset_gen.offline.recipes.causes import cause_of_root

from tests.test_testset_guidance import candidates

PLAIN = """# Punctuation

Use sentence case for headings. Conduct usability sessions regularly to understand how people access, use, and interpret content.

Instead of:

Open a new meeting invitation.
"""


def test_a_rule_without_a_condition_is_not_asked_back() -> None:
    asked = {c.question: c for c in candidates(PLAIN)}
    # "Should you use sentence case for headings?" - "Yes": the question states its answer
    assert not any(q.startswith("Should you use sentence case") for q in asked)
    # a sample shown after "Instead of:" is no rule
    assert not any("invitation" in q for q in asked)


REASONS = """# Disaster recovery

You must regularly test your recovery processes so that you are confident they will work in an emergency. This also helps team members build familiarity with the procedures.

You should implement offline backups so that even users with administrative access cannot delete data.

Offline backups also help protect your data from accidental deletion.
"""


def test_a_why_holds_every_reason_the_section_gives() -> None:
    asked = {c.question: c for c in candidates(REASONS)}
    why = next(c for q, c in asked.items() if "test your recovery processes" in q)
    assert why.ground_truth.endswith("This also helps team members build familiarity with the procedures.")
    # a further reason later in the section: the answer would be partial, so no question
    assert not any("offline backups" in q for q in asked)


ADR = """# Architecture decisions

Write an architecture decision record for every decision.

If some implementation of the original decision has occurred, you should write a new record.
"""


def test_one_word_of_the_topic_does_not_name_it() -> None:
    asked = [c.question for c in candidates(ADR)]
    assert "What should you do if some implementation of the original decision has occurred?" not in asked


def test_a_because_inside_what_is_determined_is_no_reason() -> None:
    inner = "Performance testing will help determine if a function is slow because it does not have enough memory."
    own = "The runner isolates the file system because tests run in parallel."
    for text, expected in ((inner, False), (own, True)):
        sent = next(iter(parse([text], entities=False)[0].sents))
        assert cause_of_root(sent, sent.root, text.index("because")) is expected
