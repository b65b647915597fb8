"""spaCy with the dependency parser: roles in claims and premises, noun chunks and question
syntax for the generator.

Why a second pipeline next to ``nlp.load_nlp``: most judgements need only sentences, tags
and entities, and the parser is the slowest pipe, so the shared pipeline leaves it out. Two
readers need syntax: the claim verifier's role check (``roles``: who did what to whom) and
the test-set generator (keyphrases are noun chunks; a statement becomes a question through
its subject, verb and objects). Same model package, loaded with every pipe; about 1 s more
at start-up and one more copy of the small model in memory, paid only when syntax is read.

Parses are cached by text (least recently used dropped): the verifier reads the same
premise sentences for every claim of a sample, the generator the same chunks twice.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Sequence

from ragmeter.text import caches
from ragmeter.text.nlp import load_first

if TYPE_CHECKING:  # pragma: no cover
    from spacy.language import Language
    from spacy.tokens import Doc

_PARSER: "Language | None" = None
_PARSER_LOCK = threading.Lock()
_DOCS: "OrderedDict[str, Doc]" = OrderedDict()
_DOCS_LOCK = threading.Lock()
CACHE_SIZE = 4096
"""Parsed texts kept: chunks are read by the graph builder and again by the generator."""

_GLUED = re.compile(r"(?<=[a-z0-9)\]\"'])\.(?=[A-Z][a-z])")


@caches.register
def _clear_docs() -> None:
    with _DOCS_LOCK:
        _DOCS.clear()


def load_parser() -> "Language":
    """The process-wide English pipeline with its dependency parser (loaded on first use).

    Tries the pipelines of ``nlp.MODEL_NAMES`` in order; raises
    ``LocalModelUnavailable`` naming the pip package when none loads.
    """
    global _PARSER
    if _PARSER is not None:
        return _PARSER
    with _PARSER_LOCK:
        if _PARSER is not None:
            return _PARSER
        _PARSER = load_first("the local judge and the offline generator", needs="parser")
        return _PARSER


def parse(texts: Sequence[str], batch_size: int = 32, entities: bool = True) -> "list[Doc]":
    """Parsed ``Doc`` of each text, the uncached ones through one ``nlp.pipe``.

    A full stop glued to the next sentence ("Paris.The") gets its space back first, as the
    judges' pipeline does: a glued pair is one token to spaCy. ``entities=False`` leaves
    the entity recogniser out (the role check needs tags, lemmas and the parse only;
    measured, the recogniser is half the pipeline's time: 4.1 s against 1.9 s for 300
    HaluEval passages); such docs are cached apart and have no ``ents``.
    """
    out: "list[Doc | None]" = [None] * len(texts)
    todo: dict[str, list[int]] = {}
    prefix = "" if entities else "\x00no-entities\x00"
    with _DOCS_LOCK:
        for i, text in enumerate(texts):
            hit = _DOCS.get(prefix + text)
            if hit is not None:
                _DOCS.move_to_end(prefix + text)
                out[i] = hit
            else:
                todo.setdefault(text, []).append(i)
    if todo:
        nlp = load_parser()
        pending = list(todo)
        docs = list(nlp.pipe((_GLUED.sub(". ", t) for t in pending), batch_size=batch_size,
                             disable=[] if entities else ["ner"]))
        with _DOCS_LOCK:
            for text, doc in zip(pending, docs):
                for i in todo[text]:
                    out[i] = doc
                _DOCS[prefix + text] = doc
                _DOCS.move_to_end(prefix + text)
            while len(_DOCS) > CACHE_SIZE:
                _DOCS.popitem(last=False)
    return out  # type: ignore[return-value]
