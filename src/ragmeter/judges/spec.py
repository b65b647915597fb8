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

import os
from dataclasses import dataclass

from ragmeter.calls.cache import DiskCache
from ragmeter.calls.redact import mask_secrets
from ragmeter.calls.retry import RetryPolicy
from ragmeter.calls.usage import Prices
from ragmeter.judges.cascade import DEFAULT_BAND, CascadeJudge
from ragmeter.judges.llm_judge import LLMJudge
from ragmeter.judges.local import LocalJudge
from ragmeter.judges.openai_chat import OpenAIChatBackend
from ragmeter.judges.protocol import Judge

DEFAULT_AZURE_API_VERSION = "2024-10-21"
FORMS = "'local', 'local+openai:MODEL', 'openai:MODEL', 'openai:MODEL@http://host:port/v1', 'ollama:MODEL', 'azure:DEPLOYMENT@https://NAME.openai.azure.com'"


@dataclass(frozen=True)
class JudgeSpec:
    provider: str
    model: str | None = None
    base_url: str | None = None


def parse_judge_spec(spec: str) -> JudgeSpec:
    text = spec.strip()
    if text == "local":
        return JudgeSpec("local")
    provider, sep, rest = text.partition(":")
    if not sep or not rest or provider not in ("openai", "ollama", "azure"):
        raise ValueError(f"unknown judge {spec!r}; use one of {FORMS}")
    # The base URL starts at the first '@http': model names may contain '@' but not that.
    model, at, url = rest.partition("@http")
    base_url = f"http{url}" if at else None
    if not model:
        raise ValueError(f"judge {spec!r} names no model; use one of {FORMS}")
    if provider == "ollama" and base_url is None:
        host = os.environ.get("OLLAMA_HOST", "http://localhost:11434").rstrip("/")
        base_url = host if host.endswith("/v1") else f"{host}/v1"
    if provider == "azure" and base_url is None:
        raise ValueError("an azure judge needs its endpoint: azure:DEPLOYMENT@https://NAME.openai.azure.com")
    return JudgeSpec(provider, model, base_url)


def get_judge(
    spec: "str | Judge | None" = "local",
    *,
    cache: DiskCache | bool | None = True,
    timeout: float = 60.0,
    max_attempts: int = 5,
    max_concurrency: int = 16,
    prices: Prices | dict[str, tuple[float, float]] | None = None,
    structured: str = "auto",
    temperature: float = 0.0,
    max_tokens: int | None = None,
    seed: int | None = None,
    verifier: str = "alignment",
    band: tuple[float, float] = DEFAULT_BAND,
    threads: int | None = None,
) -> Judge:
    """Build a judge from its name; a ``Judge`` object passes through unchanged.

    ``verifier`` and ``threads`` set the local judge's claim verifier and torch threads;
    ``band`` is the cascade's range of uncertain local probabilities."""
    if spec is None:
        spec = "local"
    if not isinstance(spec, str):
        return spec
    text = spec.strip()
    if text.startswith("local+"):
        llm = get_judge(
            text.removeprefix("local+"), cache=cache, timeout=timeout, max_attempts=max_attempts,
            max_concurrency=max_concurrency, prices=prices, structured=structured, temperature=temperature,
            max_tokens=max_tokens, seed=seed,
        )
        return CascadeJudge(LocalJudge(verifier, threads), llm, band)
    parsed = parse_judge_spec(spec)
    if parsed.provider == "local":
        return LocalJudge(verifier, threads)
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
    disk = DiskCache() if cache is True else (cache if isinstance(cache, DiskCache) else None)
    return LLMJudge(
        backend,
        name=mask_secrets(spec.strip()),  # shown in run info, errors, logs: no credentials
        cache=disk,
        policy=RetryPolicy(max_attempts=max_attempts, timeout=timeout),
        max_concurrency=max_concurrency,
        prices=prices if isinstance(prices, Prices) or prices is None else Prices(prices),
        structured=structured,
        temperature=temperature,
        max_tokens=max_tokens,
        seed=seed,
    )
