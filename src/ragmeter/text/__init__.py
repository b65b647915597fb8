"""The text toolkit: what every part of ragmeter needs to read English text, and nothing that judges.

The local judge (``ragmeter.judges.local``) and test-set generation (``testset_gen``) both
stand on it; it imports neither. Nothing heavy is imported until a model is first used (spaCy
loads on the first analysis), so importing this package is cheap. One concept per module:

* ``nlp``: the one place spaCy runs and its results are cached: ``analyse`` (sentences,
  entities, numbers, dates, negations, content words), ``sentences``, entity and text normal
  forms, word weights;
* ``syntax``: ``parse``, spaCy docs for rules that read the dependency tree;
* ``normalise``: the text and entity normal forms every comparison uses;
* ``quantities``: numbers, quantities with units, dates and durations, and whether two
  statements of one agree;
* ``language``: ``detect`` and ``unsupported_language`` (which language a text is in);
* ``words``: the English word lists the rules share;
* ``caches``: ``clear_caches()``, which forgets every cached result of the modules above and
  of the modules that register with it (the local judge's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from ragmeter.text.caches import clear_caches
    from ragmeter.text.language import detect, unsupported_language
    from ragmeter.text.nlp import LocalModelUnavailable, analyse, normalise_entity, normalise_text, sentences
    from ragmeter.text.syntax import parse

_EXPORTS = {
    "clear_caches": "ragmeter.text.caches",
    "detect": "ragmeter.text.language",
    "unsupported_language": "ragmeter.text.language",
    "LocalModelUnavailable": "ragmeter.text.nlp",
    "analyse": "ragmeter.text.nlp",
    "sentences": "ragmeter.text.nlp",
    "normalise_entity": "ragmeter.text.nlp",
    "normalise_text": "ragmeter.text.nlp",
    "parse": "ragmeter.text.syntax",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    # Lazy: importing one module of the toolkit should not import the others.
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ragmeter.text' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
