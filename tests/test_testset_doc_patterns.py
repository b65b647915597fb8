"""Documentation's own sentence patterns, asked with the page's subject named.

Each test sentence is one of a README of the bench folder ``docs`` (or a trimmed copy) that
the statement rules asked nothing of: an instruction to "you", a purpose clause, a default,
a requirement, a licence, a "this project" subject. Each kind has a sentence that gives its
question and one that must not.
"""

from __future__ import annotations

import random
from dataclasses import replace

from testset_corpus import generate_short, one_chunk_each
from testset_gen.offline.doc_questions import doc_questions, named_statement, python_support
from testset_gen.offline.chunk_reading import read_chunks
from testset_gen.offline.recipes.documentation import page_comparisons
from testset_gen.offline.page_subject import page_name, page_names
from testset_gen.offline.record_filter import FilterInput, rule_reasons


def _asked(sentence: str, page: str = "Rich") -> dict[str, str]:
    return {q.text: q.answer for q in doc_questions([sentence], page)}


# --- the page's subject ------------------------------------------------------------------

RICH = ("# Compatibility\n\nRich works with Linux, macOS and Windows. Rich requires Python 3.8 "
        "or later. You can use Rich to add colour. Install Rich with pip. The Rich Console "
        "renders markup.\n")


def test_the_file_name_names_the_page_when_the_page_writes_it():
    # the title ("Compatibility") does not name the page; the file name does
    assert page_name(RICH, "readme_rich.md", "Compatibility") == "Rich"
    # a title that adds a kind of software to the name names it better than the vendor
    openai = "Use OpenAI models. The OpenAI client is fast. OpenAI ships it. Call OpenAI."
    assert page_name(openai, "readme_openai.md", "OpenAI Python API library") == (
        "the OpenAI Python API library")
    # written fewer than three times: not what the page is about
    assert page_name("Rich text is nice.", "rich.md", "Compatibility") == ""


def test_a_topic_file_name_is_no_name_and_the_folder_project_is_taken():
    project = "# ragmeter\n\n" + "Install ragmeter and run ragmeter on your data. " * 3
    topic = ("# Metrics\n\nThe metrics of ragmeter score answers. Each of the metrics has a "
             "judge. ragmeter runs the metrics. Ask ragmeter for metrics. ragmeter is fast. "
             "ragmeter again, and ragmeter.")
    other = "# Notes\n\nMore ragmeter notes: ragmeter, ragmeter, ragmeter, ragmeter, ragmeter."
    pages = {"a": (project, "README.md", "ragmeter"), "b": (topic, "metrics.md", "Metrics"),
             "c": (other, "notes.md", "Notes"), "d": ("Use spaCy here.", "judge.md", "Judge")}
    names = page_names(pages)
    # "the metrics" is a topic; the project, written on three pages, names the page
    assert names == {"a": "ragmeter", "b": "ragmeter", "c": "ragmeter", "d": ""}


# --- sentence patterns -------------------------------------------------------------------


def test_you_can_x_by_y_is_asked_how():
    assert _asked("You can set a style for the entire output by adding a style keyword "
                  "argument.") == {
        "How can you set a style for the entire output in Rich?": "by adding a style keyword argument"}
    # the page's name in the question already: not named twice
    assert _asked("You can also install spaCy from conda via the conda-forge channel.", "spaCy") == {
        "How can you install spaCy from conda?": "via the conda-forge channel"}
    # "this project" becomes the page's name
    assert _asked("You can support the project by writing documentation.", "pypdf") == {
        "How can you support pypdf?": "by writing documentation"}
    # code inline, no page name: nothing
    assert _asked("You can enable logging by calling client.enable().") == {}
    assert doc_questions(["You can set a style by adding an argument."], "") == []


