"""The structure recipes: one tiny document per kind of structure gives its question, with
a ground truth of whole sentences that answers it (``testset_gen.offline.recipes``)."""

from __future__ import annotations

import random

import pytest

from testset_gen.documents.chunking import chunk_documents
from testset_gen.documents.document import Document
from testset_gen.documents.structure import HEADING, ITEM, PARAGRAPH, TABLE, blocks_of
from testset_gen.graph.knowledge_graph import build_graph
from testset_gen.offline.candidate import Candidate
from testset_gen.offline.folder_pages import FolderPages
from testset_gen.offline.page_subject import page_names
from testset_gen.offline.structure_checks import answered_several_ways, structure_reasons
from testset_gen.offline.structure_questions import structure_candidates

STOVE = """# Ember Stove

The Ember Stove is a compact gas stove for camping. The Ember Stove weighs 310 g.

## Features

The Ember Stove includes:

- a piezo igniter
- a wind shield
- folding pot supports

## Specifications

| Property | Value |
|---|---|
| Weight | 310 g |
| Price | 59 euros |
"""

TENT = """# Trailhead 2 Tent

The Trailhead 2 is a two-person backpacking tent. The Trailhead 2 weighs 1.8 kg.
The Ember Stove fits inside the vestibule of the Trailhead 2.

## Specifications

| Property | Value |
|---|---|
| Weight | 1.8 kg |
"""


def candidates(*pages: tuple[str, str]) -> list[Candidate]:
    docs = [Document.make(text, source) for source, text in pages]
    graph = build_graph(docs, chunk_documents(docs), embed=False)
    names = page_names({d: (str(graph.node(d)["text"]), str(graph.node(d)["source"]),
                            str(graph.node(d).get("title") or "")) for d in graph.document_ids()})
    return structure_candidates(FolderPages(graph, names, random.Random(0)), 10**6)


def asked(*pages: tuple[str, str]) -> dict[str, str]:
    return {c.question: c.ground_truth for c in candidates(*pages)}


def test_markdown_blocks_are_read_by_their_marks():
    kinds = [(b.kind, b.text) for b in blocks_of("# Title\n\nSome text here.\n\n- one\n- two\n\n| a | b |\n| 1 | 2 |")]
    assert kinds == [(HEADING, "Title"), (PARAGRAPH, "Some text here."), (ITEM, "one"), (ITEM, "two"),
                     (TABLE, "| a | b |\n| 1 | 2 |")]


def test_a_section_is_asked_by_its_heading_with_the_opening_as_ground_truth():
    # was: the opening "Fetchly sets a timeout ... You can change the timeout" taken as the
    # answer to "How do you configure timeouts?"; it says that, not how (rated unusable on
    # the Poetry docs). The answer now starts where the section does the heading's task
    # (configure -> timeouts) and tells what to do, within its paragraph.
    page = ("fetchly.md", "# Fetchly\n\nFetchly is a small HTTP client. You call Fetchly from scripts, "
            "and Fetchly keeps one connection pool.\n\n## Configuring timeouts\n\nFetchly sets a "
            "timeout of five seconds on every request. To configure timeouts per client, pass the "
            "timeout in seconds when you create the client.\n\nMore text follows here.")
    got = asked(page)
    assert got["How do you configure timeouts in Fetchly?"] == (
        "To configure timeouts per client, pass the timeout in seconds when you create the client.")


def test_a_definition_is_asked_what_it_is():
    assert asked(("stove.md", STOVE))["What is the Ember Stove?"] == (
        "The Ember Stove is a compact gas stove for camping.")


def test_a_list_is_asked_whole_with_every_item_in_one_sentence():
    assert asked(("stove.md", STOVE))["What does the Ember Stove include?"] == (
        "The Ember Stove includes a piezo igniter, a wind shield and folding pot supports.")


def test_a_table_row_is_asked_with_the_page_subject_named():
    got = asked(("stove.md", STOVE))
    assert got["What is the weight of the Ember Stove?"] == "The weight of the Ember Stove is 310 g."
    assert got["What is the price of the Ember Stove?"] == "The price of the Ember Stove is 59 euros."


def test_numbered_steps_are_asked_as_a_procedure_in_order():
    page = ("returns.md", "# Acme Returns\n\nAcme Returns handles every return for the Acme Shop.\n\n"
            "To return a product:\n\n1. Log in to your account.\n2. Print the return label.\n"
            "3. Drop the parcel at a post office.\n")
    assert asked(page)["How do you return a product?"] == (
        "To return a product, log in to your account. Then print the return label. "
        "Finally, drop the parcel at a post office.")


def test_a_quantity_is_asked_with_its_subject_named():
    assert asked(("stove.md", STOVE))["How much does the Ember Stove weigh?"] == (
        "The Ember Stove weighs 310 g.")


def test_a_date_is_asked_with_the_event_named():
    page = ("news.md", "# Airline news\n\nYeti Airlines cancelled all flights on 15 January 2023. "
            "The airline resumed service a week later.")
    assert asked(page)["When did Yeti Airlines cancel all flights?"] == (
        "Yeti Airlines cancelled all flights on 15 January 2023.")


