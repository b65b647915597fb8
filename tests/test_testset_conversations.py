"""``generate --conversations``: chat scenarios from a folder, offline and through an LLM
(the mock OpenAI server plays the writer), loaded by ``load_conversations``, driven by
``run_chat`` with each turn's reference kept, and scored."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragmeter import evaluate_conversations
from ragmeter.adapters.chat import run_chat
from ragmeter.cli.app import app
from ragmeter.conversations import load_conversations
from ragmeter.errors import JudgeFailedThroughout
from ragmeter.testing import OpenAIMockServer
from testset_gen import testing as scripted
from testset_gen.conversations import generate_conversations
from testset_gen.conversations.follow_ups import conversations_from_records, what_about, with_pronoun, find_subject
from testset_gen.conversations.page_walk import page_conversations
from testset_gen.conversations.topic_references import and_condition
from testset_gen.record import TestsetRecord
from testset_corpus import LINKED_FILES

WRITER = "You write test conversations"


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def docs(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("chats")
    for name, text in LINKED_FILES.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def offline(docs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return generate_conversations(docs, 3, turns=3, cache=False)


def record(question: str, ground_truth: str, chunk: str, **meta) -> TestsetRecord:
    return TestsetRecord(id=f"q-{abs(hash(question))}", question=question, ground_truth=ground_truth,
                         reference_contexts=[f"text of {chunk}"], evolution_type="simple",
                         reference_context_ids=[chunk], sources=[{"source": "tents.md"}], metadata=meta)


def test_a_follow_up_is_reworded_to_lean_on_the_turn_before():
    curie = record("When was Marie Curie born in Warsaw?", "Marie Curie was born in Warsaw in 1867.", "c1",
                   subject="Marie Curie", subject_label="PERSON")
    subject = find_subject(curie)
    assert subject is not None and subject.span == "Marie Curie"
    # no pronoun for her in the passage: "they"; with one, hers
    assert with_pronoun("What did Marie Curie discover with Pierre Curie?", subject) == \
        "What did they discover with Pierre Curie?"
    curie.reference_contexts[0] = "Marie Curie was born in Warsaw in 1867. She moved to Paris in 1891."
    told = find_subject(curie)
    assert told is not None and with_pronoun("Who worked with Marie Curie in Paris?", told) == "Who worked with her in Paris?"
    tower = record("How tall is the Eiffel Tower?", "It is 330 metres tall.", "c2", page="the Eiffel")
    found = find_subject(tower)
    assert found is not None and found.span == "the Eiffel Tower"  # the whole name, not the page's stub
    assert with_pronoun("When was the Eiffel Tower's lift opened?", found) == "When was its lift opened?"
    assert with_pronoun("What is the Eiffel Tower?", found) is None  # "What is it?" asks nothing
    assert what_about("What is the weight of the Trailhead 2?", "What is the price of the Trailhead 2?") == \
        "And what about the price?"
    assert what_about("When was Marie Curie born?", "Why did Marie Curie move?") is None


def test_offline_conversations_share_one_table_and_never_reuse_a_record():
    weight = record("What is the weight of the Trailhead 2?", "The Trailhead 2 weighs 1.8 kg.", "t1",
                    subject="the Trailhead 2")
    price = record("What is the price of the Trailhead 2?", "The Trailhead 2 costs 240 euros.", "t1",
                   subject="the Trailhead 2")
    stove = record("What is the weight of the Ember Stove?", "The Ember Stove weighs 310 g.", "t2",
                   subject="the Ember Stove")
    lone = record("Who founded Acme in Springfield?", "Jane Doe founded Acme.", "t9", subject="Acme")
    made = conversations_from_records([weight, price, stove, lone], 5, 3)
    (chat,) = made.scenarios  # the lone subject makes no conversation
    truth = {r.question: r.ground_truth for r in (weight, price, stove)}
    assert sorted(t.standalone for t in chat.turns) == sorted(truth)  # each record once
    assert all(t.ground_truth == truth[t.standalone] for t in chat.turns)
    # the seeded order opened with the stove: its sibling row of the same frame, then the
    # other fact of the tent's table row, each asked as a follow-up of the turn before
    assert [t.question for t in chat.turns] == ["What is the weight of the Ember Stove?",
                                                "And what about the Trailhead 2?", "And what about the price?"]
    assert [t.metadata["structure"] for t in chat.turns] == ["opening", "same_frame", "same_section"]


def test_offline_conversations_from_a_folder_refer_back_with_grounded_turns(offline, tmp_path):
    assert len(offline.conversations) >= 2, offline.why_short()
    for chat in offline.conversations:
        assert 2 <= len(chat.turns) <= 3
        first, *follow = chat.turns
        assert first.question == first.standalone and chat.subject.lower() in first.question.lower()
        for t in follow:
            assert t.question != t.standalone and t.refers_back in ("pronoun", "what_about")
            if t.refers_back == "pronoun":  # the subject is gone from the follow-up, a pronoun in its place
                assert chat.subject.lower() not in t.question.lower()
                assert re.search(r"\b(it|its|she|her|he|him|his|they|them|their)\b", t.question)
            # the ground truth is a filtered record's, from passages of the same structure
            assert t.ground_truth.strip() and t.reference_contexts
            assert t.metadata["structure"] in ("same_section", "same_page", "bridged", "same_frame")
    path = offline.conversations.to_jsonl(tmp_path / "chats.jsonl")
    loaded = load_conversations(path)
    assert not loaded.errors and len(loaded) == len(offline.conversations)
    for sample, chat in zip(loaded.samples, offline.conversations):
        assert [m.content for m in sample.messages if m.role == "user"] == [t.question for t in chat.turns]
        assert [t.reply.reference for t in sample.turns()] == [t.ground_truth for t in chat.turns]
        assert [t["standalone"] for t in sample.metadata["turns"]] == [t.standalone for t in chat.turns]


def test_generated_conversations_drive_a_chat_app_and_are_scored_per_turn(offline, tmp_path):
    path = offline.conversations.to_jsonl(tmp_path / "chats.jsonl")
    truths = {t.question: t.ground_truth for c in offline.conversations for t in c.turns}
    first = {c.turns[0].question for c in offline.conversations}

    def app(messages):  # right on the opening turn, wrong on every follow-up
        asked = messages[-1]["content"]
        return {"answer": truths[asked] if asked in first else "I do not know.", "contexts": ["a passage"]}

    run = run_chat(str(path), app, show_progress=False)
    assert not run.errors and len(run.dataset) == len(offline.conversations)
    for sample, chat in zip(run.dataset.samples, offline.conversations):
        assert [t.reply.reference for t in sample.turns()] == [t.ground_truth for t in chat.turns]
    result = evaluate_conversations(run.dataset, ["token_f1"], show_progress=False, journal=False, record=False,
                                    cache=False)
    for chat, score in zip(offline.conversations, result["token_f1"]):
        assert score == pytest.approx(1.0 / len(chat.turns), abs=0.05)  # turn 1 right, the rest 0 (or nearly)


def test_the_llm_path_writes_each_conversation_in_one_call(docs, tmp_path):
    personas = [{"name": "Physics student", "role_description": "Studies the history of radioactivity."}]
    with OpenAIMockServer(chat_responder=scripted.respond) as server:
        result = generate_conversations(docs, 3, turns=3, judge=f"openai:mock-writer@{server.base_url}",
                                        personas=personas, cache=False, concurrency=1)
        sent = [c.json["messages"][0]["content"] for c in server.calls("/chat/completions")]
    assert len(result.conversations) == 3 and not result.judge_faults
    assert sum(s.startswith(WRITER) for s in sent) == len(sent) == 3  # one call per conversation, nothing else
    for chat in result.conversations:
        assert chat.metadata["persona"] == "Physics student"
        assert chat.turns[0].question.startswith("Physics student asks")  # the persona reached the prompt
        assert all(t.refers_back == "llm" and t.question != t.standalone for t in chat.turns[1:])
        for t in chat.turns:  # the ground truth is a sentence of its passages
            assert any(t.ground_truth in c for c in t.reference_contexts)
    loaded = load_conversations(result.conversations.to_jsonl(tmp_path / "llm.jsonl"))
    assert not loaded.errors and len(loaded) == 3


def test_a_judge_that_fails_every_call_stops_the_run_and_is_named(docs):
    with OpenAIMockServer(chat_responder=lambda request: "{not json") as server:
        with pytest.raises(JudgeFailedThroughout, match=r"every one of the \d+ calls to the judge openai:mock-writer"):
            generate_conversations(docs, 2, judge=f"openai:mock-writer@{server.base_url}", cache=False,
                                   personas=[{"name": "Reader", "role_description": "Reads."}])


def test_cli_exits_1_and_names_the_judge_when_it_fails_throughout(docs, tmp_path):
    out = tmp_path / "chats.jsonl"
    with OpenAIMockServer(chat_responder=scripted.FaultMix(seed=0, malformed=0, refusal=1.0, wrong_language=0,
                                                          truncated=0)) as server:
        done = CliRunner().invoke(app, ["generate", str(docs), "--conversations", "-n", "2", "--turns", "2",
                                        "--out", str(out), "--judge", f"openai:mock-writer@{server.base_url}",
                                        "--cache-dir", str(tmp_path / "c"), "-q"])
    assert done.exit_code == 1, done.output
    text = " ".join(done.output.split())
    assert re.search(r"error: every one of the \d+ calls to the judge openai:mock-writer@\S+ failed", text), text
    assert "documents were not the cause" in text and not out.exists()


def test_cli_writes_offline_conversations_with_a_summary(docs, tmp_path):
    out = tmp_path / "chats.jsonl"
    done = CliRunner().invoke(app, ["generate", str(docs), "--conversations", "-n", "2", "--turns", "2",
                                    "--out", str(out), "--no-cache", "-q"])
    assert done.exit_code == 0, done.output
    assert "conversations: 2 of 2" in done.output and "follow-ups refer back by" in done.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 2 and all(len(r["metadata"]["turns"]) == 2 for r in rows)


def test_cli_says_which_single_question_options_a_chat_set_does_not_use(docs, tmp_path):
    done = CliRunner().invoke(app, ["generate", str(docs), "--conversations", "-n", "2", "--graph-out",
                                    str(tmp_path / "g.json"), "--exact-mix", "--out", str(tmp_path / "c.jsonl")])
    assert done.exit_code == 2
    assert "--exact-mix, --graph-out: not used with --conversations" in " ".join(done.output.split())
    assert not (tmp_path / "c.jsonl").exists()


def doc_record(question: str, page: str, chunk: str, **meta) -> TestsetRecord:
    return TestsetRecord(id=f"q-{abs(hash(question))}", question=question, ground_truth=f"answer to {question}",
                         reference_contexts=[f"text of {chunk}"], evolution_type="simple",
                         reference_context_ids=[chunk], sources=[{"source": page}], metadata={"page": "Poetry", **meta})


def test_a_documentation_page_makes_a_chat_whose_follow_ups_lean_on_the_section_before():
    # no named subject in any question: the subject path finds nothing, the page walk does
    groups = doc_record("What are optional groups in Poetry?", "deps.md", "c1",
                        template="structure:section_what", heading="Optional groups")
    add = doc_record("How do you add a dependency to a group in Poetry?", "deps.md", "c2",
                     template="structure:section_how", heading="Adding a dependency to a group")
    include = doc_record("How do you include dependencies from other groups in Poetry?", "deps.md", "c3",
                         template="structure:section_how", heading="Including dependencies from other groups")
    other = doc_record("How do you delete the environments in Poetry?", "envs.md", "c9",
                       template="structure:section_how", heading="Deleting the environments")
    records = [groups, add, include, other]
    made = conversations_from_records(records, 2, 3)
    assert not made.scenarios
    (chat,) = page_conversations(records, 2, 3, made.used)  # the other page has one record: no chat
    assert [t.question for t in chat.turns] == [
        "What are optional groups in Poetry?",
        "How do you add a dependency to one of them in Poetry?",  # the previous turn's topic, a pronoun
        "And what about including dependencies from other groups?"]  # the same section frame, re-aimed
    assert [t.refers_back for t in chat.turns] == ["", "topic_pronoun", "what_about"]
    assert [t.standalone for t in chat.turns] == [r.question for r in (groups, add, include)]
    assert all(t.ground_truth == f"answer to {t.standalone}" for t in chat.turns)
    assert chat.metadata["page"] == "deps.md" and made.used == {groups.id, add.id, include.id}


def test_the_same_rule_asked_under_another_condition_is_an_and_if_follow_up():
    assert and_condition("What should you do if you have a deadline?",
                         "What should you do before you craft a voice?") == "And before you craft a voice?"
    assert and_condition("What should you do if you have a deadline?", "Why should you prefer the active voice?") is None
    # "what about" takes a noun phrase: never a clause or a verb phrase
    assert what_about("What should you do if you have a deadline?",
                      "What should you do if your piece needs more context?") is None
    assert what_about("How do you list the current configuration in Poetry?",
                      "How do you remove a specific setting in Poetry?") is None
    assert what_about("What is a threat in the Threat Model?", "What is the denial of service of the Threat Model?") is None
    assert what_about("What is a threat of the Threat Model?", "What is the denial of service of the Threat Model?") == \
        "And what about the denial of service?"
    constant = doc_record("What is a constant variable?", "vars.md", "v1", heading="Constant variable")
    from testset_gen.conversations.topic_references import topic_pronoun
    assert topic_pronoun(constant, "What is the difference between mutable variables and constant variable?") is None
    deadline = doc_record("What should you do if you have a deadline?", "feedback.md", "f1")
    context = doc_record("What should you do if your piece needs more context?", "feedback.md", "f2")
    (chat,) = page_conversations([deadline, context], 1, 3, set())
    assert [t.question for t in chat.turns] == ["What should you do if you have a deadline?",
                                                "And if your piece needs more context?"]


def test_a_page_chat_keeps_a_standalone_turn_but_needs_one_real_back_reference():
    why = doc_record("Why should you commit the lock file to your repository?", "usage.md", "u1")
    how = doc_record("How do you install dependencies in Poetry?", "usage.md", "u2",
                     template="structure:section_how", heading="Installing dependencies")
    only = doc_record("How do you install dependencies only in Poetry?", "usage.md", "u3",
                      template="structure:section_how", heading="Installing dependencies only")
    assert page_conversations([why, how], 1, 3, set()) == []  # nothing refers back: not a chat test
    (chat,) = page_conversations([why, how, only], 1, 3, set())
    assert [t.refers_back for t in chat.turns] == ["", "what_about", ""]
    assert chat.turns[1].question == "And what about installing dependencies only?"
    assert chat.turns[2].question == chat.turns[2].standalone == why.question
    # a page qualifier or a file name is no subject to replace with a pronoun
    poetry = find_subject(doc_record("What is Poetry?", "index.md", "p0", term="Poetry"))
    assert poetry is None or with_pronoun("How do you add a dependency to a group in Poetry?", poetry) is None
    assert poetry is None or "it.lock" not in (with_pronoun("Why should you commit the poetry.lock file?", poetry) or "")


def test_cli_prints_the_warnings_it_caught_when_the_run_then_fails(tmp_path):
    """A German-only folder: the offline generator warns that it skips the file, then fails for
    want of English documents; the warning (the why) is printed with the error, not lost."""
    folder = tmp_path / "de"
    folder.mkdir()
    (folder / "zelt.md").write_text(
        "# Das Zelt aufbauen\n\nDas Zelt wird auf einer ebenen Fläche aufgebaut. Zuerst legt man die Bodenplane "
        "aus und steckt die Ecken mit Heringen fest. Danach werden die Stangen durch die Kanäle geschoben und in die "
        "Ösen gesteckt. Die Abspannleinen halten das Zelt bei Wind stabil und sollten straff gespannt werden.\n",
        encoding="utf-8")
    out = tmp_path / "chats.jsonl"
    done = CliRunner().invoke(app, ["generate", str(folder), "--conversations", "-n", "2", "--turns", "2",
                                    "--out", str(out), "--no-cache", "-q"])
    text = " ".join(done.output.split())
    assert done.exit_code == 2, done.output
    assert "error: no English documents" in text
    assert "warning: offline generator: skipped documents not in English (German: zelt.md)" in text
    assert not out.exists()
