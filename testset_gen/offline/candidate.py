"""A question the offline recipes propose, before the filter and the choice of records."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from testset_gen.offline.record_filter import FilterInput


BIRTH = "birth"
"""``metadata["compared"]`` of a birth-date comparison."""


@dataclass(frozen=True)
class Candidate:
    evolution: str
    question: str
    ground_truth: str
    chunk_ids: tuple[str, ...]
    meta: tuple[tuple[str, Any], ...]
    rank: int = 0  # 0 for the better template of a type (time difference, descriptor)
    subject: str = ""  # the name the statement is about (must be written in its sentence)
    derived: str = ""  # "years_between" / "first": the derivation the filter recomputes
    subject_label: str = ""
    structural: bool = False
    """Made from a page's structure (``recipes`` over ``pages.Page``): checked by
    ``structure_checks``, whose rules fit questions written whole from headings, lists and
    tables, not by the statement rules of ``record_filter``."""

    def filter_input(self, contexts: Sequence[str]) -> FilterInput:
        meta = dict(self.meta)
        return FilterInput(self.question, self.ground_truth, str(meta.get("answer", "")),
                           tuple(meta.get("source_sentences", ())), tuple(contexts),
                           subject=self.subject, derived=self.derived,
                           subject_label=self.subject_label,
                           pages=tuple(meta.get("pages", ())) or (
                               (str(meta["page"]),) if meta.get("page") else ()))
