"""Facts: per-sample judgements (claims, verdicts, entities, embeddings) planned, asked of the
run's judge once and shared across metrics."""

from ragmeter.facts.store import SampleFacts

__all__ = ["SampleFacts"]