def test_use_y_to_x_is_asked_what_you_use():
    assert _asked("You can use a Console object to generate sophisticated output with minimal "
                  "effort.") == {
        "What can you use to generate sophisticated output with minimal effort in Rich?":
            "a Console object"}
    # the writer or the reader inside the purpose: "help us", "your installation"
    assert _asked("Use the following steps to test your installation.") == {}


def test_to_x_do_y_is_asked_how_you_do_it():
    assert _asked("To test pull requests, use sympy-bot.", "SymPy") == {
        "What do you use to test pull requests in SymPy?": "sympy-bot"}
    assert _asked("To report a security vulnerability, please use the Tidelift security "
                  "contact.", "urllib3") == {
        "What do you use to report a security vulnerability in urllib3?":
            "the Tidelift security contact"}
    assert _asked("To use typer directly with shell completion, activate the project "
                  "environment and install completion.", "Typer") == {
        "How do you use typer directly with shell completion?":
            "activate the project environment and install completion"}
    # a purpose that points elsewhere, an instruction that is not one
    assert _asked("To learn more about the platform, check out the docs.") == {}
    assert _asked("To chat with a model, the usage pattern is the same.") == {}


def test_a_default_is_asked_with_the_page_named():
    assert _asked("By default, the async client uses HTTPX2.", "the OpenAI Python API library") == {
        "What does the async client use by default in the OpenAI Python API library?": "HTTPX2"}
    # the object does not end the sentence: a clause after it would be lost
    assert _asked("By default the library closes connections whenever the client is garbage "
                  "collected.") == {}


def test_python_requirements_and_licences():
    assert _asked("Rich requires Python 3.8 or later.") == {
        "Which Python version does Rich require?": "3.8 or later"}
    assert _asked("This library supports Python 3.9 and higher.", "IDNA") == {
        "Which Python versions does IDNA support?": "3.9 and higher"}
    assert _asked("This project is licensed under the terms of the MIT license.", "Typer") == {
        "Which license does Typer use?": "MIT"}
    # another package's requirement or licence is not the page's
    assert _asked("Textual requires Python 3.9 or later.") == {}
    assert _asked("Click is licensed under the BSD license.", "Typer") == {}


def test_this_project_as_subject_is_the_page():
    assert named_statement("This project uses uv for dependency management.", "Unstructured") == (
        "Unstructured uses uv for dependency management.", "Unstructured",
        "This project uses uv for dependency management.")
    assert named_statement("The library closes connections.", "the OpenAI Python API library") == (
        "The OpenAI Python API library closes connections.", "the OpenAI Python API library",
        "The library closes connections.")
    # a lowercase name opening the sentence is capitalised for the rules (the claim splitter
    # capitalised it already); the ground truth is spelled as the page spells it
    assert named_statement("Fsspec uses Black to format the code.", "fsspec") == (
        "Fsspec uses Black to format the code.", "Fsspec", "fsspec uses Black to format the code.")
    # "it" mostly refers to the sentence before: not replaced
    assert named_statement("It uses uv for dependency management.", "Unstructured") is None


# --- records -----------------------------------------------------------------------------


TYPER = ("# FastAPI of CLIs\n\nTyper is a library for building CLI applications. Typer is easy "
         "to use. Typer builds on Click. Typer is fast.\n\nThis project uses uv for dependency "
         "management.\n\nThis project is licensed under the terms of the MIT license.\n")
RAPIDFUZZ = ("# Rapid fuzzy matching\n\nRapidFuzz is a fast string matching library. Install "
             "RapidFuzz with pip. Use RapidFuzz for search. RapidFuzz is fast.\n\n"
             "RapidFuzz is licensed under the MIT license.\n")


def test_a_readme_gives_named_records_whose_ground_truth_is_the_sentence():
    graph = one_chunk_each({"readme_typer.md": TYPER}, heading_titles=True)
    result = generate_short(graph, 6, {"simple": 1.0})
    questions = {r.question: r for r in result.records}
    uv = questions["What does Typer use for dependency management?"]
    assert uv.ground_truth == "This project uses uv for dependency management."
    assert uv.metadata["page"] == "Typer" and uv.metadata["answer"] == "uv"
    assert questions["Which license does Typer use?"].metadata["answer"] == "MIT"


