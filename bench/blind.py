"""Which labelled data is blind and which is development data: the one list every benchmark reads.

Blind data is written by someone who has not read the scoring code, scored once, and never used
to choose a setting. A change to a scorer is accepted on its blind figures. Once a blind part has
been used to choose (its misses read, a setting picked on it), move it to ``RETIRED`` with the
date and reason: from then on it is development data, and new blind data is written.

Every quality benchmark prints its development and blind figures apart; ``bench/figures.py``
writes them under ``...development...`` and ``...blind...`` keys.
"""

from __future__ import annotations

BLIND: dict[str, dict[str, str]] = {
    # file under bench/data -> {part: how it was written}
    "rag_dev.jsonl": {
        "fresh8": ("h171-h190, written 2026-11-27 (eleventh session) by a helper who ran no scorer and did not read the scorers' code; new domains, paraphrasing faithful answers, variants "
                   "of eight kinds (wrong role, reversed comparison, false denial and "
                   "overgeneralisation among them)"),
    },
    "context_relevance_pairs.jsonl": {
        "ctxrel-11": ("40 pairs over 14 domains no earlier set uses, written 2026-11-27 (eleventh session) by a helper who ran no scorer and did not read the scorers' code; the negative names "
                      "the subject more in half of them"),
    },
    "support_pairs.jsonl": {
        "support-blind-2": ("160 (premise, claim) pairs over 20 premises, 4 supported and 4 not "
                            "per premise, the kinds of support-blind-1, written 2026-11-27 (eleventh session) by a helper who ran no scorer and did not read the scorers' code"),
    },
    "answer_relevancy_triples.jsonl": {
        "blind-2026-11-27b": ("40 triples, 8 per kind (incomplete, evasive, off-point, padded "
                              "with the whole answer kept, refusal), 8 of them one-phrase "
                              "answers, written 2026-11-27 (eleventh session) by a helper who ran no scorer and did not read the scorers' code"),
    },
}

RETIRED: dict[str, dict[str, str]] = {
    # blind parts used to choose a setting: development data now (part -> when and why)
    "rag_dev.jsonl": {
        "fresh5": "2026-11-24, seventh session: the roles2 merge was weighed on it",
        "fresh6": "2026-11-24, eighth session: scored once per tree while routes were chosen",
        "fresh7": ("2026-11-27, eleventh session: the rule families deleted this session were "
                   "chosen on the tenth session's blind ablation table"),
    },
    "context_relevance_pairs.jsonl": {
        "ctxrel-8": "2026-11-24: printed beside every round of relevance changes",
        "ctxrel-9": "2026-11-24: printed beside every round of relevance changes",
        "ctxrel-10": "2026-11-27, eleventh session: the family deletions were chosen on its ablation",
    },
    "support_pairs.jsonl": {
        "support-blind-1": "2026-11-27, eleventh session: the family deletions were chosen on its ablation",
    },
    "answer_relevancy_triples.jsonl": {
        "blind-2026-11-27": "2026-11-27, eleventh session: the family deletions were chosen on its ablation",
    },
}


def is_blind(data_file: str, part: str | None) -> bool:
    """Whether ``part`` of ``bench/data/<data_file>`` is blind today."""
    return part is not None and part in BLIND.get(data_file, {})
