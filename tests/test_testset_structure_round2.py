"""Round 2 of the structure generator: one small document per mechanism (how-answers, property
tables, step goals, the place a question is "in", cut-off ground truths)."""

from __future__ import annotations

from testset_gen.offline.candidate import Candidate
from testset_gen.offline.page_subject import page_names, proper_name
from testset_gen.offline.structure_checks import structure_reasons

from tests.test_testset_structure import asked


def test_a_how_question_is_asked_only_over_a_sentence_that_says_how():
    page = ("fetchly.md", "# Fetchly\n\nFetchly is a small HTTP client. You call Fetchly from scripts, "
            "and Fetchly keeps one connection pool.\n\n## Rebuilding images\n\nIf you run Fetchly in "
            "containers, you should regularly rebuild your images to include the latest updates. "
            "Automate this process where possible.\n\n## Using base images\n\nAlways use official "
            "base images. Official images are scanned often.\n\n## Mapping components\n\nThe team mapped "
            "out the components by drawing a diagram.\n\n## Pinning versions\n\nTo pin versions, set "
            "the lock option in the Fetchly configuration file.\n")
    got = asked(page)
    # says to do it, or when: no how
    assert not any(q.startswith(("How do you rebuild", "How do you use official", "How do you map"))
                   for q in got)
    # another verb on an object: how
    assert got["How do you pin versions in Fetchly?"] == (
        "To pin versions, set the lock option in the Fetchly configuration file.")


def test_a_table_is_asked_only_as_a_property_table_of_named_things():
    page = ("tents.md", "# Tents\n\nTents shelter you at night.\n\n## Models\n\n"
            "| Model | Weight | Price |\n|---|---|---|\n| Trailhead 2 | 1.8 kg | 240 euros |\n\n"
            "## Terminals\n\n| Terminal | Platform | Instructions |\n|---|---|---|\n"
            "| Kitty | Linux | Press `Ctrl`+`F2` to open `kitty.conf` and set the shell. |\n\n"
            "## Kinds\n\n| Type of content | Tone |\n|---|---|\n"
            "| Obituary of a prominent community member | Respectful |\n\n"
            "## Status\n\n| Status | Action | Owner |\n|---|---|---|\n| Met | Tighten SLO | Team |\n")
    got = asked(page)
    assert got["What is the weight of Trailhead 2?"] == "The weight of Trailhead 2 is 1.8 kg."
    # a how-to table (code in a column), a description as key, a state as key: none
    assert not any("Kitty" in q or "Obituary" in q or "Met" in q for q in got)


def test_a_step_goal_ends_before_you_should():
    page = ("fetchly.md", "# Fetchly\n\nFetchly is a small HTTP client. You call Fetchly from scripts, "
            "and Fetchly keeps one connection pool.\n\n## Incidents\n\nTo help with eradication you should:\n\n"
            "- identify all affected hosts\n- remove all malware\n- patch the affected system\n")
    got = asked(page)
    assert got["How do you help with eradication in Fetchly?"].startswith(
        "To help with eradication, identify all affected hosts.")
    assert not any("you should?" in q for q in got)


def test_a_topic_named_by_a_title_or_file_is_no_place_a_question_is_in():
    variables = ("# Variables\n\nYou can set variables in a script. Variables hold values, and "
                 "variables are immutable by default. Use variables often.\n")
    slo = ("# SLO\n\nA service level objective (SLO) is a target. Set each SLO with your team. "
           "Review the SLO monthly.\n")
    assert not proper_name(variables, "Variables") and not proper_name(slo, "SLO")
    rich = "Rich is a library. Use Rich for colour. You can print with Rich and style with Rich.\n"
    assert proper_name(rich, "Rich")
    names = page_names({"a": (variables, "variables.md", "Variables"), "b": (slo, "slo.md", "SLO"),
                        "c": (rich, "readme_rich.md", "Rich")})
    assert names == {"a": "", "b": "", "c": "Rich"}


def test_the_folder_project_is_found_from_headings_when_no_sentence_defines_it(tmp_path):
    from testset_gen.documents.chunking import chunk_documents
    from testset_gen.documents.ingest import load_documents
    from testset_gen.graph.knowledge_graph import build_graph
    from testset_gen.offline.pages import graph_subject

    topics = ["variables", "modules", "plugins"]
    for t in topics:
        (tmp_path / f"{t}.md").write_text(
            f"# {t.title()}\n\nIn Nushell, {t} are handy. You can list {t} with Nushell and load "
            f"{t} in Nushell scripts.\n\n## {t.title()} in Nushell\n\nMore about {t} here.\n", encoding="utf-8")
    docs = load_documents(tmp_path).documents
    graph = build_graph(docs, chunk_documents(docs, max_tokens=200))
    names = page_names({d: (graph.node(d)["text"], graph.node(d)["source"], graph.node(d)["title"])
                        for d in graph.document_ids()})
    assert graph_subject(graph, names) == "Nushell"


def test_a_ground_truth_cut_off_or_pointing_away_is_dropped():
    def reasons(truth: str) -> list[str]:
        return structure_reasons(Candidate("simple", "How do you add a source in Fetchly?", truth, ("c",), (),
                                           structural=True))
    assert reasons("Configure it explicitly with a certain priority, e.g.") == ["ground_truth_cut", "points_unnamed"] \
        or "points_unnamed" in reasons("Configure it explicitly with a certain priority, e.g.")
    assert "points_unnamed" in reasons("If you use semantic versioning, please see here.")
    assert "points_unnamed" in reasons("If you set one README, prefer project.readme over this setting.")
    assert reasons("Add the source with the source add command. This will help you later.") == []
