"""Judge-free metrics: each formula against hand-computed values, edge cases, and a full run.

The arithmetic behind every expected value is written next to it, so a failing test can be
checked by hand.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math

import numpy as np
import pytest

import ragmeter
from ragmeter.data import Dataset, Sample
from ragmeter.errors import InvalidInput, MissingInput
from ragmeter.metrics.base import Metric, get_metric
from ragmeter.metrics.judge_free import (
    JUDGE_FREE_METRICS,
    Bleu,
    ExactMatch,
    IdContextPrecision,
    IdContextRecall,
    RougeL,
    StringSimilarity,
    TokenF1,
    bleu_details,
    bleu_score,
    exact_match_score,
    id_context_precision_score,
    id_context_recall_score,
    jaro_winkler_similarity,
    lcs_length,
    levenshtein_distance,
    levenshtein_similarity,
    normalize_text,
    rouge_l_prf,
    rouge_l_score,
    string_similarity_score,
    token_f1_score,
    token_prf,
    tokenize,
)
from ragmeter.metrics.score import MetricScore
from ragmeter.metrics.string_similarity import jaro_winkler_details

CAT = "the cat sat on the mat"
CAT_REF = "the cat is on the mat"


def score(metric: Metric, **record) -> MetricScore:
    """Run one metric on one sample directly (no engine: these metrics use no facts)."""
    result = asyncio.run(metric.score(Sample(**record), None))  # type: ignore[arg-type]
    json.dumps(result.verdicts)  # verdicts are JSON-able
    return result


# --- registry --------------------------------------------------------------------------------


def test_all_seven_are_registered_judge_free_and_only_exact_match_is_binary():
    assert JUDGE_FREE_METRICS == (
        "exact_match",
        "token_f1",
        "bleu",
        "rouge_l",
        "string_similarity",
        "id_context_precision",
        "id_context_recall",
    )
    for name in JUDGE_FREE_METRICS:
        metric = get_metric(name)
        assert metric.name == name
        assert not metric.uses_judge and not metric.uses_embedder
        assert metric.binary == (name == "exact_match")
        assert Sample().missing(metric.required) == list(metric.required)  # known field names
    assert isinstance(get_metric("Rouge-L"), RougeL)


def test_config_holds_the_settings_that_change_scores():
    assert ExactMatch().config() == {"normalize": True}
    assert ExactMatch(normalize=False).config() == {"normalize": False}
    assert TokenF1().config() == {}
    assert Bleu().config() == {"max_n": 4} and Bleu(max_n=2).config() == {"max_n": 2}
    assert RougeL().config() == {"beta": 1.0} and RougeL(beta=2).config() == {"beta": 2.0}
    assert StringSimilarity().config() == {"measure": "levenshtein", "normalize": True}
    assert StringSimilarity("jaro-winkler").config()["measure"] == "jaro_winkler"
    assert repr(Bleu(max_n=3)) == "Bleu(max_n=3)"


@pytest.mark.parametrize(
    "make",
    [
        lambda: Bleu(max_n=0),
        lambda: Bleu(max_n=2.5),  # type: ignore[arg-type]
        lambda: RougeL(beta=0),
        lambda: RougeL(beta=float("nan")),
        lambda: StringSimilarity("hamming"),
    ],
)
def test_bad_settings_are_rejected(make):
    with pytest.raises(ValueError):
        make()


# --- text helpers ----------------------------------------------------------------------------


def test_normalize_text():
    assert normalize_text("  The  Eiffel-Tower!\n") == "the eiffeltower"
    assert normalize_text("ＰＡＲＩＳ。") == "paris"  # full-width letters, CJK full stop
    assert normalize_text("Straße") == normalize_text("STRASSE") == "strasse"  # casefold
    assert normalize_text("¿Dónde?") == normalize_text("do\u0301nde") == "dónde"  # NFKC
    assert normalize_text("$5 + 5°") == "$5 + 5°"  # symbols (Unicode S*) are kept
    assert normalize_text("50%") == "50"  # "%" is punctuation (Po) in Unicode


def test_tokenize_handles_other_scripts():
    assert tokenize("Einstein's theory (1915), E=mc²!") == [
        "einsteins", "theory", "1915", "e", "mc2"  # a mark inside a word joins, as exact match reads it
    ]
    assert tokenize("Москва — столица России.") == ["москва", "столица", "россии"]
    # combining vowel signs stay in their word (re's \w+ would cut "नमस्ते" in three)
    assert tokenize("नमस्ते दुनिया") == ["नमस्ते", "दुनिया"]
    # Chinese and Japanese have no spaces: one token per ideograph / kana
    assert tokenize("我爱巴黎") == ["我", "爱", "巴", "黎"]
    assert tokenize("東京タワー333m") == ["東", "京", "タ", "ワ", "ー", "333m"]
    assert tokenize("  ...  ") == []


# --- exact match -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "truth", "normalize", "expected"),
    [
        ("Paris.", "  paris ", True, 1.0),
        ("The Eiffel-Tower", "the eiffeltower", True, 1.0),
        ("ＰＡＲＩＳ", "Paris", True, 1.0),  # NFKC folds full-width letters
        ("Straße", "STRASSE", True, 1.0),  # casefold, not lower
        ("¿Dónde?", "do\u0301nde", True, 1.0),  # composed and decomposed accents
        ("Paris", "Paris, France", True, 0.0),
        ("Paris", "paris", False, 0.0),
        ("Paris", "Paris", False, 1.0),
        ("...", "?", True, 1.0),  # both normalise to ""
    ],
)
def test_exact_match_score(answer, truth, normalize, expected):
    assert exact_match_score(answer, truth, normalize) == expected


def test_exact_match_metric_reason_and_verdicts():
    hit = score(ExactMatch(), answer="Paris!", ground_truth="paris")
    assert hit.value == 1.0 and "equals the ground truth after normalisation" in hit.reason
    assert hit.verdicts == {"match": True, "answer": "paris", "ground_truth": "paris"}
    miss = score(ExactMatch(normalize=False), answer="Paris!", ground_truth="paris")
    assert miss.value == 0.0 and "differs from the ground truth as written" in miss.reason
    assert miss.verdicts["answer"] == "Paris!"


# --- token F1 --------------------------------------------------------------------------------


def test_token_f1_hand_computed():
    # same bag of words in another order: P = R = 6/6
    assert token_f1_score("Paris is the capital of France", "The capital of France is Paris") == 1.0
    # A = {the, cat, sat}, G = {the, cat, sat, down}: common 3, P = 3/3, R = 3/4,
    # F1 = 2 * 1 * 0.75 / 1.75 = 6/7
    assert token_prf(["the", "cat", "sat"], ["the", "cat", "sat", "down"]) == pytest.approx(
        (1.0, 0.75, 6 / 7, 3)
    )
    # repeats are clipped: A = {the: 3}, G = {the: 1, cat: 1}: common min(3, 1) = 1,
    # P = 1/3, R = 1/2, F1 = 2 * (1/6) / (5/6) = 2/5
    assert token_f1_score("the the the", "the cat") == pytest.approx(0.4)
    assert token_f1_score("Berlin", "Paris") == 0.0


def test_token_f1_non_english():
    # Russian: same words, other order and punctuation
    assert token_f1_score("Москва — столица России", "Столица России: Москва.") == 1.0
    # A = {москва, столица}, G = {москва, столица, россии}: P = 1, R = 2/3, F1 = 0.8
    assert token_f1_score("Москва, столица", "Москва — столица России") == pytest.approx(0.8)
    # Chinese, per character: A = 我爱巴黎, G = 我爱北京, common {我, 爱}: P = R = 2/4, F1 = 0.5
    assert token_f1_score("我爱巴黎", "我爱北京") == 0.5


def test_token_f1_empty_sides():
    assert token_prf([], []) == (1.0, 1.0, 1.0, 0)
    assert token_prf([], ["paris"]) == (0.0, 0.0, 0.0, 0)
    assert token_f1_score("!!!", "Paris") == 0.0  # punctuation only: no tokens
    result = score(TokenF1(), answer="?!", ground_truth="Paris")
    assert result.value == 0.0 and "the answer has no word tokens" in result.reason


def test_token_f1_metric_verdicts_carry_precision_and_recall():
    result = score(TokenF1(), answer="The cat sat.", ground_truth="the cat sat down")
    assert result.value == pytest.approx(6 / 7)
    assert result.verdicts == {
        "precision": 1.0,
        "recall": 0.75,
        "common_tokens": 3,
        "answer_tokens": 3,
        "ground_truth_tokens": 4,
    }
    assert "precision 1.000" in result.reason and "recall 0.750" in result.reason


# --- BLEU ------------------------------------------------------------------------------------


def test_bleu_by_hand():
    # answer    "the cat sat on the mat"  (c = 6)
    # reference "the cat is on the mat"   (r = 6)
    # 1-grams: the x2, cat, on, mat match, sat does not    m1 = 5 of 6  p1 = 5/6
    # 2-grams: the-cat, on-the, the-mat                    m2 = 3 of 5  p2 = (3+1)/(5+1) = 2/3
    # 3-grams: on-the-mat                                  m3 = 1 of 4  p3 = (1+1)/(4+1) = 2/5
    # 4-grams: none                                        m4 = 0 of 3  p4 = (0+1)/(3+1) = 1/4
    # BP = exp(1 - 6/6) = 1
    # BLEU = (5/6 * 2/3 * 2/5 * 1/4) ** (1/4) = (1/18) ** (1/4) = 0.48549...
    d = bleu_details(CAT.split(), CAT_REF.split())
    assert [(p["matches"], p["total"]) for p in d["precisions"]] == [(5, 6), (3, 5), (1, 4), (0, 3)]
    assert [p["precision"] for p in d["precisions"]] == pytest.approx([5 / 6, 2 / 3, 2 / 5, 1 / 4])
    assert d["brevity_penalty"] == 1.0
    assert d["bleu"] == pytest.approx((1 / 18) ** 0.25)
    assert round(d["bleu"], 4) == 0.4855
    # max_n = 2: sqrt(5/6 * 2/3) = sqrt(5/9); max_n = 1: p1 = 5/6
    assert bleu_score(CAT, CAT_REF, max_n=2) == pytest.approx(math.sqrt(5 / 9))
    assert bleu_score(CAT, CAT_REF, max_n=1) == pytest.approx(5 / 6)


def test_bleu_brevity_penalty_and_longer_answer():
    # answer "the cat" (c = 2) against "the cat sat on the mat" (r = 6):
    # p1 = 2/2, p2 = (1+1)/(1+1), p3 = p4 = (0+1)/(0+1) = 1 (no 3- or 4-grams)
    # BP = exp(1 - 6/2) = exp(-2), BLEU = exp(-2) = 0.1353
    assert bleu_score("the cat", CAT) == pytest.approx(math.exp(-2))
    # answer one word longer than the reference (c = 7 > r = 6, BP = 1):
    # p1 = 6/7, p2 = (5+1)/(6+1) = 6/7, p3 = (4+1)/(5+1) = 5/6, p4 = (3+1)/(4+1) = 4/5
    # BLEU = (6/7 * 6/7 * 5/6 * 4/5) ** (1/4) = (24/49) ** (1/4)
    assert bleu_score(CAT + " today", CAT) == pytest.approx((24 / 49) ** 0.25)


def test_bleu_short_texts_do_not_collapse_to_zero():
    # "Paris" against "Paris": p1 = 1/1, p2..p4 = (0+1)/(0+1): identical one-word texts score 1
    assert bleu_score("Paris.", "paris") == 1.0
    # "Paris France" against "France Paris": p1 = 2/2, p2 = (0+1)/(1+1) = 1/2, p3 = p4 = 1
    # BLEU = (1 * 1/2 * 1 * 1) ** (1/4) = 0.8409 (unsmoothed BLEU would be 0)
    assert bleu_score("Paris France", "France Paris") == pytest.approx(0.5**0.25)


def test_bleu_edges():
    assert bleu_score(CAT, CAT.upper() + "!") == 1.0  # identical after tokenisation
    assert bleu_score("dogs bark loudly", CAT) == 0.0  # no unigram in common
    assert bleu_score("...", CAT) == 0.0  # answer without tokens
    assert bleu_score("...", "?") == 1.0  # neither has tokens
    assert bleu_score(CAT, "...") == 0.0  # ground truth without tokens
    # Chinese per character: 我爱巴黎 vs 我爱北京: p1 = 2/4, p2 = (1+1)/(3+1) (我爱),
    # p3 = (0+1)/(2+1), p4 = (0+1)/(1+1); BLEU = (1/2 * 1/2 * 1/3 * 1/2) ** (1/4) = (1/24) ** (1/4)
    assert bleu_score("我爱巴黎", "我爱北京") == pytest.approx((1 / 24) ** 0.25)


def test_bleu_metric_reason_and_verdicts():
    result = score(Bleu(), answer="The cat sat on the mat.", ground_truth="The cat is on the mat.")
    assert result.value == pytest.approx((1 / 18) ** 0.25)
    assert result.reason.startswith("BLEU 0.485: 1..4-gram precisions 0.83/0.67/0.40/0.25")
    assert "brevity penalty 1.000 (answer 6 tokens, ground truth 6)" in result.reason
    assert result.verdicts["precisions"][1] == {
        "n": 2, "matches": 3, "total": 5, "precision": round(2 / 3, 6)
    }
    assert score(Bleu(max_n=1), answer=CAT, ground_truth=CAT_REF).value == pytest.approx(5 / 6)


# --- ROUGE-L ---------------------------------------------------------------------------------


def test_rouge_l_by_hand():
    # LCS of "the cat sat on the mat" and "the cat is on the mat" = "the cat on the mat" (5)
    # P = 5/6, R = 5/6, F1 = 5/6
    assert lcs_length(CAT.split(), CAT_REF.split()) == 5
    assert rouge_l_score(CAT, CAT_REF) == pytest.approx(5 / 6)
    # "a b c d" vs "a c e": LCS "a c" = 2, P = 2/4, R = 2/3, F1 = 2 * (1/3) / (7/6) = 4/7
    assert rouge_l_prf("a b c d".split(), "a c e".split()) == pytest.approx((0.5, 2 / 3, 4 / 7, 2))
    # beta = 2: F = (1 + 4) P R / (R + 4 P) = 5 * (1/3) / (2/3 + 2) = 5/8
    assert rouge_l_prf("a b c d".split(), "a c e".split(), beta=2)[2] == pytest.approx(5 / 8)


def test_rouge_l_order_matters_unlike_token_f1():
    # same bag of words, but the longest in-order run is "the capital" (2 of 4): F1 = 0.5
    assert rouge_l_score("Paris is the capital", "the capital is Paris") == 0.5
    assert token_f1_score("Paris is the capital", "the capital is Paris") == 1.0
    # Chinese: 巴黎是法国的首都 vs 法国的首都是巴黎: LCS 法国的首都 = 5 of 8 each side: 5/8
    assert rouge_l_score("巴黎是法国的首都", "法国的首都是巴黎") == pytest.approx(5 / 8)


def test_rouge_l_edges():
    assert rouge_l_score(CAT, CAT) == 1.0
    assert rouge_l_score("dogs bark", CAT) == 0.0
    assert rouge_l_score("", "") == 1.0
    assert rouge_l_score("", CAT) == 0.0
    assert lcs_length([], ["a"]) == 0


def test_rouge_l_metric():
    result = score(RougeL(), answer="The cat sat on the mat", ground_truth="the cat is on the mat")
    assert result.value == pytest.approx(5 / 6)
    assert result.verdicts == {
        "lcs": 5,
        "precision": round(5 / 6, 6),
        "recall": round(5 / 6, 6),
        "answer_tokens": 6,
        "ground_truth_tokens": 6,
    }
    assert "longest common subsequence of 5 tokens" in result.reason
    assert "ROUGE-L F(beta=2)" in score(RougeL(beta=2), answer="a", ground_truth="a b").reason


def _dp_levenshtein(a: str, b: str) -> int:
    """The textbook Wagner-Fischer table, as a reference for the bit-parallel version."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, start=1):
        current = [i]
        for j, y in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def _dp_lcs(a, b) -> int:
    """The textbook LCS table, as a reference for the bit-parallel version."""
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def test_bit_parallel_levenshtein_and_lcs_agree_with_the_textbook_tables():
    import random

    rng = random.Random(7)
    for _ in range(2000):
        a = "".join(rng.choice("abcä") for _ in range(rng.randint(0, 70)))  # > 64 bits too
        b = "".join(rng.choice("abcä") for _ in range(rng.randint(0, 70)))
        assert levenshtein_distance(a, b) == _dp_levenshtein(a, b), (a, b)
        assert lcs_length(list(a), list(b)) == _dp_lcs(a, b), (a, b)


