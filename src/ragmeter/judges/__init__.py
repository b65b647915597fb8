"""Judges: prompt + pydantic output type -> validated object, behind one middleware stack."""

from ragmeter.judges.llm_judge import LLMJudge
from ragmeter.judges.local import LocalJudge
from ragmeter.judges.openai_chat import OpenAIChatBackend
from ragmeter.judges.protocol import ChatBackend, ChatCompletion, ChatRequest, Judge, Message, Prompt
from ragmeter.judges.spec import get_judge, parse_judge_spec

__all__ = [
    "ChatBackend",
    "ChatCompletion",
    "ChatRequest",
    "Judge",
    "LLMJudge",
    "LocalJudge",
    "Message",
    "OpenAIChatBackend",
    "Prompt",
    "get_judge",
    "parse_judge_spec",
]
