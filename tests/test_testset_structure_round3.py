"""Round 3 of the structure generator: one small document per mechanism ("What is X?" only
over a definition, "How do you X?" only over an instruction acting on the task, answers that
go on while their paragraph does, one question per definition in a set)."""

from __future__ import annotations

import random

from testset_gen.offline.candidate import Candidate
from testset_gen.offline.choosing import pick

from tests.test_testset_structure import asked

INTRO = ("# Fetchly\n\nFetchly is a small HTTP client. You call Fetchly from scripts, and Fetchly "
         "keeps one connection pool.\n\n")


def test_what_is_asked_only_over_a_sentence_that_defines_the_thing():
    page = ("fetchly.md", INTRO + "## Durations\n\nDurations support fractional values as well as "
            "calculations in Fetchly.\n\n## Sub-Commands\n\nSub-commands are commands that are grouped "
            "under a parent command of Fetchly.\n\n## Practice\n\nTDD is a skill like any other, and "
            "one you can develop in Fetchly.\n\nPRs are an implementation of change review in Fetchly "
            "projects.\n\n## Booleans\n\nBooleans are commonly the result of a comparison in Fetchly.\n")
    got = asked(page)
    # a side fact or an evaluative predicate defines nothing
    assert not any(q.startswith(("What are durations", "What is TDD", "What are booleans")) for q in got)
    # the heading's casing normalised, the number agreeing with the head noun
    assert got["What are sub-commands in Fetchly?"].startswith("Sub-commands are commands")
    assert "What are PRs?" in got and "What is PRs?" not in got


def test_how_is_asked_only_over_an_instruction_that_acts_on_the_task():
    page = ("fetchly.md", INTRO + "## Using base images\n\nAlways use official base images. Docker Hub "
            "regularly scans official images and you can view the results by logging into Docker Hub.\n\n"
            "## Pinning versions\n\nTo pin versions, set the lock option in the Fetchly configuration file.\n")
    got = asked(page)
    # "view the results by logging into Docker Hub": a how, but of a side matter
    assert not any(q.startswith("How do you use official") for q in got)
    assert "How do you pin versions in Fetchly?" in got


def test_a_section_answer_goes_on_while_its_paragraph_does_and_other_ways_are_not_left_out():
    page = ("fetchly.md", INTRO + "## Clearing the cache\n\nTo clear the cache of a Fetchly client that "
            "has been running for a long time on a shared build server, run `fetchly cache clear`. Then "
            "restart the Fetchly daemon so that it reloads the index.\n\n## Removing Fetchly\n\nTo "
            "remove Fetchly, delete the fetchly directory from your home folder. Alternatively, you can "
            "run the uninstaller script that ships with every Fetchly release.\n")
    got = asked(page)
    truth = got["How do you clear the cache in Fetchly?"]
    assert truth.endswith("Then restart the Fetchly daemon so that it reloads the index.")
    # one of two documented ways is a partial answer: not asked
    assert not any(q.startswith("How do you remove Fetchly") for q in got)


def _simple(question: str, truth: str, chunk: str, **meta: object) -> Candidate:
    return Candidate("simple", question, truth, (chunk,), tuple(meta.items()) + (
        ("source_sentences", [truth.split(". ")[0].rstrip(".") + "."]),), structural=True)


def test_one_question_per_definition_in_a_set():
    sentence = "A constant variable is an immutable variable that can be evaluated at parse time."
    section = _simple("What are constant variables in Fetchly?", sentence + " These are useful with use.",
                      "c1", template="structure:section_what", thing="constant variables")
    definition = _simple("What is a constant variable in Fetchly?", sentence, "c2",
                         template="structure:definition", term="a constant variable")
    other = _simple("What is a mutable variable in Fetchly?",
                    "A mutable variable is a variable that can change by assignment.", "c3",
                    template="structure:definition", term="a mutable variable")
    got = pick([section, definition, other], 3, random.Random(1), set())
    questions = {c.question for c in got}
    assert len(got) == 2 and "What is a mutable variable in Fetchly?" in questions