# --- string similarity -----------------------------------------------------------------------


def test_levenshtein_by_hand():
    # kitten -> sitten (k->s) -> sittin (e->i) -> sitting (+g): 3 edits, longest 7: 1 - 3/7
    assert levenshtein_distance("kitten", "sitting") == 3
    assert levenshtein_similarity("kitten", "sitting") == pytest.approx(4 / 7)
    # flaw -> law (-f) -> lawn (+n): 2 edits of 4: 0.5
    assert levenshtein_similarity("flaw", "lawn") == 0.5
    assert levenshtein_distance("abc", "abc") == 0
    assert levenshtein_distance("", "abc") == 3
    # common prefix and suffix trimmed before the DP: still the full distance
    assert levenshtein_distance("xxabcyy", "xxadcyy") == 1
    # moskau -> moskva: a->v, u->a: 2 of 6
    assert levenshtein_similarity("Moskau", "Moskva") == pytest.approx(2 / 3)


def test_jaro_winkler_by_hand():
    # MARTHA / MARHTA: m = 6, the matched T,H vs H,T: t = 2 // 2 = 1
    # jaro = (6/6 + 6/6 + 5/6) / 3 = 17/18; prefix MAR = 3: 17/18 + 0.1 * 3 * (1/18) = 0.9611
    d = jaro_winkler_details("MARTHA", "MARHTA")
    assert (d["matches"], d["transpositions"], d["prefix"]) == (6, 1, 3)
    assert d["jaro"] == pytest.approx(17 / 18)
    assert d["similarity"] == pytest.approx(17 / 18 + 0.3 / 18)
    # DWAYNE / DUANE: window 2; D, A, N, E match (m = 4, t = 0)
    # jaro = (4/6 + 4/5 + 4/4) / 3 = 37/45; prefix D = 1: 37/45 + 0.1 * (8/45) = 0.84
    assert jaro_winkler_similarity("DWAYNE", "DUANE") == pytest.approx(0.84)
    # DIXON / DICKSONX: window 3; D, I, O, N match; jaro = (4/5 + 4/8 + 1) / 3 = 23/30
    # prefix DI = 2: 23/30 + 0.2 * 7/30 = 0.81333
    assert jaro_winkler_similarity("DIXON", "DICKSONX") == pytest.approx(23 / 30 + 0.2 * 7 / 30)
    # ab / ax: window 0, m = 1: jaro = (1/2 + 1/2 + 1) / 3 = 2/3 <= 0.7: no prefix bonus
    assert jaro_winkler_similarity("ab", "ax") == pytest.approx(2 / 3)
    assert jaro_winkler_similarity("abc", "xyz") == 0.0


