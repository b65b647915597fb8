"""A documentation set people would choose: more kinds of documentation question, and no
one template (licences above all) filling the set.

Each new pattern has a sentence of a README of the bench folder ``docs`` that gives its
question and one that must not; each new comparison of two pages has two small READMEs;
the caps have a folder whose every page states its licence.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from testset_corpus import generate_short, one_chunk_each
from testset_gen.offline.doc_questions import doc_questions, python_support
from testset_gen.offline.choosing import LICENCE
from testset_gen.offline.chunk_reading import read_chunks
from testset_gen.offline.recipes.documentation import page_comparisons
from testset_gen.offline.page_subject import page_names
from testset_gen.offline.record_filter import FilterInput, rule_reasons


def _asked(sentence: str, page: str) -> dict[str, str]:
    return {q.text: q.answer for q in doc_questions([sentence], page)}


def _one(question: str, sentence: str, answer: str, pages: tuple[str, ...]) -> list[str]:
    return rule_reasons(FilterInput(question, sentence, answer, (sentence,), (sentence,), pages=pages))


# --- what a named thing lets you do, what it is used for ---------------------------------


def test_what_a_named_thing_lets_you_do():
    assert _asked("PySocks lets you send traffic through SOCKS and HTTP proxy servers.", "PySocks") == {
        "What does PySocks let you do?": "send traffic through SOCKS and HTTP proxy servers"}
    # the page's name for itself is the page
    assert _asked("This Python module allows you to create TCP connections through a SOCKS proxy.",
                  "PySocks") == {
        "What does PySocks allow you to do?": "create TCP connections through a SOCKS proxy"}
    # a named part of the page says which page
    assert _asked("The Realtime API enables you to build voice agents.", "the OpenAI Python API library") == {
        "What does the Realtime API enable you to do in the OpenAI Python API library?": "build voice agents"}
    # a pronoun, a bare "This", the reader inside the answer, a list after a comma: nothing
    assert _asked("It lets you exchange data among multiple languages like JSON.", "msgpack") == {}
    assert _asked("This allows users to await code inside their tests.", "pytest-asyncio") == {}
    assert _asked("Sentence Transformers allows you to fine-tune your own models.", "Sentence Transformers") == {}
    assert _asked("Weasel lets you manage workflows, and orchestrate training.", "Weasel") == {}


def test_a_lets_you_question_passes_the_filter_and_a_light_verb_still_does_not():
    sentence = "PySocks lets you send traffic through SOCKS and HTTP proxy servers."
    assert _one("What does PySocks let you do?", sentence,
                "send traffic through SOCKS and HTTP proxy servers", ("PySocks",)) == []
    assert "ambiguous" in _one("What does PySocks do?", sentence,
                               "send traffic through SOCKS and HTTP proxy servers", ("PySocks",))


def test_what_a_named_thing_is_used_for():
    assert _asked("The selenium package is used to automate web browser interaction from Python.",
                  "Selenium") == {
        "What is Selenium used for?": "to automate web browser interaction from Python"}
    assert _asked("The Tracer class is mainly intended for debugging slow pipelines.", "Banks") == {
        "What is the Tracer class intended for in Banks?": "for debugging slow pipelines"}
    # an indefinite subject (which one?), a manner rather than a purpose
    assert _asked("A C extension module is used for performance critical components.", "wrapt") == {}
    assert _asked("Starlette is designed to be used as an ASGI toolkit.", "Starlette") == {}


# --- reasoning ---------------------------------------------------------------------------


def test_a_floor_written_with_another_requirement_is_a_floor():
    sentence = "Transformers works with Python 3.11+, and PyTorch 2.6+."
    (floor,) = doc_questions([sentence], "Transformers")
    assert (floor.text, floor.answer, floor.fact) == (
        "Which Python versions does Transformers work with?", "3.11+", "3.11")
    asked = {q.text: q.statement for q in python_support(floor, "Transformers")}
    assert asked == {"Can you use Transformers with Python 3.10?": f"No. {sentence}",
                     "Can you use Transformers with Python 3.12?": f"Yes. {sentence}"}
    item = FilterInput("Can you use Transformers with Python 3.10?", f"No. {sentence}", "No",
                       (sentence,), (sentence,), derived="python_support", pages=("Transformers",))
    assert rule_reasons(item) == []
    assert rule_reasons(replace(item, ground_truth=f"Yes. {sentence}", answer="Yes")) == ["derivation_wrong"]


def test_a_cause_of_the_page_named_by_itself_is_asked_why():
    assert _asked("This framework allows you to fine-tune your own sentence embedding methods, so "
                  "that you get task-specific sentence embeddings.", "Sentence Transformers") == {
        "Why does Sentence Transformers allow you to fine-tune your own sentence embedding methods?":
            "so that you get task-specific sentence embeddings"}
    # "this" that is not the page's name for itself stays unasked
    assert _asked("This change was made because the old API was slow.", "Rich") == {}


# --- multi_context over two pages --------------------------------------------------------

ANYIO = ("# AnyIO\n\nAnyIO is an asynchronous networking library. Use AnyIO with Trio. AnyIO runs "
         "anywhere. AnyIO is small.\n\nTo report a security vulnerability, please use the Tidelift "
         "security contact.\n")
URLLIB3 = ("# urllib3\n\nurllib3 is a powerful HTTP client. Use urllib3 for requests. urllib3 is "
           "safe. urllib3 is popular.\n\nTo report a security vulnerability, please use the "
           "Tidelift security contact.\n")
IDNA = ("# IDNA\n\nIDNA supports domain names. Use IDNA for hosts. IDNA is strict. IDNA is old.\n\n"
        "This library supports Python 3.9 and higher.\n")
RICH = ("# Rich\n\nRich is a library for rich text. Use Rich for colour. Rich is fast. Rich is "
        "pretty.\n\nRich requires Python 3.8 or later.\n")


def _comparisons(texts: dict[str, str]):
    graph = one_chunk_each(texts, heading_titles=True)
    cqs = read_chunks(graph, graph.chunk_ids(), page_names({
        d: (graph.node(d)["text"], graph.node(d)["source"], graph.node(d)["title"])
        for d in graph.document_ids()}))
    return graph, page_comparisons(cqs, random.Random(0))


def test_two_pages_giving_one_answer_to_one_question_are_asked_both():
    graph, made = _comparisons({"readme_anyio.md": ANYIO, "readme_urllib3.md": URLLIB3})
    (shared,) = [c for c in made if dict(c.meta)["template"] == "doc:shared_fact"]
    sentence = "To report a security vulnerability, please use the Tidelift security contact."
    assert shared.question == "What do you use to report a security vulnerability in both AnyIO and urllib3?"
    assert shared.evolution == "multi_context" and len(shared.chunk_ids) == 2
    assert shared.ground_truth == sentence  # the same sentence on both pages: written once
    contexts = [graph.node(i)["text"] for i in shared.chunk_ids]
    assert rule_reasons(shared.filter_input(contexts)) == []
    # an answer one page does not state is not shared
    wrong = replace(shared.filter_input(contexts), answer="the GitHub issue tracker")
    assert rule_reasons(wrong) == ["derivation_wrong"]


def test_the_oldest_python_two_pages_both_work_with_is_the_higher_floor():
    graph, made = _comparisons({"readme_idna.md": IDNA, "readme_rich.md": RICH})
    (oldest,) = [c for c in made if dict(c.meta)["template"] == "doc:oldest_python"]
    assert oldest.question == "What is the oldest Python version that works with both IDNA and Rich?"
    assert oldest.ground_truth == ("Python 3.9. This library supports Python 3.9 and higher. "
                                   "Rich requires Python 3.8 or later.")
    contexts = [graph.node(i)["text"] for i in oldest.chunk_ids]
    assert rule_reasons(oldest.filter_input(contexts)) == []
    item = oldest.filter_input(contexts)
    lower = replace(item, ground_truth="Python 3.8. " + item.ground_truth[len("Python 3.9. "):],
                    answer="Python 3.8")
    assert rule_reasons(lower) == ["derivation_wrong"]


# --- caps --------------------------------------------------------------------------------


def _readme(name: str, licence: str, purpose: str) -> str:
    return (f"# {name}\n\n{name} is a small library. Use {name} for data. {name} is fast. "
            f"{name} is tested.\n\n{name} lets you {purpose}.\n\n"
            f"{name} is licensed under the {licence} license.\n")


PURPOSES = ["parse dates from log files", "convert colours between spaces", "hash large files quickly",
            "render tables in the terminal", "retry failed network calls", "cache results on disk",
            "validate email addresses", "compress images losslessly"]


def test_licences_fill_at_most_their_share_and_every_record_names_its_template():
    names = ["Alpaca", "Bisonio", "Cobrax", "Dingoly", "Egretta", "Falconer", "Gecko", "Heron"]
    texts = {f"readme_{n.lower()}.md": _readme(n, "MIT" if i % 2 else "BSD", PURPOSES[i])
             for i, n in enumerate(names)}
    graph = one_chunk_each(texts, heading_titles=True)
    result = generate_short(graph, 20, {"simple": 1.0})
    topics = Counter(r.metadata.get("topic", "") for r in result.records)
    # without the caps (measured): 6 of the 20 about a licence and 7 "What does X let you
    # do?"; with them, 2 (a tenth of the 20 asked) and 3 (15%), the set short instead
    assert topics[LICENCE] == 2
    assert all(r.metadata.get("template") for r in result.records)
    assert all("licen" in r.question.lower() for r in result.records if r.metadata.get("topic") == LICENCE)
    templates = Counter(r.metadata["template"] for r in result.records)
    assert templates["doc:lets_you"] == 3 and all(
        " lets you " in r.ground_truth for r in result.records if r.metadata["template"] == "doc:lets_you")
    assert len(result.records) < 20


def test_a_cause_before_so_is_asked_why_its_effect_holds():
    sentence = "The bins are the same in every report, so two reports can be compared by eye."
    assert _asked(sentence, "ragmeter") == {
        "Why can two reports be compared by eye in ragmeter?": "The bins are the same in every report"}
    item = FilterInput("Why can two reports be compared by eye in ragmeter?", sentence,
                       "The bins are the same in every report", (sentence,), (sentence,),
                       derived="consequence", pages=("ragmeter",))
    assert rule_reasons(item) == []
    # the effect given as the answer is no derivation
    assert rule_reasons(replace(item, answer="two reports can be compared by eye")) == [
        "answer_in_question", "derivation_wrong"]
    # a cause that names nothing, the reader as the cause, a pronoun in the effect
    assert _asked("What is left is the change itself, so a real change is seen sooner.", "ragmeter") == {}
    assert _asked("You do not use threads, so all the work starts from the main thread.", "threadpoolctl") == {}
    assert _asked("Lower is better, so it is left out of the summary score.", "ragmeter") == {}
