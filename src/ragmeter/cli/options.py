"""The judge's settings as one option group shared by ``evaluate``, ``generate``, ``align``
and ``monitor``: declared here once, with the defaults of the typed groups they fill
(``LLMCallOptions``, ``LocalModelOptions``, ``CascadeOptions``).

A command decorated with ``@judge_option_group`` gets the flags below and receives them
built into one ``judge_options: JudgeOptions`` argument. An option left out stays at its
group's default, so no default is written twice; one given to a judge that does not use it
is named in a warning when the judge is built (``JudgeOptions.inapplicable``).
"""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, Optional

import typer

from ragmeter.calls.options import DEFAULT_CALLS
from ragmeter.cli.console import parse_prices
from ragmeter.judges.options import CascadeOptions, JudgeOptions, LocalModelOptions

LOCAL = LocalModelOptions()


def parse_band(value: str | None) -> tuple[float, float] | None:
    if value is None:
        return None
    try:
        low, high = (float(v) for v in value.split(","))
    except ValueError:
        raise typer.BadParameter(f"--escalate-band takes LOW,HIGH (e.g. 0.25,0.75), not {value!r}")
    return low, high


GROUP: dict[str, tuple[Any, Any]] = {
    # parameter: (annotation, typer option); every default None = the group's own default
    "timeout": (Optional[float], typer.Option(
        None, "--timeout", min=0.001, help=f"LLM judge and remote embedder: seconds per call attempt (default {DEFAULT_CALLS.timeout:g}).")),
    "max_attempts": (Optional[int], typer.Option(
        None, "--max-attempts", min=1, help=f"LLM judge and remote embedder: attempts per call, the first included (default {DEFAULT_CALLS.max_attempts}).")),
    "price": (list[str], typer.Option(
        [], "--price", help="LLM judge: price per million tokens, MODEL=PROMPT,COMPLETION (repeatable).")),
    "verifier": (Optional[str], typer.Option(
        None, "--verifier", help=f"Local judge: the claim verifier, alignment (words and their meaning) | lexical (shared words only, faster) | nli:HF_NAME_OR_PATH[?OPTION=VALUE&...] (your own NLI cross-encoder; options label, max_length, batch_size, trust_remote_code, revision, tokenizer, device, scoring: docs/local_judge.md) (default {LOCAL.verifier}).")),
    "threads": (Optional[int], typer.Option(
        None, "--threads", min=1, help="Local judge and embedder: torch threads (on a busy machine 1 can beat 2).")),
    "band": (Optional[str], typer.Option(
        None, "--escalate-band", help="Cascade (local+LLM): local probabilities strictly between LOW,HIGH go to the LLM judge (default: every verdict not calibrated as right 95% of the time).")),
}


def options_from(timeout: float | None, max_attempts: int | None, price: list[str], verifier: str | None,
                 threads: int | None, band: str | None) -> JudgeOptions:
    """The flags as typed groups; a flag not given leaves its field at the group default."""
    given = {"timeout": timeout, "max_attempts": max_attempts, "prices": parse_prices(price) or None,
             "verifier": verifier, "threads": threads, "band": parse_band(band)}
    return JudgeOptions.of({name: value for name, value in given.items() if value is not None})


def judge_option_group(command: Callable[..., Any]) -> Callable[..., Any]:
    """Give ``command`` the judge flags; it receives them as ``judge_options: JudgeOptions``."""
    signature = inspect.signature(command)
    kept = [p for p in signature.parameters.values() if p.name != "judge_options"]
    added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=kind)
             for name, (kind, option) in GROUP.items()]

    @functools.wraps(command)
    def run(**kwargs: Any) -> Any:
        flags = {name: kwargs.pop(name) for name in GROUP}
        return command(**kwargs, judge_options=options_from(**flags))

    run.__signature__ = signature.replace(parameters=[*kept, *added])  # type: ignore[attr-defined]
    run.__annotations__ = {**{k: v for k, v in command.__annotations__.items() if k != "judge_options"},
                           **{name: kind for name, (kind, _) in GROUP.items()}}
    return run


__all__ = ["CascadeOptions", "judge_option_group", "options_from", "parse_band"]