@pytest.mark.parametrize("measure", ["levenshtein", "jaro_winkler"])
def test_string_similarity_edges(measure):
    assert string_similarity_score("Paris", "Paris", measure) == 1.0
    assert string_similarity_score("Paris.", "paris", measure) == 1.0  # normalised
    assert string_similarity_score("Москва", "МОСКВА!", measure) == 1.0
    assert string_similarity_score("abc", "xyz", measure) == 0.0
    assert string_similarity_score("", "", measure) == 1.0
    assert string_similarity_score("", "abc", measure) == 0.0
    assert string_similarity_score("...", "abc", measure) == 0.0  # normalises to ""
    with pytest.raises(ValueError):
        string_similarity_score("a", "b", "hamming")


def test_string_similarity_metric():
    # not normalised: "Paris." vs "paris": P->p and delete "." = 2 edits of 6: 1 - 2/6
    raw = score(StringSimilarity(normalize=False), answer="Paris.", ground_truth="paris")
    assert raw.value == pytest.approx(2 / 3)
    assert raw.verdicts == {"measure": "levenshtein", "distance": 2, "max_length": 6}
    assert "2 character edit(s) over 6 characters" in raw.reason
    jw = score(StringSimilarity("jaro_winkler"), answer="Martha", ground_truth="Marhta")
    assert jw.value == pytest.approx(17.3 / 18)
    assert jw.verdicts["matches"] == 6 and jw.verdicts["transpositions"] == 1
    assert "Jaro-Winkler similarity 0.961 after normalisation" in jw.reason


