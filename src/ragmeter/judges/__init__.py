"""Judges: every kind answers the facts layer's tasks through one seam (``Judge``).

``get_judge(spec, options=...)`` builds one from its name ("local", "openai:MODEL",
"local+openai:MODEL", ...); a new kind of judge is one class implementing ``Judge``, or any
object with an async ``generate(prompt, output_type)`` (adapted by ``get_judge``).
"""

from ragmeter.judges.cascade import CascadeCounts, CascadeJudge
from ragmeter.judges.llm_judge import LLMJudge
from ragmeter.judges.local import LocalJudge
from ragmeter.judges.openai_chat import OpenAIChatBackend
from ragmeter.judges.options import JudgeOptions
from ragmeter.judges.prompting import FreeFormAdapter, PromptingJudge
from ragmeter.judges.protocol import (
    ChatBackend,
    ChatCompletion,
    ChatRequest,
    DryRun,
    FreeFormJudge,
    Judge,
    Message,
    Prompt,
)
from ragmeter.judges.spec import get_judge, parse_judge_spec

__all__ = [
    "CascadeCounts",
    "CascadeJudge",
    "ChatBackend",
    "ChatCompletion",
    "ChatRequest",
    "DryRun",
    "FreeFormAdapter",
    "FreeFormJudge",
    "Judge",
    "JudgeOptions",
    "LLMJudge",
    "LocalJudge",
    "Message",
    "OpenAIChatBackend",
    "Prompt",
    "PromptingJudge",
    "get_judge",
    "parse_judge_spec",
]
