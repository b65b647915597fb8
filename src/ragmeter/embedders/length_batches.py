"""Texts grouped into model batches of similar length, so little of each pass is padding.

Why: a transformer's batch is padded to its longest text, and on CPU a forward pass costs
in proportion to the tokens it runs, padding included. The local judge encodes short
question parts and answer clauses beside long passage sentences; cut into fixed batches of
32 (even sorted by length), 52% of the tokens MiniLM ran in ``bench/bench_local.py``'s 400
samples were padding (40,667 tokens run for 19,515 real ones, measured). Batches cut where
the length drops (this module) run 21,549 tokens in 124 passes instead of 56.

The cut points minimise, over the texts sorted longest first,

    cost = sum over batches of (longest text's tokens x texts in the batch) + overhead x batches

with at most ``max_batch`` texts per batch: an exact dynamic programme over contiguous
groups (n x max_batch steps, microseconds for the few hundred texts of a call). ``overhead``
is a pass's fixed cost in tokens: measured with MiniLM-L6 on this machine's CPU, a pass
costs about 9 ms plus 0.31 ms per token (one thread), so about 30 tokens.
"""

from __future__ import annotations

from typing import Sequence

PASS_OVERHEAD_TOKENS = 30
"""A forward pass's fixed cost, in tokens' worth of work (MiniLM-L6, CPU; measured above)."""


def length_batches(lengths: Sequence[int], max_batch: int,
                   overhead: float = PASS_OVERHEAD_TOKENS) -> list[list[int]]:
    """Indices into ``lengths`` (token counts), grouped into batches of at most
    ``max_batch``, longest texts first, cut to minimise the padded tokens plus ``overhead``
    per batch (module docstring). Equal lengths keep their input order, so the grouping
    depends on the texts alone."""
    if max_batch < 1:
        # internal: the encoder's batch_size, already checked (InvalidOption) where a user sets it
        raise ValueError("max_batch must be >= 1")
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
    n = len(order)
    best = [0.0] + [float("inf")] * n  # best[j]: cheapest cut of the first j texts
    start = [0] * (n + 1)
    for j in range(1, n + 1):
        for i in range(max(0, j - max_batch), j):
            cost = best[i] + lengths[order[i]] * (j - i) + overhead
            if cost < best[j]:
                best[j], start[j] = cost, i
    batches: list[list[int]] = []
    j = n
    while j:
        batches.append(order[start[j]:j])
        j = start[j]
    return batches[::-1]