# --- ID-based context precision and recall ---------------------------------------------------


def test_id_formulas_by_hand():
    # retrieved {a, b, c} (a repeated), reference {a, d}: common {a}
    # precision = 1/3, recall = 1/2
    assert id_context_precision_score(["a", "b", "c", "a"], ["a", "d"]) == pytest.approx(1 / 3)
    assert id_context_recall_score(["a", "b", "c", "a"], ["a", "d"]) == 0.5
    assert id_context_precision_score(["a", "b"], ["b", "a"]) == 1.0
    assert id_context_recall_score(["a", "b"], ["b", "a"]) == 1.0
    assert id_context_precision_score(["x"], ["a"]) == 0.0
    assert id_context_recall_score(["x"], ["a"]) == 0.0
    assert id_context_precision_score(["x"], []) == 0.0
    assert id_context_recall_score([], ["a"]) == 0.0
    assert id_context_precision_score([], ["a"]) == 0.0  # nothing retrieved scores 0
    with pytest.raises(MissingInput):
        id_context_recall_score(["a"], [])


def test_id_metrics_with_int_and_str_ids():
    # ints are stored as their decimal text: retrieved {1, 2, 3}, reference {2, 5}
    record = {"retrieved_context_ids": [1, 2, 3, 2], "reference_context_ids": ["2", 5]}
    precision = score(IdContextPrecision(), **record)
    assert precision.value == pytest.approx(1 / 3)  # 1 of 3 distinct retrieved
    assert precision.verdicts == {
        "retrieved": ["1", "2", "3"],
        "matched": ["2"],
        "not_in_reference": ["1", "3"],
    }
    assert precision.reason == (
        "1 of 3 distinct retrieved ids are reference ids; not in the reference: '1', '3'"
    )
    recall = score(IdContextRecall(), **record)
    assert recall.value == 0.5  # 1 of 2 reference ids
    assert recall.verdicts == {"reference": ["2", "5"], "matched": ["2"], "not_retrieved": ["5"]}
    assert recall.reason == "1 of 2 distinct reference ids were retrieved; not retrieved: '5'"
    full = score(IdContextRecall(), retrieved_context_ids=["doc-1", 7], reference_context_ids=[7])
    assert full.value == 1.0 and full.reason == "1 of 1 distinct reference ids were retrieved"


