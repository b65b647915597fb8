"""The engine: bounded concurrency over samples x metrics, a journal, typed errors."""

from ragmeter.engine.dry_run import RunEstimate, aestimate, estimate
from ragmeter.data.stream import as_dataset
from ragmeter.engine.evaluate import aevaluate, evaluate
from ragmeter.engine.conversations import aevaluate_conversations, estimate_conversations, evaluate_conversations

__all__ = ["RunEstimate", "aestimate", "aevaluate", "aevaluate_conversations", "as_dataset", "estimate",
           "estimate_conversations", "evaluate", "evaluate_conversations"]
