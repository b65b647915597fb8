"""Facts: per-sample intermediate results (claims, verdicts, embeddings) shared across metrics."""

from ragmeter.facts.claims import Claims, extract_claims
from ragmeter.facts.store import SampleFacts
from ragmeter.facts.support import SupportVerdict, judge_support

__all__ = ["Claims", "SampleFacts", "SupportVerdict", "extract_claims", "judge_support"]
