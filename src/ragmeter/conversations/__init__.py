"""Conversations and agent runs as samples: chat-format messages, tool calls, per-turn contexts.

* ``ConversationSample``: the messages (OpenAI chat format; Ragas, LangChain and LlamaIndex
  shapes read too), ``reference_tool_calls``, ``reference`` (the outcome wanted),
  ``reference_topics``, ``retrieval_tools``; its ``turns()`` and ``turn_samples()``;
* ``ToolCall`` and ``Message``, with both tool-call forms read into one; ``tool_arguments``,
  the one reader of a call's arguments (JSON string or object), traces' too;
* ``load_conversations``: a Dataset of conversations from files, frames, HF datasets, lists.
"""

from ragmeter.conversations._load import conversation, load_conversations
from ragmeter.conversations._message import Message, read_message
from ragmeter.conversations._sample import ConversationSample, Turn, render_history
from ragmeter.conversations._tool_call import ToolCall, tool_arguments

__all__ = ["ConversationSample", "Message", "ToolCall", "Turn", "conversation", "load_conversations", "read_message",
           "render_history", "tool_arguments"]
