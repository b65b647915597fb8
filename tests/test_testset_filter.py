"""The offline generator's failure kinds, one test document each: the bad question it used
to write is not written any more, and the filter names why."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from testset_gen.generator import LanguageWarning, generate
from testset_gen.documents.ingest import load_documents
from testset_gen.offline.record_filter import FilterInput, rule_reasons
from testset_gen.documents.text_cleanup import clean_block, is_navigation, separate_headings

DOCUMENTS = {
    # a pronoun resolved to the wrong person: "What did Lynn Sweet discard...?"
    "shooting.md": "# Shooting\n\nChicago Sun-Times reporter Lynn Sweet described how the gunman "
                   "Robert Crimo fled the parade. He discarded the rifle near the stage in "
                   "Highland Park. The police arrested Robert Crimo in 2022.\n",
    # a heading on the line above its paragraph: "What did Release Gaucho Americano have?"
    "film.txt": "Release\nGaucho Americano had its premiere in Buenos Aires in 1945. The film "
                "was produced by Argentina Sono Film.\n",
    # the answer inside the question: "Where does the Danube rise in the Black Forest?"
    "danube.md": "# Danube\n\nThe Danube rises in the Black Forest in Germany. The Danube flows into the "
                 "Black Sea. The Danube Commission was founded in Galatz in 1856.\n",
    # not standalone: "How many people live around the volcano today?"
    "volcano.md": "# Mount Vesuvius\n\nMount Vesuvius destroyed Pompeii in 79 AD. About three "
                  "million people live around the volcano today.\n",
    # shell commands: "Who run -i --rm tqdm/tqdm --help?"
    "tqdm.md": "# tqdm\n\nRun the container with Docker:\n\n```\ndocker run -i --rm tqdm/tqdm "
               "--help\n```\n\nCasper da Costa-Luis maintains tqdm in London.\n",
    # an escape sequence from extraction: "Imphal\\'s"
    "imphal.md": "# Imphal\n\nImphal\\'s Ima Keithel market is run by women. Imphal is the "
                 "capital of Manipur in India.\n",
    # German: "Who ist Berlin die?"
    "berlin.md": "# Berlin\n\nBerlin ist die Hauptstadt von Deutschland. Die Stadt hat etwa "
                 "3,7 Millionen Einwohner und liegt an der Spree. Der Fernsehturm wurde 1969 "
                 "eröffnet und ist das höchste Bauwerk Deutschlands.\n",
}
BAD = {
    "shooting.md": "Lynn Sweet discard",
    "film.txt": "Release Gaucho",
    "danube.md": "rise in the Black Forest?",
    "volcano.md": "the volcano",
    "tqdm.md": "--",
    "imphal.md": "\\",
    "berlin.md": " ist ",
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("failures")
    for name, text in DOCUMENTS.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def generated(folder):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = generate(folder, 30, judge="local", cache=False, seed=0)
    return result, caught


def test_no_failure_kind_comes_back(generated):
    result, _ = generated
    assert result.testset.records  # the clean sentences still give questions
    for r in result.testset.records:
        for name, bad in BAD.items():
            assert bad not in r.question, (name, r.question)
        assert "\\" not in r.question + r.ground_truth + "".join(r.reference_contexts)
        assert not r.metadata["source_sentences"][0].startswith("He ")


def test_german_is_named_and_skipped(generated):
    result, caught = generated
    language = [str(w.message) for w in caught if issubclass(w.category, LanguageWarning)]
    assert len(language) == 1 and "German: berlin.md" in language[0]
    assert ("berlin.md", "German text: the offline generator is English-only") in result.skipped
    assert all(s["source"] != "berlin.md" for r in result.testset.records for s in r.sources)


def test_rejections_are_counted_by_type_and_reason(generated):
    result, _ = generated
    rejected = result.rejections_by_type()
    assert sum(rejected["simple"].values()) > 0
    assert set(rejected["simple"]) <= {
        "not_a_question", "unresolved_reference", "answer_in_question", "code_or_markup",
        "not_prose", "rewritten_statement", "derivation_wrong", "ambiguous", "unsupported",
        "irrelevant"}


def _reasons(question: str, answer: str, sentence: str, context: str | None = None,
             ground_truth: str | None = None, **extra) -> list[str]:
    return rule_reasons(FilterInput(question, ground_truth or sentence, answer, (sentence,),
                                    (context or sentence,), **extra))


@pytest.mark.parametrize("question, answer, sentence, context, ground_truth, subject, reason", [
    # each bad question the issue lists, as the generator wrote it
    ("What did Lynn Sweet discard near the stage?", "the rifle",
     "He discarded the rifle near the stage.",
     "Reporter Lynn Sweet described how the gunman Robert Crimo fled. He discarded the rifle "
     "near the stage.", "Lynn Sweet discarded the rifle near the stage.", "Lynn Sweet",
     "rewritten_statement"),
    ("What did Release Gaucho Americano have in 1945?", "its premiere",
     "Release\nGaucho Americano had its premiere in 1945.", None, None, "", "not_prose"),
    ("Where does the Danube rise in the Black Forest?", "the Black Forest",
     "The Danube rises in the Black Forest.", None, None, "", "answer_in_question"),
    ("Where does the Danube rise in the Black Forest?", "Germany",
     "The Danube rises in the Black Forest in Germany.", None, None, "", "answer_in_question"),
    ("How many people live around the volcano today?", "three million",
     "About three million people live around the volcano today.", None, None, "",
     "unresolved_reference"),
    ("Who run -i --rm tqdm/tqdm --help?", "docker",
     "docker run -i --rm tqdm/tqdm --help.", None, None, "", "code_or_markup"),
    ("When was the Bass Rock Lighthouse constructed on the rock and the remains of an ancient "
     "chapel survive?", "1902", "The Bass Rock Lighthouse was constructed on the rock in 1902, "
     "and the remains of an ancient chapel survive.", None, None, "", "not_a_question"),
    ("What did Harrison begin in the 1970s?", "his career",
     "Harrison began his career in the 1970s.", None, None, "", "unresolved_reference"),
    # the second hand ratings' misses, as the generator wrote them
    ("What did Gustave Eiffel also design?", "the Garabit viaduct",
     "Gustave Eiffel also designed the Garabit viaduct.", None, None, "", "unresolved_reference"),
    ("When was Lagunov born?", "July 2, 1942", "Lagunov was born on July 2, 1942 in Moscow.",
     "Vladimir Lagunov is a Russian footballer. Lagunov was born on July 2, 1942 in Moscow.",
     None, "", "unresolved_reference"),
    ("When did Edwin Meese resign from office shortly after Burns?", "July 1988",
     "Edwin Meese resigned from office in July 1988, shortly after Burns.",
     "Arnold Burns testified. Edwin Meese resigned from office in July 1988, shortly after Burns.",
     None, "", "unresolved_reference"),
    ("What did Mrs Hodgson buy in 1939?", "31 Gibbs Green",
     "Mrs Hodgson bought 31 Gibbs Green in 1939.", None, None, "", "unresolved_reference"),
    ("Which organisation is the public name for Hotcourses Ltd?", "The Hotcourses Group",
     "The Hotcourses Group is the public name for Hotcourses Ltd.", None, None, "",
     "answer_in_question"),
    # the third rating's misses
    ("By whom were the 25th TCA Awards presented?", "the Television Critics Association",
     "The 25th TCA Awards were presented by the Television Critics Association.", None, None,
     "", "answer_in_question"),
    ("What rises near Tazewell, Virginia?", "The Clinch River",
     "The Clinch River rises near Tazewell, Virginia.", None, None, "", "ambiguous"),
    ("What has Cliff Richard sold worldwide?", "more than 250 million records",
     "Cliff Richard has sold more than 250 million records worldwide.", None, None, "",
     "ambiguous"),
    ("Where did Chelsea Handler host the ceremony on August 1?", "the Huntington Hotel",
     "Chelsea Handler hosted the ceremony on August 1 at the Huntington Hotel.", None, None, "",
     "unresolved_reference"),
    ("Who held off Levi Leipheimer to take the victory for the second year in a row?",
     "Jens Voigt", "For the second year in a row Jens Voigt held off Levi Leipheimer to take "
     "the victory.", None, None, "", "unresolved_reference"),
    ("What did Imperial Japan leave?", "a troubled legacy",
     "Bose tried to rid India of British rule with the help of Nazi Germany and Imperial Japan "
     "left a troubled legacy.", None, "Imperial Japan left a troubled legacy.", "",
     "rewritten_statement"),
])
def test_each_listed_bad_question_is_rejected(question, answer, sentence, context,
                                              ground_truth, subject, reason):
    assert reason in _reasons(question, answer, sentence, context, ground_truth,
                              subject=subject)


def test_a_clean_question_passes_and_any_resolved_pronoun_is_dropped():
    assert _reasons("When was the Eiffel Tower completed?", "1889",
                    "The Eiffel Tower was completed in 1889.", subject="the Eiffel Tower") == []
    # even after a sentence naming one person: in HaluEval's passages that rule resolved
    # "He" to the wrong person 5 times in 19
    # ("currently" is left out: it alone makes the question not standalone now)
    context = "Fu Manchu is an American stoner rock band. He serves as CEO of Lionsgate."
    assert _reasons("Who serves as CEO of Lionsgate?", "Fu Manchu",
                    "He serves as CEO of Lionsgate.", context,
                    "Fu Manchu serves as CEO of Lionsgate.",
                    subject="Fu Manchu") == ["rewritten_statement"]


def test_derivations_are_recomputed():
    sentences = ("Marie Curie was born in Warsaw in 1867.", "Marie Curie moved to Paris in 1891.")
    ok = FilterInput("How many years after Marie Curie was born in Warsaw did Marie Curie move "
                     "to Paris?", "24 years. " + " ".join(sentences), "24 years", sentences,
                     (" ".join(sentences),), derived="years_between")
    assert rule_reasons(ok) == []
    wrong = FilterInput(ok.question, "25 years. " + " ".join(sentences), "25 years", sentences,
                        ok.contexts, derived="years_between")
    assert rule_reasons(wrong) == ["derivation_wrong"]
    first = FilterInput("Which happened first: Marie Curie moved to Paris or Marie Curie was "
                        "born in Warsaw?", "Marie Curie was born in Warsaw first (1867).",
                        "Marie Curie was born in Warsaw", sentences[::-1], ok.contexts,
                        derived="first")
    assert rule_reasons(first) == ["derivation_wrong"]  # the answer's year must be earlier
    assert rule_reasons(FilterInput(first.question, first.ground_truth, first.answer, sentences,
                                    ok.contexts, derived="first")) == []
    sentence = ("John Smith served as governor of Texas from 1990 to 1995.",)
    span = FilterInput("For how many years did John Smith serve as governor of Texas?",
                       "5 years. " + sentence[0], "5 years", sentence, sentence, derived="span")
    assert rule_reasons(span) == []
    assert rule_reasons(FilterInput(span.question, "6 years. " + sentence[0], "6 years", sentence,
                                    sentence, derived="span")) == ["derivation_wrong"]


def test_extraction_cleanup(tmp_path):
    assert clean_block("Imphal\\'s market.The city is old.") == ["Imphal's market. The city is old."]
    assert clean_block("Home | News | Sport | Weather") == []
    assert is_navigation("Skip to main content") and not is_navigation("Paris is big.")
    assert clean_block("| a | b |\n| 1 | 2 |", "Table") == ["| a | b |\n| 1 | 2 |"]
    assert separate_headings("Release\nGaucho Americano had its premiere in 1945.\n") == (
        "Release\n\nGaucho Americano had its premiere in 1945.")
    page = tmp_path / "t.md"
    page.write_text("# T\n\nMarie Curie was born in 1867.\n\n| Name | Year |\n|---|---|\n"
                    "| Marie Curie | 1867 |\n", encoding="utf-8")
    text = load_documents(page).documents[0].text
    assert "| Name | Year |\n| Marie Curie | 1867 |" in text  # a table stays a table


def test_cli_reports_asked_written_rejected_and_each_skipped_file_once(folder, tmp_path):
    from typer.testing import CliRunner

    from ragmeter.cli.app import app

    (folder / "empty.md").write_text("", encoding="utf-8")
    try:
        done = CliRunner().invoke(app, ["generate", str(folder), "--size", "8", "--out",
                                        str(tmp_path / "t.jsonl"), "--no-cache", "-q"])
    finally:
        (folder / "empty.md").unlink()
    assert done.exit_code == 0, done.output
    text = done.output
    for column in ("evolution", "asked", "written", "rejected by filter", "main reasons"):
        assert column in text
    assert "simple" in text and "multi_context" in text
    assert "unresolved_reference" in text  # the main reason for this folder's simple drops
    assert text.count("berlin.md") == 1 and text.count("empty.md") == 1
    assert "German" in text and "short by" in text
