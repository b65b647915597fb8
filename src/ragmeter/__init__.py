"""ragmeter: evaluate RAG pipelines metric by metric, with an LLM judge or with no key at all.

    from ragmeter import evaluate
    result = evaluate("data.jsonl", ["faithfulness", "answer_similarity"], judge="openai:gpt-4o-mini")
    result.summary(); result.to_pandas(); result.save("result.json")
"""

__version__ = "0.1.0"

from ragmeter.data import Dataset, RowError, Sample  # noqa: E402
from ragmeter.embedders import Embedder, get_embedder  # noqa: E402
from ragmeter.engine import aestimate, aevaluate, estimate, evaluate  # noqa: E402
from ragmeter.errors import ErrorInfo, RagmeterError  # noqa: E402
from ragmeter.judges import Judge, get_judge  # noqa: E402
from ragmeter.metrics import Metric, MetricScore, available_metrics, get_metric  # noqa: E402
from ragmeter.result import EvaluationResult  # noqa: E402

__all__ = [
    "Dataset",
    "Embedder",
    "ErrorInfo",
    "EvaluationResult",
    "Judge",
    "Metric",
    "MetricScore",
    "RagmeterError",
    "RowError",
    "Sample",
    "aestimate",
    "aevaluate",
    "available_metrics",
    "estimate",
    "evaluate",
    "get_embedder",
    "get_judge",
    "get_metric",
]
