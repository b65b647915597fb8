"""The engine: bounded concurrency over samples x metrics, a journal, typed errors."""

from ragmeter.engine.evaluate import aevaluate, as_dataset, evaluate

__all__ = ["aevaluate", "as_dataset", "evaluate"]
