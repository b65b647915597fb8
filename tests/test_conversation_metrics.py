"""The judged conversation metrics and per-turn RAG metrics end to end, through the OpenAI
mock server: hand-written verdicts give hand-computed scores, every conversation judgement
of a conversation goes in one call, each turn's single-turn judgements in one call per
phase, and the engine's journal, dry run, local judge, cascade and CLI work per conversation."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from ragmeter import evaluate_conversations
from ragmeter.cli.app import app
from ragmeter.engine import estimate_conversations
from ragmeter.metrics import (
    TopicAdherence,
    conversation_completeness_score,
    knowledge_retention_score,
    topic_adherence_score,
)
from ragmeter.testing import OpenAIMockServer, scripted_judge


def turns(*pairs: tuple[str, str]) -> list[dict[str, str]]:
    return [m for user, reply in pairs for m in ({"role": "user", "content": user}, {"role": "assistant", "content": reply})]


BOOKING = {
    "id": "booking",
    "messages": turns(("I'm vegan. Book a table for two on Friday.", "Booked for four on Friday."),
                      ("What is on the menu?", "Steak and fries."),
                      ("And the wine list?", "I can only help with bookings and the menu."),
                      ("Who won the football?", "I can only help with bookings and the menu.")),
    "reference": "A table for two is booked on Friday.",
    "reference_topics": ["restaurant bookings", "the menu"],
}
WEATHER = {"id": "weather", "messages": turns(("Weather in Paris?", "Sunny, 20 degrees."), ("And tomorrow?", "Rain."))}

# what a careful judge would say, written by hand per conversation (keyed by its first user message)
VERDICTS = {
    "I'm vegan. Book a table for two on Friday.": {
        "agent_goal_with_reference": {"goal": "a table for two on Friday", "outcome": "a table for four",
                                      "reason": "Four, not two.", "achieved": False},
        # (answered, on topic): TP menu+booking, FN wine list (on topic, refused), football refused off topic
        "topic_adherence": {"verdicts": [
            {"reason": "a booking", "answered": True, "on_topic": True},
            {"reason": "the menu", "answered": True, "on_topic": True},
            {"reason": "wine is on the menu but refused", "answered": False, "on_topic": True},
            {"reason": "football, declined", "answered": False, "on_topic": False}]},
        "knowledge_retention": {"verdicts": [
            {"reason": "no fact contradicted", "verdict": True},
            {"reason": "steak for a vegan", "verdict": False},
            {"reason": "fine", "verdict": True}, {"reason": "fine", "verdict": True}]},
        "conversation_completeness": {"intentions": [
            {"intention": "a table for two on Friday", "reason": "booked for four", "satisfied": False},
            {"intention": "the menu", "reason": "given", "satisfied": True}]},
    },
    "Weather in Paris?": {
        "agent_goal": {"goal": "the weather in Paris", "outcome": "today's and tomorrow's", "reason": "Both given.",
                       "achieved": True},
        "knowledge_retention": {"verdicts": [{"reason": "fine", "verdict": True}, {"reason": "fine", "verdict": True}]},
        "conversation_completeness": {"intentions": [
            {"intention": "weather today", "reason": "given", "satisfied": True},
            {"intention": "weather tomorrow", "reason": "given", "satisfied": True},
            {"intention": "in Celsius", "reason": "not said", "satisfied": False}]},
    },
}
CONVERSATION_METRICS = ["agent_goal_accuracy", "topic_adherence", "knowledge_retention", "conversation_completeness"]


def respond(request):
    user = request["messages"][-1]["content"]
    match = re.search(r"<conversation>\n\[user 1\] (.*?)\n", user)
    if match is None:
        return scripted_judge.respond(request)  # a turn's single-turn judgements
    keys = re.findall(r"^Task (\w+):", user, re.MULTILINE)
    return json.dumps({k: VERDICTS[match.group(1)][k] for k in keys})


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def server():
    with OpenAIMockServer(chat_responder=respond) as srv:
        yield srv


def run(server, data, metrics, **options):
    for key, value in {"show_progress": False, "journal": False, "record": False,
                       "judge_options": {"timeout": 5.0}}.items():
        options.setdefault(key, value)
    return evaluate_conversations(data, metrics, judge=f"openai:mock-judge@{server.base_url}",
                                  embedder=f"openai:mock-embed@{server.base_url}", **options)


def tasks_sent(server):
    return [re.findall(r"^Task (\w+):", r.json["messages"][-1]["content"], re.MULTILINE)
            for r in server.calls("/chat/completions")]


def test_formulas_by_hand():
    # TP 2, FP 0, FN 1: precision 1, recall 2/3, f1 2 * 2/3 / (5/3) = 0.8
    answered, on_topic = [True, True, False, False], [True, True, True, False]
    assert topic_adherence_score(answered, on_topic) == pytest.approx(0.8)
    assert topic_adherence_score(answered, on_topic, "precision") == 1.0
    assert topic_adherence_score(answered, on_topic, "recall") == pytest.approx(2 / 3)
    assert topic_adherence_score([False], [False]) == 0.0  # nothing answered on topic: Ragas' zero
    assert knowledge_retention_score([True, False, True, True]) == 0.75
    assert knowledge_retention_score([]) is None
    assert conversation_completeness_score([False, True]) == 0.5 and conversation_completeness_score([]) is None


def test_hand_written_verdicts_give_hand_computed_scores_in_one_call_per_conversation(server):
    result = run(server, [BOOKING, WEATHER], CONVERSATION_METRICS)
    assert result["agent_goal_accuracy"] == [0.0, 1.0]
    assert result["topic_adherence"][0] == pytest.approx(0.8)
    assert result["knowledge_retention"] == [0.75, 1.0]
    assert result["conversation_completeness"] == pytest.approx([0.5, 2 / 3])
    weather = result.samples[1].scores["topic_adherence"]
    assert weather.value is None and weather.error.kind == "MissingInput"  # no reference_topics
    booking = result.samples[0].scores
    assert booking["knowledge_retention"].reason == ("3 of 4 replies keep what the user said; "
                                                     "assistant 2: steak for a vegan")
    assert booking["agent_goal_accuracy"].reason.startswith("not achieved (the reference outcome: a table for two")
    assert booking["topic_adherence"].verdicts[2] == {"user": "And the wine list?", "reason": "wine is on the menu but refused",
                                                      "answered": False, "on_topic": True}
    sent = sorted(sorted(t) for t in tasks_sent(server))
    assert sent == [["agent_goal", "conversation_completeness", "knowledge_retention"],
                    ["agent_goal_with_reference", "conversation_completeness", "knowledge_retention", "topic_adherence"]]
    prompt = next(r.json["messages"][-1]["content"] for r in server.calls("/chat/completions")
                  if "topic_adherence" in r.json["messages"][-1]["content"])
    assert prompt.count("[user 1] I'm vegan. Book a table") == 1  # the transcript goes once for all four judgements
    assert '<reference>\nA table for two is booked on Friday.\n</reference>' in prompt
    assert '<topic n="2">\nthe menu\n</topic>' in prompt
    assert result.usage["judge"].calls == 2


def test_topic_adherence_mode_is_part_of_the_run():
    assert TopicAdherence("recall").config() == {"mode": "recall"}
    with pytest.raises(ValueError, match="mode must be one of"):
        TopicAdherence("accuracy")


RAG_CHAT = {
    "id": "france",
    "messages": [
        {"role": "user", "content": "What is the capital of France?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "search", "arguments": '{"q": "capital of France"}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": '["Paris is the capital of France."]'},
        {"role": "assistant", "content": "Paris is the capital of France."},
        {"role": "user", "content": "How many people live there?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c2", "type": "function", "function": {"name": "search", "arguments": '{"q": "Paris population"}'}}]},
        {"role": "tool", "tool_call_id": "c2", "content": '["Paris has 2.1 million inhabitants."]'},
        {"role": "assistant", "content": "Paris has 2.1 million inhabitants. Paris lies on the Loire."},
        {"role": "user", "content": "Thanks!"},
        {"role": "assistant", "content": "You are welcome."},
    ],
    "reference_tool_calls": [{"name": "search", "arguments": {"q": "capital of France"}},
                             {"name": "search", "arguments": {"q": "Paris population"}}],
}
VERDICTS["What is the capital of France?"] = {
    "knowledge_retention": {"verdicts": [{"reason": "fine", "verdict": True}] * 3},
}


def test_single_turn_metrics_score_each_reply_with_contexts_and_keep_every_turn(server):
    result = run(server, [RAG_CHAT], ["faithfulness", "knowledge_retention", "tool_call_accuracy"],
                 retrieval_tools=["search"])
    faith = result.samples[0].scores["faithfulness"]
    # turn 1: its one claim is in the passage (1.0); turn 2: "lies on the Loire" is not (1 of 2): mean 0.75
    assert faith.value == pytest.approx(0.75)
    assert faith.reason == "mean of 2 turns: turn 1 1.00, turn 2 0.50"
    assert [(t["turn"], t["value"]) for t in faith.verdicts] == [(1, 1.0), (2, 0.5)]  # turn 3 has no contexts
    assert result["tool_call_accuracy"] == [1.0] and result["knowledge_retention"] == [1.0]
    frame = result.turns_to_pandas()
    assert frame[["metric", "turn", "value"]].values.tolist() == [["faithfulness", 1, 1.0], ["faithfulness", 2, 0.5]]
    assert frame.question.tolist() == ["What is the capital of France?", "How many people live there?"]
    sent = tasks_sent(server)
    # the conversation's call, and per turn one call for the claims and one for their verdicts
    assert sorted(map(tuple, sent)) == [("answer_claims",), ("answer_claims",), ("answer_support",),
                                        ("answer_support",), ("knowledge_retention",)]
    second_turn = next(r.json["messages"][-1]["content"] for r in server.calls("/chat/completions")
                       if "Loire" in r.json["messages"][-1]["content"] and "answer_claims" in r.json["messages"][-1]["content"])
    assert "Earlier in the conversation:\n[user 1] What is the capital of France?" in second_turn


def test_journal_resumes_and_cache_answers_per_conversation_and_the_dry_run_counts_one_call_each(server, tmp_path):
    journal = tmp_path / "journal.jsonl"
    guess = estimate_conversations([BOOKING, WEATHER], CONVERSATION_METRICS, judge=f"openai:mock@{server.base_url}",
                                   show_progress=False)
    assert guess.calls == 2 and guess.samples == 2 and not server.calls("/chat/completions")
    first = run(server, [BOOKING, WEATHER], CONVERSATION_METRICS, journal=journal)
    calls = len(server.calls("/chat/completions"))
    again = run(server, [BOOKING, WEATHER], CONVERSATION_METRICS, journal=journal)
    assert len(server.calls("/chat/completions")) == calls  # nothing asked again
    assert again.info.resumed_scores == 8  # 2 x 4, the MissingInput too (not retried on resume)
    assert again["knowledge_retention"] == first["knowledge_retention"]
    changed = dict(WEATHER, messages=WEATHER["messages"][:3] + [{"role": "assistant", "content": "Rain, 12 degrees."}])
    changed_run = run(server, [BOOKING, changed], CONVERSATION_METRICS, journal=journal)
    assert len(server.calls("/chat/completions")) == calls + 1  # a new run; the cache answers the unchanged one
    assert changed_run.usage["judge"].cache_hits == 1


def test_the_local_judge_says_it_needs_an_llm_and_the_cascade_sends_it_on(server):
    local = evaluate_conversations([WEATHER], ["agent_goal_accuracy", "knowledge_retention"], judge="local",
                                   show_progress=False, journal=False, record=False, cache=False)
    for name in ("agent_goal_accuracy", "knowledge_retention"):
        assert local.samples[0].scores[name].error.kind == "NeedsLLMJudge"
    cascade = evaluate_conversations([WEATHER], ["agent_goal_accuracy", "knowledge_retention"],
                                     judge=f"local+openai:mock@{server.base_url}", show_progress=False,
                                     journal=False, record=False, cache=False)
    assert cascade["agent_goal_accuracy"] == [1.0] and cascade["knowledge_retention"] == [1.0]
    assert len(server.calls("/chat/completions")) == 1


def test_cli_evaluates_a_file_of_conversations(server, tmp_path):
    path = tmp_path / "chats.jsonl"
    path.write_text("\n".join(json.dumps(c) for c in [RAG_CHAT, {"id": "bad", "messages": [{"role": "x"}]}]) + "\n")
    out = tmp_path / "result.json"
    result = CliRunner().invoke(app, [
        "evaluate", str(path), "--conversations", "--retrieval-tool", "search", "-m",
        "tool_call_accuracy,tool_call_f1,faithfulness", "--judge", f"openai:mock@{server.base_url}",
        "--no-record", "-q", "--out", str(out)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "tool_call_accuracy │ 1.000" in result.output and "faithfulness       │ 0.750" in result.output
    # rich wraps the line at the console's width, which an earlier test may have fixed
    assert "conversation 'bad': turn 1: unknown role 'x'" in " ".join(result.output.split()), result.output
    saved = json.loads(out.read_text())
    assert saved["samples"][0]["scores"]["faithfulness"]["verdicts"][1]["value"] == 0.5


def test_a_saved_result_keeps_its_conversations_and_the_report_shows_them_turn_by_turn(server, tmp_path):
    from ragmeter import EvaluationResult
    from ragmeter.conversations import ConversationSample
    from ragmeter.report import render_report
    from ragmeter.report.payload import sample_record

    result = run(server, [RAG_CHAT], ["faithfulness", "tool_call_accuracy"], retrieval_tools=["search"])
    back = EvaluationResult.load(result.save(tmp_path / "result.json"))
    sample = back.samples[0].sample
    assert isinstance(sample, ConversationSample) and sample.fingerprint() == result.samples[0].sample.fingerprint()
    assert EvaluationResult.load(result.save(tmp_path / "result.parquet")) == back  # Parquet keeps it whole too
    assert back["faithfulness"] == [0.75] and back.turns_to_pandas().value.tolist() == [1.0, 0.5]
    record = sample_record(back.samples[0], ["faithfulness", "tool_call_accuracy"])
    assert record["conv"][1] == {"role": "assistant", "tool_calls": [{"name": "search", "arguments": {"q": "capital of France"}}]}
    assert record["conv"][2]["name"] == "search"  # the tool result, named after its call
    assert record["more"]["retrieval tools"] == ["search"]
    assert [m["role"] for m in record["conv"]].count("user") == 3
    assert [t["turn"] for t in record["s"][0]["vd"]] == [1, 2]  # each turn's score and reason on the card
    page = render_report(back)
    assert "conversationBlock" in page and "Paris lies on the Loire" in page


def test_labels_on_conversation_metrics_align_with_the_judge(server, tmp_path):
    from ragmeter.align import align, load_labels

    path = tmp_path / "labels.jsonl"
    rows = [dict(BOOKING, labels={"knowledge_retention": 0.75, "agent_goal_accuracy": 0}, note="steak for a vegan"),
            dict(WEATHER, labels={"knowledge_retention": 0.25, "agent_goal_accuracy": 1}),
            {"id": "broken", "messages": [{"role": "user"}, {"role": "assistant", "tool_calls": "x"}], "labels": {"x": 1}}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    labels = load_labels(path)
    assert [s.sample.id for s in labels.samples] == ["booking", "weather"]
    assert labels.errors[0].field == "messages[1].tool_calls" and labels.errors[0].line == 3
    report = align(labels, judge=f"openai:mock@{server.base_url}", cache=False, judge_options={"timeout": 5.0})
    by_metric = report.runs[0].metrics
    # the judge agrees on both goals; on retention it says 0.75 and 1.0 against labels 0.75 and 0.25
    goal, retention = by_metric["agent_goal_accuracy"], by_metric["knowledge_retention"]
    assert goal.n == 2 and goal.scores == goal.labels == [0.0, 1.0]
    assert retention.scores == [0.75, 1.0] and retention.labels == [0.75, 0.25]
    assert retention.confusion == {"tp": 1, "fp": 1, "fn": 0, "tn": 0}  # passes at 0.5: the judge passes 0.25
    assert report.runs[0].calls == 2  # one call per conversation for both metrics


def test_the_calls_bench_ragmeter_side_asks_once_per_conversation_and_scores_the_hand_judgements():
    from bench.bench_conversation_calls import run_ragmeter

    meter, scores = run_ragmeter()
    # goal achieved or not; topic F1 from (answered, on topic) per user message, e.g. refund:
    # TP 1, FN 2 -> precision 1, recall 1/3, f1 0.5; weather: TP 2, FP 1 -> 2/3 and 1, f1 0.8
    assert scores == {"booking": {"agent_goal_accuracy": 1.0, "topic_adherence": 1.0},
                      "refund": {"agent_goal_accuracy": 0.0, "topic_adherence": pytest.approx(0.5)},
                      "weather": {"agent_goal_accuracy": 1.0, "topic_adherence": pytest.approx(0.8)},
                      "flight": {"agent_goal_accuracy": 1.0, "topic_adherence": 1.0}}
    assert dict(meter.calls) == {"booking": 1, "refund": 1, "weather": 1, "flight": 1}


def test_the_local_judge_scores_each_turn_itself_and_declines_only_the_conversation_judgements():
    result = evaluate_conversations([RAG_CHAT], ["faithfulness", "agent_goal_accuracy"], retrieval_tools=["search"],
                                    judge="local", show_progress=False, journal=False, record=False, cache=False)
    faith = result.samples[0].scores["faithfulness"]
    assert faith.error is None and [t["turn"] for t in faith.verdicts] == [1, 2]
    assert faith.verdicts[0]["value"] == 1.0  # "Paris is the capital of France." is the passage itself
    assert [v["claim"] for v in faith.verdicts[1]["verdicts"]][-1] == "Paris lies on the Loire."
    assert result.samples[0].scores["agent_goal_accuracy"].error.kind == "NeedsLLMJudge"
    assert result.usage["judge"].calls == 0
