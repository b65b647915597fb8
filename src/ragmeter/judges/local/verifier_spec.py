"""The verifier spec: one string that names the local judge's claim verifier and its options.

    alignment                              the default (words and their meaning)
    lexical                                shared words only, faster
    nli:NAME_OR_PATH                       a Hugging Face NLI cross-encoder, by hub name or directory
    nli:NAME_OR_PATH?OPTION=VALUE&...      the same, with options (below)

Why a string: the same verifier must be sayable on the command line (``--verifier``), in a
config file, in ``judge_options`` and in the options a Ray worker rebuilds its judge from,
and a real model needs more than its name (custom code to trust, its entailment label, a
shorter window on a small machine). The options are written like a URL's query, after the
first ``?``: a model name or path holds no ``?`` in practice, and ``%XX`` escapes a ``&``,
``=`` or ``?`` inside a value.

Options of ``nli:`` (each at most once; anything else is an ``InvalidVerifierSpec`` naming it):

    label=NAME|INDEX          the output read as support (default: found from the config's labels)
    max_length=N              tokens per (premise, claim) pair, longer pairs truncated (default 512)
    batch_size=N              pairs per forward pass (default 16)
    trust_remote_code=1|0     run the model's own Python code (HHEM-2.1 needs it; default 0)
    revision=REV              hub branch, tag or commit (pin one when trusting remote code)
    tokenizer=NAME_OR_PATH    load the tokenizer from elsewhere (default: the model's own)
    device=cpu|cuda|cuda:N|mps  where the model runs (default cpu)
    scoring=auto|logits|predict  how pairs are scored: ``logits`` tokenises (premise, claim)
                              and reads the classifier's outputs; ``predict`` calls the
                              model's own ``predict(pairs)`` (custom code such as HHEM-2.1,
                              which formats its own prompt); ``auto`` (default) uses
                              ``predict`` when the model's code defines one

Parsing only checks the text; whether the model loads is known when it is first used
(``LocalModelUnavailable``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote, unquote

from ragmeter.errors import InvalidVerifierSpec

BUILT_IN = ("alignment", "lexical")
"""The verifiers that need no options and no model but the bundled ones."""

SCORING = ("auto", "logits", "predict")

DEFAULT_MAX_LENGTH = 512
DEFAULT_BATCH_SIZE = 16
_MAX_TOKENS = 1_000_000  # a guard against typos (max_length=5120000), not a model limit
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")
_DEVICE = re.compile(r"cpu|mps|cuda(:\d+)?")

FORMS = "'alignment', 'lexical' or 'nli:NAME_OR_PATH[?OPTION=VALUE&...]'"


@dataclass(frozen=True)
class NLISpec:
    """An ``nli:`` verifier as parsed: the model and every option, defaults filled in."""

    model: str
    label: str | int | None = None
    max_length: int = DEFAULT_MAX_LENGTH
    batch_size: int = DEFAULT_BATCH_SIZE
    trust_remote_code: bool = False
    revision: str | None = None
    tokenizer: str | None = None
    device: str = "cpu"
    scoring: str = "auto"

    @property
    def text(self) -> str:
        """The canonical spec: options that differ from their defaults, in a fixed order, so
        that two spellings of one verifier share one loaded model."""
        parts = []
        for name in OPTIONS:
            value = getattr(self, name)
            if value != _DEFAULTS[name]:
                shown = ("1" if value else "0") if isinstance(value, bool) else str(value)
                parts.append(f"{name}={quote(shown, safe='/:@')}")
        return f"nli:{self.model}" + (f"?{'&'.join(parts)}" if parts else "")


def _positive_int(option: str, value: str, spec: str) -> int:
    if not re.fullmatch(r"\d+", value) or not 0 < int(value) <= _MAX_TOKENS:
        raise InvalidVerifierSpec(
            f"verifier {spec!r}: option {option!r} must be a whole number from 1 to {_MAX_TOKENS:,}, "
            f"not {value!r}", option)
    return int(value)


def _flag(option: str, value: str, spec: str) -> bool:
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise InvalidVerifierSpec(f"verifier {spec!r}: option {option!r} is 1 or 0 (true/false, yes/no), "
                              f"not {value!r}", option)


def _label(option: str, value: str, spec: str) -> str | int:
    return int(value) if re.fullmatch(r"\d+", value) else value


def _text(option: str, value: str, spec: str) -> str:
    return value


def _device(option: str, value: str, spec: str) -> str:
    if not _DEVICE.fullmatch(value):
        raise InvalidVerifierSpec(f"verifier {spec!r}: option 'device' is cpu, cuda, cuda:N or mps, "
                                  f"not {value!r}", option)
    return value


def _scoring(option: str, value: str, spec: str) -> str:
    if value not in SCORING:
        raise InvalidVerifierSpec(f"verifier {spec!r}: option 'scoring' is one of {', '.join(SCORING)}, "
                                  f"not {value!r}", option)
    return value


OPTIONS = {
    "label": _label,
    "max_length": _positive_int,
    "batch_size": _positive_int,
    "trust_remote_code": _flag,
    "revision": _text,
    "tokenizer": _text,
    "device": _device,
    "scoring": _scoring,
}
"""Each option of ``nli:`` and the function that reads its value (or says why it cannot)."""

_DEFAULTS = {name: getattr(NLISpec("x"), name) for name in OPTIONS}


def parse_nli(spec: str) -> NLISpec:
    """``nli:NAME_OR_PATH[?OPTION=VALUE&...]`` as an ``NLISpec``; ``InvalidVerifierSpec`` (one
    line, naming the option) for an unknown option, a repeated one or a bad value."""
    text = spec.strip()
    if not text.startswith("nli:"):
        raise InvalidVerifierSpec(f"not an nli: verifier: {spec!r}")
    model, _, query = text[4:].partition("?")
    model = model.strip()
    if not model:
        raise InvalidVerifierSpec(f"verifier {spec!r} names no model: use 'nli:NAME_OR_PATH'")
    values: dict[str, object] = {}
    for item in query.split("&") if query else []:
        name, eq, raw = item.partition("=")
        name = name.strip()
        if name not in OPTIONS:
            known = ", ".join(OPTIONS)
            raise InvalidVerifierSpec(
                f"verifier {spec!r}: unknown option {name!r} (options: {known})", name or None)
        if name in values:
            raise InvalidVerifierSpec(f"verifier {spec!r}: option {name!r} is given twice", name)
        value = unquote(raw).strip()
        if not eq or not value:
            raise InvalidVerifierSpec(f"verifier {spec!r}: option {name!r} has no value "
                                      f"(write {name}=VALUE)", name)
        values[name] = OPTIONS[name](name, value, spec)
    return NLISpec(model, **values)  # type: ignore[arg-type]


def parse_verifier_spec(spec: str | None) -> str | NLISpec:
    """A built-in verifier's name, or the parsed ``nli:`` spec; ``InvalidVerifierSpec`` for
    anything else. Cheap (no model is loaded), so judges check their spec when built."""
    text = (spec or "alignment").strip()
    if text in BUILT_IN:
        return text
    if text.startswith("nli:"):
        return parse_nli(text)
    raise InvalidVerifierSpec(f"unknown verifier {spec!r}: use {FORMS}")