def test_a_lowercase_page_name_opening_a_sentence_is_asked_about():
    page = ("# filesystem_spec\n\nfsspec is a library. Use fsspec for files. Install fsspec. "
            "Call fsspec often.\n\nfsspec uses Black to ensure a consistent code format.\n\n"
            "fsspec welcomes contributions. fsspec asks a maintainer for a review.\n")
    graph = one_chunk_each({"readme_fsspec.md": page}, heading_titles=True)
    result = generate_short(graph, 4, {"simple": 1.0})
    asked = {r.question: r.ground_truth for r in result.records}
    assert asked["What does fsspec use to ensure a consistent code format?"] == (
        "fsspec uses Black to ensure a consistent code format.")
    # "What does fsspec welcome?" asks for anything; "What does fsspec ask for a review?"
    # asks what for whom
    assert not any("welcome" in q or " ask " in q for q in asked)


def test_two_pages_stating_one_licence_or_two_pythons_compare():
    graph = one_chunk_each({"readme_typer.md": TYPER, "readme_rapidfuzz.md": RAPIDFUZZ}, heading_titles=True)
    cqs = read_chunks(graph, graph.chunk_ids(), page_names({
        d: (graph.node(d)["text"], graph.node(d)["source"], graph.node(d)["title"])
        for d in graph.document_ids()}))
    (shared,) = page_comparisons(cqs, random.Random(0))
    assert shared.question == "Which license do RapidFuzz and Typer both use?"
    assert shared.ground_truth == ("RapidFuzz is licensed under the MIT license. This project is "
                                   "licensed under the terms of the MIT license.")
    assert rule_reasons(shared.filter_input([graph.node(i)["text"] for i in shared.chunk_ids])) == []
    assert len(shared.chunk_ids) == 2 and shared.evolution == "multi_context"
    # a different licence on one page: no "both use" (asked which uses one, below)
    other = one_chunk_each({"readme_typer.md": TYPER, "readme_rapidfuzz.md": RAPIDFUZZ.replace(
        "the MIT license", "the Apache license")}, heading_titles=True)
    cqs = read_chunks(other, other.chunk_ids(), page_names({
        d: (other.node(d)["text"], other.node(d)["source"], other.node(d)["title"])
        for d in other.document_ids()}))
    assert [c for c in page_comparisons(cqs, random.Random(0)) if "both" in c.question] == []


def test_the_newer_python_is_checked_against_the_stated_versions():
    sentences = ("This library supports Python 3.9 and higher.", "Rich requires Python 3.8 or later.")
    item = FilterInput("Which requires a newer Python version: IDNA or Rich?", "IDNA. " + " ".join(sentences),
                       "IDNA", sentences, sentences, derived="newer_python", pages=("IDNA", "Rich"))
    assert rule_reasons(item) == []
    swapped = FilterInput(item.question, item.ground_truth, "Rich", sentences[::-1], sentences,
                          derived="newer_python", pages=("IDNA", "Rich"))
    assert rule_reasons(swapped) == ["derivation_wrong"]


OPENAI = ("# OpenAI Python API library\n\nThe OpenAI library is fast. Use OpenAI models. "
          "OpenAI ships it. Use OpenAI.\n\nBeta WebSockets reject X.509 client certificates."
          "\n\nThe primary API for interacting with OpenAI models is the Responses API.\n")


def test_a_statement_about_another_thing_says_which_page():
    graph = one_chunk_each({"readme_openai.md": OPENAI}, heading_titles=True)
    result = generate_short(graph, 4, {"simple": 1.0})
    asked = {r.question for r in result.records}
    # whose WebSockets? the page's
    assert "What do Beta WebSockets reject in the OpenAI Python API library?" in asked
    # a question that names the page's vendor already says which page
    assert "What is the primary API for interacting with OpenAI models?" in asked


