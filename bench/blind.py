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
        "fresh7": ("h151-h170, written 2026-11-27 (ninth session) by a helper who ran no scorer "
                   "and did not read the scorers' code; twenty domains none of h01-h150 uses"),
    },
    "context_relevance_pairs.jsonl": {
        "ctxrel-10": ("40 pairs over 16 domains no earlier set uses, written 2026-11-27 by a helper "
                      "who ran no scorer and did not read the scorers' code; balanced on which "
                      "passage names the subject and on length"),
    },
    "support_pairs.jsonl": {
        "support-blind-1": ("240 (premise, claim) pairs over 30 domains, 4 supported and 4 not per "
                            "premise (paraphrase, restated figure, summary, inference, true denial, "
                            "true comparison; wrong role, reversed comparison, wrong figure, "
                            "negation, false denial, unsupported addition, overgeneralisation), "
                            "written 2026-11-27 (tenth session) by a helper who ran no scorer "
                            "and did not read the scorers' code"),
    },
    "answer_relevancy_triples.jsonl": {
        "blind-2026-11-27": ("40 triples, 8 per kind (incomplete, evasive, off-point, padded, "
                             "refusal), 8 one-phrase answers, written 2026-11-27 by a helper who "
                             "ran no scorer and did not read the scorers' code"),
    },
}

RETIRED: dict[str, dict[str, str]] = {
    # blind parts used to choose a setting: development data now (part -> when and why)
    "rag_dev.jsonl": {
        "fresh5": "2026-11-24, seventh session: the roles2 merge was weighed on it",
        "fresh6": "2026-11-24, eighth session: scored once per tree while routes were chosen",
    },
    "context_relevance_pairs.jsonl": {
        "ctxrel-8": "2026-11-24: printed beside every round of relevance changes",
        "ctxrel-9": "2026-11-24: printed beside every round of relevance changes",
    },
}


def is_blind(data_file: str, part: str | None) -> bool:
    """Whether ``part`` of ``bench/data/<data_file>`` is blind today."""
    return part is not None and part in BLIND.get(data_file, {})
