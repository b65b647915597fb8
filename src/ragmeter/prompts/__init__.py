"""Prompts as data: task prompts with few-shot examples and the fencing of evaluated text
(translation through a judge is ``ragmeter.judges.adapt``)."""

from ragmeter.prompts.fencing import DATA_NOTICE, fence, fence_numbered
from ragmeter.prompts.template import Example, PromptSet, TaskPrompt

__all__ = ["DATA_NOTICE", "Example", "PromptSet", "TaskPrompt", "fence", "fence_numbered"]
