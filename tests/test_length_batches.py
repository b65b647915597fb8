"""Texts grouped into model batches of similar length (``embedders.length_batches``), and the
local judge's word encoder that uses it."""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from ragmeter.embedders.length_batches import length_batches  # noqa: E402


def padded(lengths, batches):
    return sum(max(lengths[i] for i in b) * len(b) for b in batches)


def test_a_long_text_gets_its_own_pass():
    # together: 100 x 5 + 30 = 530 tokens' worth; apart: 100 + 30 + 5 x 4 + 30 = 180
    assert length_batches([5, 100, 5, 5, 5], max_batch=32) == [[1], [0, 2, 3, 4]]


def test_texts_of_one_length_fill_as_few_batches_as_the_cap_allows():
    batches = length_batches([7] * 10, max_batch=4)
    assert [len(b) for b in batches] == [2, 4, 4]
    assert [i for b in batches for i in b] == list(range(10))  # equal lengths keep their order


def test_longest_first_and_every_text_once():
    lengths = [3, 40, 12, 12, 90, 1, 40, 8]
    batches = length_batches(lengths, max_batch=3)
    flat = [i for b in batches for i in b]
    assert sorted(flat) == list(range(len(lengths)))
    assert [lengths[i] for i in flat] == sorted(lengths, reverse=True)
    assert all(1 <= len(b) <= 3 for b in batches)


def test_no_overhead_means_no_padding_and_a_large_one_means_full_batches():
    lengths = [9, 4, 4, 9, 2]
    assert padded(lengths, length_batches(lengths, 8, overhead=0)) == sum(lengths)
    assert length_batches(lengths, 8, overhead=1000) == [[0, 3, 1, 2, 4]]


def test_nothing_to_batch_and_a_bad_cap():
    assert length_batches([], max_batch=32) == []
    with pytest.raises(ValueError, match="max_batch"):
        length_batches([1], max_batch=0)


def test_the_word_encoder_runs_short_and_long_texts_in_separate_passes(minilm, monkeypatch):
    from ragmeter.judges.local.token_encoder import TokenEncoder

    tokens = TokenEncoder()
    passes: list[list[str]] = []
    original = tokens._forward

    def forward(texts):
        passes.append(list(texts))
        return original(texts)

    monkeypatch.setattr(tokens, "_forward", forward)
    long = " ".join(["Warsaw was then part of the Russian Empire."] * 8)
    short = ["Who discovered polonium?", "Marie Curie did.", "In 1898."]
    encoded = tokens.encode([short[0], long, *short[1:]])
    assert passes == [[long], short]
    alone = TokenEncoder().encode([short[0]])[0]
    assert encoded[0].words == alone.words == ("who", "discovered", "polonium", "?")
    assert np.abs(encoded[0].pooled - alone.pooled).max() < 1e-6