def test_only_a_kind_of_thing_is_qualified_by_its_page():
    from testset_gen.offline.chunk_reading import ChunkQuestions
    from testset_gen.offline.composing import on_page
    from testset_gen.offline.questions import Question

    cq = ChunkQuestions("c", "", [], [], {}, {}, page="msgpack")
    single = Question("What is MessagePack licensed under?", "the Apache License", "s", "what",
                      "object", "", "the apache license", topic="MessagePack", topic_label="ORG")
    assert on_page(cq, single, single.text) == (single.text, ())
    kind = Question("What do Beta WebSockets always reject?", "X.509 clients", "s", "what",
                    "object", "", "x.509 clients", topic="Beta WebSockets", topic_label="ORG")
    assert on_page(cq, kind, kind.text) == ("What do Beta WebSockets always reject in msgpack?",
                                             (("page", "msgpack"),))


def test_a_concession_kept_in_the_question_is_not_written():
    # the seed-53 miss: "..., even with explicit headers." carried into the question
    page = OPENAI.replace("Beta WebSockets reject X.509 client certificates.",
                          "Beta WebSockets always reject X.509 clients, even with explicit headers.")
    graph = one_chunk_each({"readme_openai.md": page}, heading_titles=True)
    result = generate_short(graph, 4, {"simple": 1.0})
    asked = {r.question for r in result.records}
    assert "What is the primary API for interacting with OpenAI models?" in asked
    assert not any("WebSockets" in q for q in asked)


def test_a_superlative_purpose_is_asked_nothing():
    assert _asked("You can use git to see the biggest developers.", "SymPy") == {}
    assert _asked("You can use git to see the developers of each file.", "SymPy") == {
        "What can you use to see the developers of each file in SymPy?": "git"}


def test_a_with_phrase_cut_from_its_verb_is_rejected():
    sentence = ("In 2011, Ondřej Čertík stepped down as lead developer, with Aaron Meurer, who "
                "also started as a Google Summer of Code student, taking his place.")
    cut = FilterInput("Who stepped down as lead developer, with Aaron Meurer in 2011?",
                      "In 2011, Ondřej Čertík stepped down as lead developer, with Aaron Meurer.",
                      "Ondřej Čertík", (sentence,), (sentence,))
    assert "rewritten_statement" in rule_reasons(cut)
    whole = FilterInput("Who stepped down as lead developer of SymPy in 2011?",
                        "In 2011, Ondřej Čertík stepped down as lead developer.",
                        "Ondřej Čertík", ("In 2011, Ondřej Čertík stepped down as lead developer.",),
                        ("In 2011, Ondřej Čertík stepped down as lead developer.",))
    assert "rewritten_statement" not in rule_reasons(whole)


# --- documentation reasoning -------------------------------------------------------------


def test_a_python_floor_is_asked_about_the_versions_beside_it():
    (floor,) = doc_questions(["Rich requires Python 3.8 or later."], "Rich")
    asked = {q.text: (q.answer, q.statement) for q in python_support(floor, "Rich")}
    assert asked == {"Can you use Rich with Python 3.7?": ("No", "No. Rich requires Python 3.8 or later."),
                     "Can you use Rich with Python 3.9?": ("Yes", "Yes. Rich requires Python 3.8 or later.")}
    # past the newest release asked about: only the version below
    (newest,) = doc_questions(["Rich requires Python 3.13 or later."], "Rich")
    assert [q.text for q in python_support(newest, "Rich")] == ["Can you use Rich with Python 3.12?"]


def _support_item(question: str, ground_truth: str, answer: str) -> FilterInput:
    sentence = "Rich requires Python 3.8 or later."
    return FilterInput(question, ground_truth, answer, (sentence,), (sentence,),
                       derived="python_support", pages=("Rich",))