# --- the new Sample fields -------------------------------------------------------------------


def test_id_fields_accept_str_and_int_and_store_strings():
    s = Sample(
        retrieved_context_ids=[1, "doc-2", np.int64(3)],
        reference_context_ids=np.array([4, 5], dtype=np.int64),
    )
    assert s.retrieved_context_ids == ["1", "doc-2", "3"]
    assert s.reference_context_ids == ["4", "5"]
    assert Sample(retrieved_context_ids='[1, "a"]').retrieved_context_ids == ["1", "a"]  # CSV
    assert Sample(retrieved_context_ids=(8,)).retrieved_context_ids == ["8"]
    assert Sample(retrieved_context_ids=None).retrieved_context_ids is None
    assert Sample(retrieved_context_ids="").retrieved_context_ids is None  # empty CSV cell
    # an empty list is kept, and is missing for a metric that needs it
    assert Sample(retrieved_context_ids=[]).missing(["retrieved_context_ids"]) == [
        "retrieved_context_ids"
    ]
    assert Sample(retrieved_context_ids=[0]).missing(["retrieved_context_ids"]) == []


def test_id_fields_keep_fingerprints_of_samples_without_them():
    # a sample without ids hashes exactly as before the fields existed (journals stay valid)
    plain = Sample(question="q", answer="a")
    before = {
        "answer": "a",
        "contexts": None,
        "ground_truth": None,
        "question": "q",
        "reference_contexts": None,
    }
    payload = json.dumps(before, sort_keys=True, separators=(",", ":"))
    assert plain.fingerprint() == hashlib.sha256(payload.encode()).hexdigest()
    with_ids = Sample(question="q", answer="a", retrieved_context_ids=[1])
    assert with_ids.fingerprint() != plain.fingerprint()
    # 1 and "1" are the same id, so the same sample
    assert with_ids.fingerprint() == Sample(
        question="q", answer="a", retrieved_context_ids=["1"]
    ).fingerprint()


