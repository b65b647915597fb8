"""Prompts as data: task prompts with few-shot examples, fencing of evaluated text, translation."""

from ragmeter.prompts.fencing import DATA_NOTICE, fence, fence_numbered
from ragmeter.prompts.template import Example, PromptSet, TaskPrompt

__all__ = ["DATA_NOTICE", "Example", "PromptSet", "TaskPrompt", "fence", "fence_numbered"]
