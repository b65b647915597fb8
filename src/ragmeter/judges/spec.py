"""Judges named by strings, so that a CLI flag, a config file and Python all say the same thing.

    local                                  small local models, no key, no network
    local+openai:gpt-4o-mini               local first; uncertain verdicts go to the LLM judge
    openai:gpt-4o-mini                     OpenAI (OPENAI_API_KEY; OPENAI_BASE_URL honoured)
    openai:MODEL@http://host:port/v1       any OpenAI-compatible server (vLLM, llama.cpp, LM Studio...)
    ollama:llama3.1                        Ollama at $OLLAMA_HOST or http://localhost:11434
    azure:DEPLOYMENT@https://NAME.openai.azure.com
                                           Azure OpenAI (AZURE_OPENAI_API_KEY, AZURE_OPENAI_API_VERSION)
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import Any, Mapping

from ragmeter.calls.cache import CacheSetting, open_cache
from ragmeter.calls.redact import mask_secrets
from ragmeter.judges.cascade import CascadeJudge
from ragmeter.judges.llm_judge import LLMJudge
from ragmeter.judges.local import LocalJudge
from ragmeter.judges.openai_chat import OpenAIChatBackend
from ragmeter.judges.options import JudgeOptions
from ragmeter.judges.prompting import FreeFormAdapter
from ragmeter.judges.protocol import FreeFormJudge, Judge
from ragmeter.errors import InvalidOption, InvalidOptionType

log = logging.getLogger("ragmeter")

DEFAULT_AZURE_API_VERSION = "2024-10-21"
FORMS = "'local', 'local+openai:MODEL', 'openai:MODEL', 'openai:MODEL@http://host:port/v1', 'ollama:MODEL', 'azure:DEPLOYMENT@https://NAME.openai.azure.com'"


@dataclass(frozen=True)
class JudgeSpec:
    provider: str
    model: str | None = None
    base_url: str | None = None


def parse_judge_spec(spec: str) -> JudgeSpec:
    text = spec.strip()
    shown = mask_secrets(text)  # errors reach screens and CI logs: the spec without its credentials
    if text == "local":
        return JudgeSpec("local")
    provider, sep, rest = text.partition(":")
    if not sep or not rest or provider not in ("openai", "ollama", "azure"):
        raise InvalidOption(f"unknown judge {shown!r}; use one of {FORMS}")
    # The base URL starts at the first '@http': model names may contain '@' but not that.
    model, at, url = rest.partition("@http")
    base_url = f"http{url}" if at else None
    if not model:
        raise InvalidOption(f"judge {shown!r} names no model; use one of {FORMS}")
    if provider == "ollama" and base_url is None:
        host = os.environ.get("OLLAMA_HOST", "http://localhost:11434").rstrip("/")
        base_url = host if host.endswith("/v1") else f"{host}/v1"
    if provider == "azure" and base_url is None:
        raise InvalidOption("an azure judge needs its endpoint: azure:DEPLOYMENT@https://NAME.openai.azure.com")
    return JudgeSpec(provider, model, base_url)


def get_judge(
    spec: "str | Judge | FreeFormJudge | None" = "local",
    *,
    cache: CacheSetting = True,
    options: JudgeOptions | Mapping[str, Any] | None = None,
) -> Judge:
    """The judge ``spec`` names (see the module doc), with ``options``.

    A ``Judge`` object passes through unchanged; an object with only an async
    ``generate(prompt, output_type)`` is adapted into one (its tasks bundled into one call
    per phase, like the LLM judge's)."""
    settings = JudgeOptions.of(options)
    if spec is None:
        spec = "local"
    if not isinstance(spec, str):
        if isinstance(spec, Judge):
            return spec
        if callable(getattr(spec, "generate", None)):
            return FreeFormAdapter(spec)
        raise InvalidOptionType(
            f"a judge is a spec string ({FORMS}), a Judge, or an object with an async generate(); "
            f"got {type(spec).__name__}"
        )
    text = spec.strip()
    for line in settings.inapplicable(text):
        log.warning(line)  # never silently ignored: one line per setting group the judge does not use
    if text.startswith("local+"):
        llm = get_judge(text.removeprefix("local+"), cache=cache, options=JudgeOptions(llm=settings.llm))
        return CascadeJudge(LocalJudge(settings.local.verifier, settings.local.threads), llm, settings.cascade.band)
    parsed = parse_judge_spec(spec)
    if parsed.provider == "local":
        return LocalJudge(settings.local.verifier, settings.local.threads)
    assert parsed.model is not None
    if parsed.provider == "azure":
        backend = OpenAIChatBackend(
            parsed.model,
            parsed.base_url,
            api_key_env="AZURE_OPENAI_API_KEY",
            azure_api_version=os.environ.get("AZURE_OPENAI_API_VERSION", DEFAULT_AZURE_API_VERSION),
        )
    else:
        backend = OpenAIChatBackend(parsed.model, parsed.base_url)
    # shown in run info, errors, logs: no credentials
    return LLMJudge.with_options(backend, settings.llm, name=mask_secrets(text), cache=open_cache(cache))