@pytest.mark.parametrize("field", ["retrieved_context_ids", "reference_context_ids"])
@pytest.mark.parametrize(
    ("value", "got"),
    [
        ("doc-1", "got str"),  # one id is still a list of one
        (7, "got int"),
        ({"id": 1}, "got dict"),
        ([1.5], "with float at index 0"),
        (["a", 7.0], "with float at index 1"),  # an id that went through a float
        ([True], "with bool at index 0"),
        (["a", None], "with NoneType at index 1"),
        ([["a"]], "with list at index 0"),
        ("[1, 2", "not a valid JSON list"),
        ('{"a": 1}', "got str"),
    ],
)
def test_id_fields_reject_other_types_naming_the_field(field, value, got):
    with pytest.raises(InvalidInput) as info:
        Sample.model_validate({field: value})
    assert info.value.field == field  # type: ignore[attr-defined]
    assert f"field {field!r}" in str(info.value)
    assert "expected a list of strings or integers" in str(info.value)
    assert got in str(info.value)


def test_id_field_errors_are_row_errors_when_loading():
    ds = Dataset.from_records(
        [
            {"answer": "a", "retrieved_context_ids": [1, 2]},
            {"answer": "b", "reference_context_ids": [0.5]},
        ]
    )
    assert len(ds) == 1
    assert [(e.row, e.field) for e in ds.errors] == [(1, "reference_context_ids")]


