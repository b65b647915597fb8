"""What a chunk is about: its named entities and its keyphrases, from one spaCy parse.

The knowledge graph links chunks through these, so they must compare equal across chunks:

* **Entities** are spaCy's, in ``ragmeter.text.nlp.normalise_entity`` form ("The Eiffel
  Tower's" -> "eiffel tower"), merged by that form whatever the label (the small model calls
  the same tower LOC in one sentence and FAC in the next). A one-word name is given the full
  name it abbreviates when exactly one longer name of the same label ends with it, first
  within its document, else in the whole corpus ("Curie" -> "marie curie" unless "Pierre
  Curie" is named too): later mentions of a person are mostly by surname, and a bridge
  between two chunks is worth little if it is missed for that.
* **Keyphrases** are the topics a chunk talks about: noun chunks from the dependency parse,
  determiners and pronouns dropped, the head lemmatised ("the two Nobel Prizes" -> "nobel
  prize"), ranked by how often they occur times how rare their words are
  (``ragmeter.text.nlp.word_weight``, an IDF proxy with no corpus), top ``k`` kept. Phrases
  that are only a name are left to the entities, and common phrases ("the year", "people")
  are dropped: a shared "year" links everything to everything.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from ragmeter.text.nlp import VALUE_LABELS, normalise_entity, normalise_text, word_weight

from ragmeter.text.syntax import parse

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc, Span, Token

KEYPHRASES_PER_CHUNK = 8
"""Keyphrases kept per chunk (the best by ``count x rarity``)."""

MIN_RARITY = 0.5
"""A keyphrase's mean word rarity must reach this ("tower" 0.72 passes, "year" 0.45 not)."""

_FINITE = frozenset({"VBD", "VBZ", "VBP", "MD"})
_DROP_LEAD = frozenset({"DET", "PRON", "NUM", "PART", "PUNCT", "CCONJ", "ADP", "SYM"})


@dataclass(frozen=True)
class EntityMention:
    """A named entity of a chunk: as written first, its spaCy label and its comparable form.

    ``norm`` is the canonical form after name expansion (``"marie curie"`` for a "Curie"
    that can only be her); ``is_name`` is false for values (dates, numbers, money...).
    """

    text: str
    label: str
    norm: str

    @property
    def is_name(self) -> bool:
        return self.label not in VALUE_LABELS

    def to_dict(self) -> dict[str, str]:
        return {"text": self.text, "label": self.label, "norm": self.norm}


@dataclass(frozen=True)
class ChunkFeatures:
    """Entities (first mention order, one per canonical form) and keyphrases (best first)."""

    entities: tuple[EntityMention, ...]
    keyphrases: tuple[str, ...]


def _entities(doc: "Doc") -> list[EntityMention]:
    seen: dict[str, EntityMention] = {}
    for ent in doc.ents:
        norm = normalise_entity(ent.text)
        if not norm or norm in seen:
            continue
        seen[norm] = EntityMention(ent.text.strip(), ent.label_, norm)
    return list(seen.values())


def _singular(tok: "Token") -> str:
    """The head noun's lemma, except where the lemmatiser strips the "s" of a singular
    ("physics" -> "physic", "mathematics", "news")."""
    if tok.lower_.endswith(("ics", "ss", "news")):
        return tok.text
    return tok.lemma_ or tok.text


def _phrase(span: "Span", name_tokens: set[int]) -> tuple[str, list[str]] | None:
    """The normal form of a noun chunk and its content words, or ``None`` to skip it."""
    toks = list(span)
    while toks and (toks[0].pos_ in _DROP_LEAD or toks[0].tag_ == "POS" or toks[0].is_stop):
        toks = toks[1:]
    if not toks or toks[-1].pos_ not in ("NOUN", "PROPN"):
        return None
    if all(t.i in name_tokens for t in toks):
        return None  # a bare name: that is what entities are for
    if any(t.tag_ in _FINITE or (t.pos_ == "VERB" and 0 < k < len(toks) - 1
                                 and toks[k - 1].pos_ in ("NOUN", "PROPN"))
           for k, t in enumerate(toks)):
        return None  # a misparse swallowed a verb ("radioactivity changed physics")
    words = [normalise_text(t.text) for t in toks[:-1]] + [normalise_text(_singular(toks[-1]))]
    words = [w for w in words if w]
    if not words:
        return None
    content = [normalise_text(t.lemma_) for t in toks
               if not t.is_stop and t.pos_ in ("NOUN", "PROPN", "ADJ", "VERB")]
    content = [w for w in content if w and not w.isdigit()]
    if not content:
        return None
    return " ".join(words), content


