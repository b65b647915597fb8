"""Conversation samples: every shape they arrive in read into the same messages and calls,
per-turn contexts, and bad conversations named by conversation, turn and field while the
others load."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from ragmeter.conversations import ConversationSample, ToolCall, conversation, load_conversations
from ragmeter.errors import InvalidInput

SEARCH = {"id": "c1", "type": "function", "function": {"name": "search", "arguments": '{"q": "France capital"}'}}
OPENAI = [
    {"role": "system", "content": "You answer questions about Europe."},
    {"role": "user", "content": "What is the capital of France?"},
    {"role": "assistant", "content": None, "tool_calls": [SEARCH]},
    {"role": "tool", "tool_call_id": "c1", "content": json.dumps(["Paris is the capital of France.", "Lyon is in France."])},
    {"role": "assistant", "content": "Paris."},
    {"role": "user", "content": "How many people live there?"},
    {"role": "assistant", "content": "About 2.1 million.", "contexts": ["Paris has 2.1 million inhabitants."]},
]
EXPECTED_CALL = ToolCall(name="search", arguments={"q": "France capital"}, id="c1")


def test_openai_messages_read_with_calls_parsed_and_retrieval_results_as_contexts():
    sample = conversation(OPENAI, retrieval_tools=["search"], reference="Paris, 2.1 million",
                          reference_tool_calls=[{"name": "search", "arguments": {"q": "France capital"}}])
    assert [m.role for m in sample.messages] == ["system", "user", "assistant", "tool", "assistant", "user", "assistant"]
    assert sample.tool_calls == [EXPECTED_CALL]
    assert sample.reference_tool_calls == [ToolCall(name="search", arguments={"q": "France capital"})]
    assert sample.ground_truth == "Paris, 2.1 million"
    assert (sample.question, sample.answer) == ("How many people live there?", "About 2.1 million.")
    first, second = sample.turns()
    assert first.contexts == ("Paris is the capital of France.", "Lyon is in France.")  # a JSON list: one passage each
    assert second.contexts == ("Paris has 2.1 million inhabitants.",)  # the reply's own contexts
    (_, one), (_, two) = sample.turn_samples()
    assert one.question == "What is the capital of France?"
    assert two.question == ("Earlier in the conversation:\n[user 1] What is the capital of France?\n"
                            "[assistant 1] Paris.\n\nQuestion: How many people live there?")
    assert two.answer == "About 2.1 million." and two.contexts == ["Paris has 2.1 million inhabitants."]


def test_without_the_retrieval_tool_marked_the_tool_result_is_no_context():
    sample = conversation(OPENAI)
    assert [t.contexts for t in sample.turns()] == [(), ("Paris has 2.1 million inhabitants.",)]
    assert len(sample.turn_samples()) == 1


def test_the_transcript_names_tools_and_numbers_turns():
    text = conversation(OPENAI).judged_texts()["conversation"]
    assert text.splitlines()[:5] == [
        "[system] You answer questions about Europe.",
        "[user 1] What is the capital of France?",
        '[tool call] search({"q": "France capital"})',
        '[tool result search] ["Paris is the capital of France.", "Lyon is in France."]',
        "[assistant 1] Paris.",
    ]


def test_flat_calls_and_ragas_records_read_the_same():
    flat = conversation([{"role": "user", "content": "What is the capital of France?"},
                         {"role": "assistant", "tool_calls": [{"name": "search", "arguments": {"q": "France capital"}, "id": "c1"}]}])
    ragas = load_conversations([{
        "user_input": [{"type": "human", "content": "What is the capital of France?"},
                       {"type": "ai", "content": "", "tool_calls": [{"name": "search", "args": {"q": "France capital"}}]},
                       {"type": "tool", "content": "Paris is the capital of France."}],
        "reference_tool_calls": [{"name": "search", "args": {"q": "France capital"}}],
        "reference_topics": ["geography"],
    }])
    assert flat.tool_calls == [EXPECTED_CALL]
    (sample,) = ragas.samples
    assert [m.role for m in sample.messages] == ["user", "assistant", "tool"]
    assert sample.tool_calls == sample.reference_tool_calls == [ToolCall(name="search", arguments={"q": "France capital"})]
    assert sample.reference_topics == ["geography"]


def test_langchain_messages_read_with_their_tool_calls():
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

    history = [SystemMessage("You answer questions about Europe."), HumanMessage("What is the capital of France?"),
               AIMessage("", tool_calls=[{"name": "search", "args": {"q": "France capital"}, "id": "c1"}]),
               ToolMessage("Paris is the capital of France.", tool_call_id="c1", name="search"),
               AIMessage("Paris.")]
    (sample,) = load_conversations(history, retrieval_tools=["search"]).samples  # one bare message list
    assert [m.role for m in sample.messages] == ["system", "user", "assistant", "tool", "assistant"]
    assert sample.tool_calls == [EXPECTED_CALL]
    assert sample.turns()[0].contexts == ("Paris is the capital of France.",)


def test_llamaindex_chat_history_reads_with_tool_calls_from_additional_kwargs():
    from llama_index.core.llms import ChatMessage, MessageRole

    history = [ChatMessage(role=MessageRole.USER, content="What is the capital of France?"),
               ChatMessage(role=MessageRole.ASSISTANT, content=None, additional_kwargs={"tool_calls": [SEARCH]}),
               ChatMessage(role=MessageRole.TOOL, content="Paris is the capital of France.",
                           additional_kwargs={"tool_call_id": "c1", "name": "search"}),
               ChatMessage(role=MessageRole.ASSISTANT, content="Paris.")]
    sample = conversation(history, retrieval_tools=["search"])
    assert [m.role for m in sample.messages] == ["user", "assistant", "tool", "assistant"]
    assert sample.tool_calls == [EXPECTED_CALL]
    assert sample.turn_samples()[0][1].contexts == ["Paris is the capital of France."]


def test_pandas_and_hugging_face_datasets_load_one_row_per_conversation():
    from datasets import Dataset as HFDataset

    records = [{"id": "a", "messages": OPENAI, "retrieval_tools": ["search"]},
               {"id": "b", "messages": json.dumps(OPENAI[:5]), "retrieval_tools": ["search"]}]  # a JSON cell
    frame = load_conversations(pd.DataFrame(records))
    assert [s.id for s in frame.samples] == ["a", "b"] and not frame.errors
    assert frame.samples[0].fingerprint() == conversation(OPENAI, retrieval_tools=["search"]).fingerprint()
    hf = load_conversations(HFDataset.from_list([{"id": "a", "messages": json.dumps(OPENAI)}]))
    assert hf.samples[0].tool_calls == [EXPECTED_CALL] and not hf.errors


def test_jsonl_round_trip_keeps_the_fingerprint(tmp_path):
    sample = conversation(OPENAI, id="a", retrieval_tools=["search"], reference_topics=["Europe"],
                          reference_tool_calls=[{"name": "search", "arguments": {"q": "France capital"}}])
    path = tmp_path / "chats.jsonl"
    path.write_text(json.dumps(sample.to_record()) + "\n")
    (back,) = load_conversations(path).samples
    assert back.fingerprint() == sample.fingerprint() and back.id == "a"
    assert conversation(OPENAI[:5]).fingerprint() != sample.fingerprint()


def test_bad_conversations_are_named_by_conversation_turn_and_field_and_the_others_load(tmp_path):
    bad_args = [OPENAI[1], {"role": "assistant", "tool_calls": [{"function": {"name": "search", "arguments": "{q: 1"}}]}]
    lines = [
        json.dumps({"id": "good", "messages": OPENAI}),
        json.dumps({"id": "broken-args", "messages": bad_args}),
        "{not json",
        json.dumps({"conversation_id": "who", "messages": [OPENAI[1], {"role": "narrator", "content": "x"}]}),
        json.dumps({"messages": [{"role": "user", "content": "hi", "tool_calls": [SEARCH]}]}),
        json.dumps({"id": "empty", "messages": []}),
    ]
    path = tmp_path / "chats.jsonl"
    path.write_text("\n".join(lines) + "\n")
    data = load_conversations(path)
    assert [s.id for s in data.samples] == ["good"]
    errors = {e.row: e for e in data.errors}
    assert errors[1].field == "messages[1].tool_calls[0].function.arguments"
    assert errors[1].message.startswith("conversation 'broken-args': turn 2: is not valid JSON")
    assert errors[2].line == 3 and "not valid JSON" in errors[2].message
    assert errors[3].field == "messages[1].role"
    assert errors[3].message == ("conversation 'who': turn 2: unknown role 'narrator'; "
                                 "expected one of user, assistant, tool, system")
    assert errors[4].field == "messages[0].tool_calls" and "conversation at row 4: turn 1:" in errors[4].message
    assert errors[5].field == "messages" and "non-empty list" in errors[5].message


def test_a_bad_single_conversation_raises_the_typed_error():
    with pytest.raises(InvalidInput, match="function.arguments"):
        conversation([{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "[1]"}}]}])
    assert isinstance(conversation(OPENAI), ConversationSample)


def test_arguments_nested_too_deep_are_a_typed_error_naming_the_field_not_a_crash():
    """The one arguments reader (traces use it too) turns json's RecursionError into InvalidInput."""
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(InvalidInput, match=r"messages\[0\]\.tool_calls\[0\]\.function\.arguments': is JSON nested too deep"):
        conversation([{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": deep}}]}])
