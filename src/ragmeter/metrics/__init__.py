"""Metrics: one file per metric, each with its formula as a plain function beside it."""

from ragmeter.metrics import judge_free  # noqa: F401  (registers the judge-free metrics)
from ragmeter.metrics.agent_goal_accuracy import AgentGoalAccuracy, agent_goal_accuracy_score
from ragmeter.metrics.answer_correctness import AnswerCorrectness, answer_correctness_score, factual_f1
from ragmeter.metrics.answer_relevancy import AnswerRelevancy, answer_relevancy_score
from ragmeter.metrics.answer_similarity import AnswerSimilarity, answer_similarity_score, cosine_similarity
from ragmeter.metrics.aspect_critique import (
    ASPECTS,
    AspectCritique,
    Coherence,
    Conciseness,
    Correctness,
    Harmfulness,
    Maliciousness,
    majority_vote,
)
from ragmeter.metrics.base import Metric, available_metrics, get_metric, register
from ragmeter.metrics.context_entity_recall import ContextEntityRecall, entity_recall_score, normalise_entity
from ragmeter.metrics.context_precision import ContextPrecision, context_precision_score
from ragmeter.metrics.context_recall import ContextRecall, context_recall_score
from ragmeter.metrics.context_relevance import ContextRelevance, context_relevance_score
from ragmeter.metrics.conversation_completeness import ConversationCompleteness, conversation_completeness_score
from ragmeter.metrics.context_relevancy import ContextRelevancy, context_relevancy_score, selection_agreement
from ragmeter.metrics.factual_correctness import FactualCorrectness, claim_precision_recall_f1
from ragmeter.metrics.faithfulness import Faithfulness, faithfulness_score
from ragmeter.metrics.g_eval import GEval, expected_level
from ragmeter.metrics.function_metric import FunctionMetric, metric
from ragmeter.metrics.instance_rubrics import InstanceRubrics
from ragmeter.metrics.judged_metric import JudgedMetric
from ragmeter.metrics.rubric import DEFAULT_LEVELS, Rubric, rubric_score
from ragmeter.metrics.knowledge_retention import KnowledgeRetention, knowledge_retention_score
from ragmeter.metrics.noise_sensitivity import NoiseSensitivity, noise_sensitivity_score
from ragmeter.metrics.per_turn import PerTurn, turns_mean
from ragmeter.metrics.score import MetricScore
from ragmeter.metrics.summary import summary_score
from ragmeter.metrics.topic_adherence import TopicAdherence, topic_adherence_score
from ragmeter.metrics.tool_call_accuracy import ToolCallAccuracy, tool_call_accuracy_score
from ragmeter.metrics.tool_call_f1 import ToolCallF1, tool_call_f1_score

__all__ = [
    "DEFAULT_LEVELS",
    "FunctionMetric",
    "GEval",
    "InstanceRubrics",
    "JudgedMetric",
    "Rubric",
    "expected_level",
    "metric",
    "rubric_score",
    "AgentGoalAccuracy",
    "ConversationCompleteness",
    "KnowledgeRetention",
    "PerTurn",
    "TopicAdherence",
    "agent_goal_accuracy_score",
    "conversation_completeness_score",
    "knowledge_retention_score",
    "topic_adherence_score",
    "turns_mean",
    "ASPECTS",
    "AnswerCorrectness",
    "AnswerRelevancy",
    "AnswerSimilarity",
    "AspectCritique",
    "Coherence",
    "Conciseness",
    "ContextEntityRecall",
    "ContextPrecision",
    "ContextRecall",
    "ContextRelevance",
    "ContextRelevancy",
    "Correctness",
    "FactualCorrectness",
    "Faithfulness",
    "Harmfulness",
    "Maliciousness",
    "Metric",
    "ToolCallAccuracy",
    "ToolCallF1",
    "MetricScore",
    "NoiseSensitivity",
    "answer_correctness_score",
    "answer_relevancy_score",
    "answer_similarity_score",
    "available_metrics",
    "claim_precision_recall_f1",
    "context_precision_score",
    "context_recall_score",
    "context_relevance_score",
    "context_relevancy_score",
    "cosine_similarity",
    "entity_recall_score",
    "factual_f1",
    "faithfulness_score",
    "get_metric",
    "majority_vote",
    "noise_sensitivity_score",
    "normalise_entity",
    "register",
    "selection_agreement",
    "summary_score",
    "tool_call_accuracy_score",
    "tool_call_f1_score",
]