def _keyphrases(doc: "Doc", top_k: int) -> list[str]:
    name_tokens = {t.i for ent in doc.ents if ent.label_ not in VALUE_LABELS for t in ent}
    counts: Counter[str] = Counter()
    rarity: dict[str, float] = {}
    first: dict[str, int] = {}
    for span in doc.noun_chunks:
        found = _phrase(span, name_tokens)
        if found is None:
            continue
        phrase, content = found
        counts[phrase] += 1
        first.setdefault(phrase, span.start)
        rarity[phrase] = sum(word_weight(w) for p in content for w in p.split()) / max(
            1, sum(len(p.split()) for p in content))
    scored = []
    for phrase, count in counts.items():
        if rarity[phrase] < MIN_RARITY:
            continue
        length_bonus = 1.0 + 0.25 * (len(phrase.split()) - 1)
        scored.append((-(1 + math.log(count)) * rarity[phrase] * length_bonus, first[phrase],
                       phrase))
    scored.sort()
    return [p for _, _, p in scored[:top_k]]


def _canonical_names(groups: Sequence[Sequence[EntityMention]]) -> dict[tuple[str, str], str]:
    """(group key, one-word norm) -> the unique longer name of the same label ending with it.

    ``groups`` are the entity lists of the chunks of one document each; the corpus is the
    fallback scope when a document alone does not decide.
    """
    def longer(pool: Sequence[EntityMention], short: EntityMention) -> set[str]:
        return {e.norm for e in pool if e.label == short.label and " " in e.norm
                and e.norm.endswith(" " + short.norm)}

    everything = [e for g in groups for e in g]
    out: dict[tuple[str, str], str] = {}
    for gi, group in enumerate(groups):
        for e in group:
            if " " in e.norm or not e.is_name:
                continue
            local = longer(group, e)
            if len(local) == 1:
                out[(str(gi), e.norm)] = next(iter(local))
            elif not local:
                wide = longer(everything, e)
                if len(wide) == 1:
                    out[(str(gi), e.norm)] = next(iter(wide))
    return out


def extract(texts: Sequence[str], document_ids: Sequence[str] | None = None,
            top_k: int = KEYPHRASES_PER_CHUNK) -> list[ChunkFeatures]:
    """Entities and keyphrases of each text (one batched parse).

    ``document_ids`` (one per text) scope the short-name expansion to a document first; by
    default every text is its own document.
    """
    doc_ids = (list(document_ids) if document_ids is not None
               else [str(i) for i in range(len(texts))])
    if len(doc_ids) != len(texts):
        raise ValueError(f"{len(texts)} texts but {len(doc_ids)} document ids")
    docs = parse(list(texts))
    raw = [_entities(d) for d in docs]
    order = list(dict.fromkeys(doc_ids))
    per_doc = {d: [e for ents, did in zip(raw, doc_ids) if did == d for e in ents] for d in order}
    canon = _canonical_names([per_doc[d] for d in order])
    index = {d: str(i) for i, d in enumerate(order)}
    out: list[ChunkFeatures] = []
    for doc, ents, did in zip(docs, raw, doc_ids):
        merged: dict[str, EntityMention] = {}
        for e in ents:
            norm = canon.get((index[did], e.norm), e.norm)
            if norm not in merged:
                merged[norm] = EntityMention(e.text, e.label, norm)
        out.append(ChunkFeatures(tuple(merged.values()), tuple(_keyphrases(doc, top_k))))
    return out
