"""What the alignment verifier measured for one (premise, claim) pair: ``Alignment``.

Its own module because two readers combine the same signals: the verifier's hand-set
formula (``verifier.AlignmentVerifier.hand_probability``) and the learned head
(``support_head``), which must not import the verifier that uses it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ragmeter.judges.local.support import SemanticMatch


@dataclass(frozen=True)
class Alignment:
    """The signals behind one support score, each in [0, 1] (1 = agrees with the premise).

    ``coverage``: rarity-weighted share of the claim's content lemmas found in the evidence
    sentence (full credit) or elsewhere in the premise (half credit).
    ``pairs``: share of the claim's neighbouring content-word pairs stated together
    (``_pair_coverage``).
    ``entities``: mean over the claim's named entities of how well each is found (1 if none).
    ``values``: share of the claim's numbers and dates that the premise states (1 if none).
    ``negation``: 0 if the claim negates what its evidence sentence asserts or the other
    way round (``_negation_agrees``), else 1.
    ``similarity``: MiniLM cosine between the claim and its evidence sentence, or ``None``
    when the verifier runs without embeddings.
    ``semantic``: the reading by meaning (``support.SemanticMatch``), when it was made.
    ``roles``: who did what to whom, against the premise (``roles.role_agreement``): 1
    agrees, 0 conflicts (swapped roles, another name in the role), 0.5 unknown or not read.
    """

    coverage: float
    pairs: float
    entities: float
    values: float
    negation: float
    similarity: float | None = None
    semantic: SemanticMatch | None = None
    roles: float = 0.5

    TRUST_FROM: ClassVar[float] = 0.45

    @property
    def found_together(self) -> bool:
        """Every content word of the claim is in the premise, and every neighbouring pair
        together: nothing is left for a reading by meaning to find (it is not made)."""
        return self.coverage >= 0.999 and self.pairs >= 0.999

    @property
    def trust(self) -> float:
        """How far the semantic reading may replace the lexical one, in [0, 1]: 0 below a
        claim-to-evidence cosine of 0.45 (``TRUST_FROM``), 1 from 0.65, linear between.

        Word counterparts are trusted only when the claim as a whole reads like its
        evidence: on HaluEval QA dev, fabricated answers found a counterpart for most of
        their words too (a plausible "singer" for "actor"), but as sentences they are far
        from the passage's; faithful paraphrases on the RAG dev set score 0.55-0.95 (the
        low end: short claims against a long evidence sentence).
        """
        if self.semantic is None:
            return 0.0
        return min(1.0, max(0.0, (self.semantic.similarity - self.TRUST_FROM) / 0.2))

    @property
    def meaning_coverage(self) -> float:
        """Coverage with paraphrase: the lexical one, raised toward the semantic one by
        ``trust``."""
        if self.semantic is None:
            return self.coverage
        return self.coverage + self.trust * max(0.0, self.semantic.coverage - self.coverage)

    @property
    def meaning_pairs(self) -> float:
        """Word pairs stated together, lexically or (by ``trust``) through counterparts."""
        if self.semantic is None:
            return self.pairs
        return self.pairs + self.trust * max(0.0, self.semantic.pairs - self.pairs)

    @property
    def agrees(self) -> float:
        """0 when a negation or an antonym sets the claim against its evidence, else 1."""
        contrast = self.semantic.contrast if self.semantic else 0.0
        return self.negation * (1.0 - contrast)