ID_RECORDS = [
    {
        "id": "r1",
        "answer": "a",
        "retrieved_context_ids": [3, "doc-7", 3],
        "reference_context_ids": [7],
    },
    {"id": "r2", "answer": "b", "retrieved_context_ids": ["x"]},
    {"id": "r3", "answer": "c"},
]


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet", ".csv"])
def test_id_fields_round_trip_through_files(tmp_path, suffix):
    ds = Dataset.from_records(ID_RECORDS)
    assert ds.errors == []
    path = tmp_path / f"ids{suffix}"
    ds.save(path)
    back = Dataset.load(path)
    assert back.errors == []
    assert back.to_records() == ds.to_records()
    assert back[0].retrieved_context_ids == ["3", "doc-7", "3"]  # order and repeats kept
    assert back[0].reference_context_ids == ["7"]
    assert back[1].reference_context_ids is None and back[2].retrieved_context_ids is None
    assert [s.fingerprint() for s in back] == [s.fingerprint() for s in ds]


def test_id_fields_round_trip_through_pandas_and_hf():
    ds = Dataset.from_records(ID_RECORDS)
    df = ds.to_pandas()
    assert "retrieved_context_ids" in df.columns and "reference_context_ids" in df.columns
    assert Dataset.from_pandas(df).to_records() == ds.to_records()
    hf = ds.to_hf()
    assert str(hf.features["retrieved_context_ids"].feature.dtype) == "string"
    assert Dataset.from_hf(hf).to_records() == ds.to_records()