def test_the_python_verdict_is_checked_against_the_floor():
    assert rule_reasons(_support_item("Can you use Rich with Python 3.7?",
                                      "No. Rich requires Python 3.8 or later.", "No")) == []
    assert rule_reasons(_support_item("Can you use Rich with Python 3.9?",
                                      "Yes. Rich requires Python 3.8 or later.", "Yes")) == []
    assert rule_reasons(_support_item("Can you use Rich with Python 3.7?",
                                      "Yes. Rich requires Python 3.8 or later.", "Yes")) == ["derivation_wrong"]
    assert rule_reasons(_support_item("Can you use Rich with Python 3.8?",
                                      "No. Rich requires Python 3.8 or later.", "No")) == ["derivation_wrong"]


def test_a_stated_cause_is_asked_why():
    page = "the OpenAI Python API library"
    assert _asked("The context manager is required so that the response will reliably be closed.",
                  page) == {
        "Why is the context manager required in the OpenAI Python API library?":
            "so that the response will reliably be closed"}
    assert _asked("An alternative implementation became necessary because Python 3 changed the API.",
                  "dill") == {
        "Why did an alternative implementation become necessary in dill?":
            "because Python 3 changed the API"}
    # a pronoun subject, a "can" (why it is possible: not what the sentence says), a
    # clause before the cause
    assert _asked("It centralizes the model definition so that this definition is agreed upon.") == {}
    assert _asked("Rich can be installed in the REPL so that data structures are pretty printed.") == {}
    assert _asked("Chardet reads a part of it, because the algorithm does not scale.") == {}
    assert _asked("Rich is fast, and Rich is small because it has no dependencies.") == {}
    # a common noun opening the sentence is lowercased; "you" only with "should" or "must"
    assert _asked("Stream consumption is not retried because replaying a request could duplicate "
                  "output.", page) == {
        "Why is stream consumption not retried in the OpenAI Python API library?":
            "because replaying a request could duplicate output"}
    assert _asked("You have various options to choose from in order to get good embeddings.") == {}


def test_a_why_question_must_leave_its_cause_to_the_answer():
    sentence = "The context manager is required so that the response will reliably be closed."
    q = "Why is the context manager required in the OpenAI Python API library?"
    ok = FilterInput(q, sentence, "so that the response will reliably be closed", (sentence,),
                     (sentence,), derived="cause", pages=("the OpenAI Python API library",))
    assert rule_reasons(ok) == []
    told = FilterInput("Why is the context manager required so that the response will reliably be closed?",
                       sentence, ok.answer, (sentence,), (sentence,), derived="cause",
                       pages=ok.pages)
    assert "derivation_wrong" in rule_reasons(told)


CAUSE_PAGE = ("# Rapid fuzzy matching\n\nRapidFuzz is a fast string matching library. Install "
              "RapidFuzz with pip. Use RapidFuzz for search. RapidFuzz is fast.\n\n"
              "RapidFuzz requires Python 3.10 or later.\n\n"
              "The scorer cache is cleared after each call so that memory use stays flat.\n")


def test_a_readme_gives_reasoning_records_with_the_derivation_in_the_ground_truth():
    graph = one_chunk_each({"readme_rapidfuzz.md": CAUSE_PAGE}, heading_titles=True)
    result = generate_short(graph, 4, {"simple": 0.5, "reasoning": 0.5})
    reasoning = {r.question: r for r in result.records if r.evolution_type == "reasoning"}
    assert set(reasoning) & {"Can you use RapidFuzz with Python 3.9?",
                             "Can you use RapidFuzz with Python 3.11?"}
    assert "Why is the scorer cache cleared after each call in RapidFuzz?" in reasoning
    support = next(r for q, r in reasoning.items() if q.startswith("Can you"))
    assert support.ground_truth.endswith(" RapidFuzz requires Python 3.10 or later.")
    # the floor derived on is not asked as written too
    assert "Which Python version does RapidFuzz require?" not in {r.question for r in result.records}


