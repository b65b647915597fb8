"""The engine: bounded concurrency over samples x metrics, a journal, typed errors."""

from ragmeter.engine.dry_run import RunEstimate, aestimate, estimate
from ragmeter.data.stream import as_dataset
from ragmeter.engine.evaluate import aevaluate, evaluate

__all__ = ["RunEstimate", "aestimate", "aevaluate", "as_dataset", "estimate", "evaluate"]
