"""The judge-free metrics: no LLM, no embedder, deterministic and instant.

Importing this module registers them all (``get_metric("bleu")`` and so on):

=======================  ======================================  =========================
name                     compares                                class
=======================  ======================================  =========================
exact_match              answer, ground_truth (normalised)       ``ExactMatch`` (binary)
token_f1                 answer, ground_truth (bags of tokens)   ``TokenF1``
bleu                     answer, ground_truth (n-grams)          ``Bleu``
rouge_l                  answer, ground_truth (LCS of tokens)    ``RougeL``
string_similarity        answer, ground_truth (characters)       ``StringSimilarity``
id_context_precision     retrieved_context_ids, reference ids    ``IdContextPrecision``
id_context_recall        retrieved_context_ids, reference ids    ``IdContextRecall``
=======================  ======================================  =========================
"""

from ragmeter.metrics.bleu import Bleu, bleu_details, bleu_score
from ragmeter.metrics.exact_match import ExactMatch, exact_match_score
from ragmeter.metrics.id_context import (
    IdContextPrecision,
    IdContextRecall,
    id_context_precision_score,
    id_context_recall_score,
)
from ragmeter.metrics.rouge import RougeL, lcs_length, rouge_l_prf, rouge_l_score
from ragmeter.metrics.string_similarity import (
    StringSimilarity,
    jaro_winkler_similarity,
    levenshtein_distance,
    levenshtein_similarity,
    string_similarity_score,
)
from ragmeter.metrics.text import normalize_text, tokenize
from ragmeter.metrics.token_f1 import TokenF1, token_f1_score, token_prf

JUDGE_FREE_METRICS: tuple[str, ...] = (
    "exact_match",
    "token_f1",
    "bleu",
    "rouge_l",
    "string_similarity",
    "id_context_precision",
    "id_context_recall",
)

__all__ = [
    "JUDGE_FREE_METRICS",
    "Bleu",
    "ExactMatch",
    "IdContextPrecision",
    "IdContextRecall",
    "RougeL",
    "StringSimilarity",
    "TokenF1",
    "bleu_details",
    "bleu_score",
    "exact_match_score",
    "id_context_precision_score",
    "id_context_recall_score",
    "jaro_winkler_similarity",
    "lcs_length",
    "levenshtein_distance",
    "levenshtein_similarity",
    "normalize_text",
    "rouge_l_prf",
    "rouge_l_score",
    "string_similarity_score",
    "token_f1_score",
    "token_prf",
    "tokenize",
]
