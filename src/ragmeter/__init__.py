"""ragmeter: evaluate RAG pipelines metric by metric, with an LLM judge or with no key at all.

    from ragmeter import evaluate
    result = evaluate("data.jsonl", ["faithfulness", "answer_similarity"], judge="openai:gpt-4o-mini")
    result.summary(); result.to_pandas(); result.save("result.json")
"""

from ragmeter.conversations import ConversationSample, load_conversations
from ragmeter.data import Dataset, RowError, Sample
from ragmeter.embedders import Embedder, get_embedder
from ragmeter.api import aevaluate, aevaluate_conversations, evaluate, evaluate_conversations
from ragmeter.engine import aestimate, estimate
from ragmeter.errors import ErrorInfo, RagmeterError
from ragmeter.judges import Judge, JudgeOptions, get_judge
from ragmeter.metrics import GEval, JudgedMetric, Metric, MetricScore, Rubric, available_metrics, get_metric, metric
from ragmeter.result import EvaluationResult
from ragmeter.version import __version__

__all__ = [
    "ConversationSample",
    "Dataset",
    "Embedder",
    "ErrorInfo",
    "EvaluationResult",
    "Judge",
    "JudgeOptions",
    "GEval",
    "JudgedMetric",
    "Metric",
    "Rubric",
    "MetricScore",
    "RagmeterError",
    "RowError",
    "__version__",
    "Sample",
    "aestimate",
    "aevaluate",
    "aevaluate_conversations",
    "available_metrics",
    "estimate",
    "evaluate",
    "evaluate_conversations",
    "get_embedder",
    "get_judge",
    "get_metric",
    "metric",
    "load_conversations",
]