def test_two_pages_stating_different_licences_ask_which_uses_one():
    graph = one_chunk_each({"readme_typer.md": TYPER, "readme_rapidfuzz.md": RAPIDFUZZ.replace(
        "the MIT license", "the Apache license")}, heading_titles=True)
    cqs = read_chunks(graph, graph.chunk_ids(), page_names({
        d: (graph.node(d)["text"], graph.node(d)["source"], graph.node(d)["title"])
        for d in graph.document_ids()}))
    (which,) = page_comparisons(cqs, random.Random(0))
    assert which.question in ("Which uses the MIT license: RapidFuzz or Typer?",
                              "Which uses the Apache license: RapidFuzz or Typer?")
    assert which.evolution == "multi_context" and len(which.chunk_ids) == 2
    contexts = [graph.node(i)["text"] for i in which.chunk_ids]
    assert rule_reasons(which.filter_input(contexts)) == []
    # the answer's sentence must state the licence asked
    wrong = replace(which.filter_input(contexts), source_sentences=which.filter_input(contexts).source_sentences[::-1])
    assert rule_reasons(wrong) == ["derivation_wrong"]


def test_misses_of_the_larger_docs_folder_are_not_written():
    def reasons(question, sentence, answer):
        return rule_reasons(FilterInput(question, sentence, answer, (sentence,), (sentence,)))

    thinc = "Thinc uses black for auto-formatting, flake8 for linting and mypy for type checking."
    assert "not_a_question" in reasons("What does Thinc use for linting and mypy for type checking?",
                                       thinc, "flake8")
    assert "not_a_question" not in reasons("What does Thinc use for auto-formatting?",
                                           "Thinc uses black for auto-formatting.", "black")
    assert "code_or_markup" in reasons("How do you update olefile?",
                                       "To update olefile, run pip install -U olefile.",
                                       "run pip install -U olefile")
    api = "The full API offers a lot of flexibility and additional options."
    assert "unresolved_reference" in reasons("What does the full API offer?", api,
                                             "a lot of flexibility and additional options")


def test_misses_of_the_seed_61_rating_are_not_written_as_they_were():
    # a bare common noun judged by a copula: a general claim, not the page's
    assert _asked("Configuration is a huge challenge for machine-learning code because you may "
                  "want to expose any detail as a hyperparameter.", "confection") == {}
    # a vague "most ..." answer; a sentence cut inside a dotted code name
    selenium = "Selenium Manager works with most supported platforms and browsers."
    assert "unresolved_reference" in rule_reasons(FilterInput(
        "What does Selenium Manager work with?", selenium, "most supported platforms and browsers",
        (selenium,), (selenium,)))
    cut = "FrozenList is a list-like structure which implements collections.abc."
    assert "code_or_markup" in rule_reasons(FilterInput(
        "What is FrozenList?", cut, "a list-like structure", (cut,), (cut + " MutableSequence.",)))


def test_a_named_part_of_the_page_says_which_page():
    from testset_gen.offline.chunk_reading import ChunkQuestions
    from testset_gen.offline.composing import on_page
    from testset_gen.offline.questions import Question

    cq = ChunkQuestions("c", "", [], [], {}, {}, page="HTTPX")
    part = Question("What does the Developer Interface provide?", "a comprehensive API reference",
                    "s", "what", "object", "", "a comprehensive api reference",
                    topic="the Developer Interface", topic_label="ORG")
    assert on_page(cq, part, part.text) == ("What does the Developer Interface provide in HTTPX?",
                                             (("page", "HTTPX"),))
    # a common noun after "the" is left to the filter's checks
    generic = Question("What does the full API offer?", "flexibility", "s", "what", "object", "",
                       "flexibility", topic="the full API", topic_label="")
    assert on_page(cq, generic, generic.text) == (generic.text, ())
