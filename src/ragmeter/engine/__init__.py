"""The engine: bounded concurrency over samples x metrics, typed errors, and the sinks its caller
hands it (result file, journal, run recorder: ``ragmeter.engine.sinks``)."""

from ragmeter.engine.dry_run import RunEstimate, aestimate, estimate
from ragmeter.data.stream import as_dataset
from ragmeter.engine.evaluate import aevaluate, evaluate
from ragmeter.engine.conversations import conversation_inputs, estimate_conversations

__all__ = ["RunEstimate", "aestimate", "aevaluate", "as_dataset", "conversation_inputs", "estimate",
           "estimate_conversations", "evaluate"]
