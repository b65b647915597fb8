"""Metrics: one file per metric, each with its formula as a plain function beside it."""

from ragmeter.metrics.answer_similarity import AnswerSimilarity, answer_similarity_score, cosine_similarity
from ragmeter.metrics.base import Metric, available_metrics, get_metric, register
from ragmeter.metrics.faithfulness import Faithfulness, faithfulness_score
from ragmeter.metrics.score import MetricScore

__all__ = [
    "AnswerSimilarity",
    "Faithfulness",
    "Metric",
    "MetricScore",
    "answer_similarity_score",
    "available_metrics",
    "cosine_similarity",
    "faithfulness_score",
    "get_metric",
    "register",
]