# --- through the engine ----------------------------------------------------------------------


def test_evaluate_runs_all_seven_without_judge_or_embedder():
    records = [
        {
            "id": "cat",
            "question": "Where is the cat?",
            "answer": "The cat sat on the mat.",
            "ground_truth": "The cat is on the mat.",
            "retrieved_context_ids": [1, 2, 3],
            "reference_context_ids": [2, 5],
        },
        {
            "id": "paris",
            "question": "What is the capital of France?",
            "answer": "Paris.",
            "ground_truth": "paris",
            "retrieved_context_ids": ["fr-1"],
            "reference_context_ids": ["fr-1"],
        },
        {
            "id": "no-ids",
            "answer": "Berlin",
            "ground_truth": "Paris",
        },
        {"id": "blank", "answer": "   ", "ground_truth": "Paris", "retrieved_context_ids": []},
    ]
    metrics = [
        ExactMatch(),
        "token_f1",
        Bleu(),
        "rouge-l",
        StringSimilarity(),
        "id_context_precision",
        IdContextRecall(),
    ]
    result = ragmeter.evaluate(
        records, metrics=metrics, cache=False, journal=False, show_progress=False
    )
    assert result.metric_names == list(JUDGE_FREE_METRICS)
    assert result.info.judge is None and result.info.embedder is None
    assert result.info.metrics["bleu"] == {"max_n": 4}
    by_id = {s.id: s.scores for s in result.samples}

    cat = by_id["cat"]
    assert cat["exact_match"].value == 0.0
    # tokens: the cat sat on the mat / the cat is on the mat: common 5, P = R = F1 = 5/6
    assert cat["token_f1"].value == pytest.approx(5 / 6)
    assert cat["bleu"].value == pytest.approx((1 / 18) ** 0.25)  # see test_bleu_by_hand
    assert cat["rouge_l"].value == pytest.approx(5 / 6)
    # "the cat sat on the mat" -> "the cat is on the mat": "sat" -> "is" = 2 subst. + 1 del.
    assert cat["string_similarity"].value == pytest.approx(1 - 3 / 22)
    assert cat["id_context_precision"].value == pytest.approx(1 / 3)
    assert cat["id_context_recall"].value == 0.5
    assert cat["id_context_recall"].reason.endswith("not retrieved: '5'")

    paris = by_id["paris"]
    assert {name: s.value for name, s in paris.items()} == dict.fromkeys(JUDGE_FREE_METRICS, 1.0)
    assert paris["exact_match"].reason == "the answer equals the ground truth after normalisation"

    no_ids = by_id["no-ids"]
    assert no_ids["exact_match"].value == 0.0 and no_ids["token_f1"].value == 0.0
    assert no_ids["bleu"].value == 0.0 and no_ids["rouge_l"].value == 0.0
    for name in ("id_context_precision", "id_context_recall"):
        assert no_ids[name].value is None
        assert no_ids[name].error.kind == "MissingInput"
        assert "retrieved_context_ids" in no_ids[name].reason

    blank = by_id["blank"]  # a blank answer and an empty id list are missing input
    assert all(s.value is None and s.error.kind == "MissingInput" for s in blank.values())
    assert "'answer'" in blank["bleu"].reason

    summary = result.summary()
    assert summary["exact_match"].mean == pytest.approx(1 / 3)  # 0, 1, 0
    assert summary["id_context_recall"].scored == 2 and summary["id_context_recall"].errors == 2
    json.dumps([s.verdicts for sample in result.samples for s in sample.scores.values()])