def test_a_duration_compound_is_asked_how_long():
    page = ("tent.md", "# Trailhead 2 Tent\n\nThe Trailhead 2 comes with a 5-year warranty against defects.")
    assert asked(page)["How long is the warranty of the Trailhead 2?"] == (
        "The Trailhead 2 comes with a 5-year warranty against defects.")


def test_a_name_both_pages_mention_is_not_a_multi_context_answer():
    # was: "Which compact gas stove fits inside ...?" -> "the Ember Stove": the tent page
    # states the whole answer; on the Poetry docs all twelve such records asked for "Poetry"
    got = {c.question: c for c in candidates(("stove.md", STOVE), ("tent.md", TENT))}
    assert not any(c.question.startswith("Which compact gas stove") for c in got.values())


REQUIREMENTS = ("fetchly.md", "# Versions\n\nFetchly is a small HTTP client. Fetchly reads versions "
                "in many forms, and Fetchly checks each one.\n\n## Caret requirements\n\nCaret "
                "requirements allow updates that do not change the leftmost non-zero digit. They are "
                "the default.\n\n" + "Filler text about other matters stays here. " * 30
                + "\n\n## Tilde requirements\n\nTilde requirements allow only patch-level updates "
                "of the version given.\n\n## Operating modes\n\nFetchly can be operated in two "
                "modes. The default mode is the client mode.\n\n## Notes\n\nAlright, so now you "
                "know the forms.")


def test_two_things_of_one_kind_are_compared_across_two_sections():
    got = {c.question: c for c in candidates(REQUIREMENTS)}
    both = got["What is the difference between caret requirements and tilde requirements in Fetchly?"]
    assert both.evolution == "multi_context" and len(both.chunk_ids) == 2
    assert both.ground_truth == (
        "Caret requirements allow updates that do not change the leftmost non-zero digit. They are "
        "the default. Tilde requirements allow only patch-level updates of the version given.")


def test_a_heading_is_asked_by_its_syntax_only_when_its_section_bears_it_out():
    got = asked(REQUIREMENTS)
    # a noun phrase whose section opens with it as the subject: "What are ...?"
    assert got["What are tilde requirements in Fetchly?"] == (
        "Tilde requirements allow only patch-level updates of the version given.")
    # a gerund that frames as a task, but the section never operates the modes: no question
    assert not any("operate" in q.lower() for q in got)
    # a part of a page ("Notes") asks nothing; a lead-in is never an answer
    assert not any("note" in q.lower() or "Alright" in t for q, t in got.items())


def test_heading_forms_read_tasks_things_and_questions():
    from testset_gen.offline.heading_forms import heading_forms

    forms = heading_forms(["Installing dependencies", "Publishing to PyPI", "Why is Fetchly slow?",
                           "Caret requirements", "Usage", "1.2.0"])
    first = {h: f[0] if f else None for h, f in forms.items()}
    assert (first["Installing dependencies"].kind, first["Installing dependencies"].phrase,
            first["Installing dependencies"].target) == ("how", "install dependencies", "dependency")
    assert (first["Publishing to PyPI"].verb, first["Publishing to PyPI"].by_prep) == ("publish", True)
    assert first["Why is Fetchly slow?"].kind == "question"
    assert any(f.kind == "what" for f in forms["Caret requirements"])
    assert first["Usage"] is None and first["1.2.0"] is None


def test_the_folder_subject_is_the_name_the_folder_defines():
    from testset_gen.offline.pages import folder_subject

    prose = {"a": "Fetchly is a small HTTP client. You can use Fetchly in scripts, and Fetchly works.",
             "b": "To send a request, call Fetchly with a URL, and Fetchly returns it. Then Fetchly waits.",
             "c": "The pool of Fetchly keeps connections, and Fetchly closes them when Fetchly exits."}
    titles = {"a": "Introduction", "b": "Basic usage", "c": "Pools"}
    assert folder_subject(prose, titles) == "Fetchly"


def test_front_matter_is_not_prose():
    blocks = blocks_of('title: "Basic usage"\ndraft: false\n\n# Basic usage\n\nSome text here.')
    assert blocks[0].kind == "code"


def test_two_values_of_one_property_are_compared_for_reasoning():
    got = {c.question: c for c in candidates(("stove.md", STOVE), ("tent.md", TENT))}
    heavier = got["Which is heavier: the Ember Stove or the Trailhead 2?"]
    assert heavier.evolution == "reasoning"
    assert heavier.ground_truth == ("The weight of the Ember Stove is 310 g. The weight of the "
                                    "Trailhead 2 is 1.8 kg. So the Trailhead 2 is heavier.")
    lighter = got["Which is lighter: the Trailhead 2 or the Ember Stove?"]
    assert lighter.evolution == "multi_context"  # two pages


def test_a_shared_section_topic_is_asked_across_two_pages():
    a = ("arguments.md", "# Arguments\n\nArguments are positional in Toolkit, and in Toolkit they "
         "are read in order.\n\n## Environment Variables\n\nArguments can read environment variables. Pass "
         "the variable name with envvar.")
    b = ("options.md", "# Options\n\nOptions are named in Toolkit, and in Toolkit they are read by name.\n\n"
         "## Values from Environment Variables\n\nOptions can take a value from an environment "
         "variable. Pass its name with envvar.")
    c = ("intro.md", "# Welcome to Toolkit\n\nWith Toolkit you write tools. Use Toolkit for "
         "scripts, and Toolkit for apps.")
    got = {q.question: q for q in candidates(a, b, c)}
    shared = got["How do arguments and options handle environment variables in Toolkit?"]
    assert shared.evolution == "multi_context"
    assert shared.ground_truth == ("Arguments can read environment variables. Pass the variable "
                                   "name with envvar. Options can take a value from an environment "
                                   "variable. Pass its name with envvar.")


def test_a_question_the_folder_answers_several_ways_is_dropped():
    same = [Candidate("simple", "What is Fetchly?", truth, ("c",), (), structural=True)
            for truth in ("Fetchly is a client.", "Fetchly is a library for HTTP.")]
    assert answered_several_ways(same) == {"What is Fetchly?"}
    assert answered_several_ways(same[:1]) == set()


@pytest.mark.parametrize("question, truth, reasons", [
    ("What does it use in Fetchly?", "It uses pools.", ["unresolved_reference"]),
    ("What is the setting?", "The setting is on.", ["names_nothing"]),
    ("How do you set max_retries in Fetchly?", "Set it.", ["code_or_markup"]),
    ("What is Fetchly?", "Fetchly is a client that", ["ground_truth_cut"]),
    ("How do you return a product?", "To return it, print the label.", []),
    ("How many houses were burnt in the city of Kangpokpi?", "Thirty houses were burnt.", []),
])
def test_structure_checks_name_each_failure(question, truth, reasons):
    assert structure_reasons(Candidate("simple", question, truth, ("c",), (), structural=True)) == reasons


def test_ingested_markdown_keeps_its_block_labels(tmp_path):
    from testset_gen.documents.ingest import load_documents

    (tmp_path / "stove.md").write_text(STOVE, encoding="utf-8")
    doc = load_documents(tmp_path).documents[0]
    labels = [label for _, _, label in doc.metadata["blocks"]]
    assert labels[:2] == ["Title", "NarrativeText"] and "ListItem" in labels and "Table" in labels
    got = asked(("stove.md", STOVE))
    assert "What is the weight of the Ember Stove?" in got


def test_a_cause_is_asked_why_for_reasoning():
    page = ("acme.md", "# Acme Cloud\n\nAcme Cloud is a storage service for small teams. You reach "
            "Acme Cloud from a browser.\n\nAcme Cloud keeps three copies of every file because disks fail.")
    got = {c.question: c for c in candidates(page)}
    why = got["Why does Acme Cloud keep three copies of every file?"]
    assert why.evolution == "reasoning"
    assert why.ground_truth == "Acme Cloud keeps three copies of every file because disks fail."


def test_an_anaphoric_subject_is_not_asked():
    page = ("news.md", "# Stadium news\n\nThe stadium was opened in 1911 after two years of work.")
    assert not any(q.startswith("When was the stadium") for q in asked(page))


def test_a_product_folder_fills_every_type_offline(tmp_path):
    from testset_gen.offline.generator import generate_offline

    pages = {"stove.md": STOVE, "tent.md": TENT, "bag.md": (
        "# Summit Sleeping Bag\n\nThe Summit Sleeping Bag is a down sleeping bag for cold nights. "
        "The Summit Sleeping Bag weighs 1.2 kg.\n\n| Property | Value |\n|---|---|\n"
        "| Weight | 1.2 kg |\n| Price | 329 euros |\n")}
    docs = [Document.make(text, source) for source, text in pages.items()]
    graph = build_graph(docs, chunk_documents(docs), embed=False)
    out = generate_offline(graph, 6, seed=0)
    kinds = {r.evolution_type for r in out.records}
    assert len(out.records) == 6 and kinds == {"simple", "reasoning", "multi_context"}
    compared = [r for r in out.records if r.evolution_type != "simple"]
    # each pair of things is compared once, whichever way round
    assert len({r.metadata["pair"] for r in compared}) == len(compared)


def test_a_section_whose_opening_does_not_answer_is_not_asked():
    page = ("fetchly.md", "# Fetchly\n\nFetchly is a small HTTP client. You call Fetchly from scripts, "
            "and Fetchly keeps one connection pool.\n\n## Streaming responses\n\nSometimes a response "
            "is too large to hold in memory. Large downloads are common.\n\n## Closing clients\n\n"
            "In some situations it is helpful to understand pools. Pools hold connections.")
    assert not any(q.startswith("How do you") for q in asked(page))
