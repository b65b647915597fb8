"""The LLM judge: one backend wrapped in the middleware every backend gets.

    generate(prompt, Type)
      -> cache (sqlite, content-addressed)      a hit costs nothing and makes no request
      -> adaptive limit + retries + timeout     429 halves the limit; Retry-After is honoured
      -> backend.complete(request)              exactly one HTTP request
      -> parse + validate; on failure one repair re-ask carrying the error
      -> Type instance, or JudgeOutputInvalid / JudgeTimeout / JudgeUnavailable / ...

Only completions that validated are cached (the repair re-ask's too, when it validated), so a
rerun replays a good conversation without sending anything, and a reply that was cut off or
malformed is asked again once the server has recovered instead of being replayed for good.
As a ``PromptingJudge`` it answers the facts layer's tasks in one bundled call per phase;
``dry_run`` gives a twin over a backend that sends nothing (``dry_run.SyntheticBackend``).
"""

from __future__ import annotations

import copy
import json
import logging
from typing import Any, TypeVar

from pydantic import BaseModel

from ragmeter.calls.breaker import new_breaker
from ragmeter.calls.cache import DiskCache, cache_key
from ragmeter.calls.limiter import AdaptiveLimiter
from ragmeter.calls.options import DEFAULT_CALLS, LLMCallOptions
from ragmeter.calls.retry import RetryPolicy, call_with_retries
from ragmeter.calls.usage import Prices, Usage
from ragmeter.errors import InvalidOption, JudgeOutputInvalid
from ragmeter.judgements.level_probabilities import TOP_LOGPROBS, level_probabilities, weighted_fields
from ragmeter.judges.dry_run import SyntheticBackend
from ragmeter.judges.prompting import LAYOUTS, PromptingJudge
from ragmeter.judges.protocol import (
    ChatBackend,
    ChatCompletion,
    ChatRequest,
    DryRun,
    LogprobsUnsupported,
    Prompt,
    StructuredOutputUnsupported,
    as_messages,
)
from ragmeter.judges.structured import (
    MODES,
    OutputParseError,
    StructuredMode,
    parse_output,
    repair_messages,
    response_format,
    schema_of,
    with_schema_in_prompt,
)

T = TypeVar("T", bound=BaseModel)
log = logging.getLogger("ragmeter.judge")

CACHE_NAMESPACE = "chat"


class LLMJudge(PromptingJudge):
    """A ``Judge`` over any ``ChatBackend``.

    ``structured`` picks how JSON is asked for ("auto" starts with ``json_schema`` and steps
    down once if the server rejects it). ``temperature`` defaults to 0 so that reruns agree.
    ``write_cache=False`` reads the cache without adding to it (the dry run). ``layout`` is
    "bundled" or "per_task" (see ``ragmeter.judges.prompting.LAYOUTS``).
    """

    @classmethod
    def with_options(cls, backend: ChatBackend, options: LLMCallOptions, *, name: str | None = None,
                     cache: DiskCache | None = None, write_cache: bool = True) -> "LLMJudge":
        """The judge ``options`` describe: where ``get_judge`` and the framework adapters
        read the call settings (``timeout`` and ``max_attempts`` become the retry policy)."""
        return cls(
            backend, name=name, cache=cache, policy=options.retry_policy(), max_concurrency=options.max_concurrency,
            prices=options.price_table(), structured=options.structured,
            temperature=options.temperature,  # None: the model's own
            max_tokens=options.max_tokens, seed=options.seed, write_cache=write_cache, layout=options.layout,
        )

    def __init__(
        self,
        backend: ChatBackend,
        *,
        name: str | None = None,
        cache: DiskCache | None = None,
        policy: RetryPolicy | None = None,
        max_concurrency: int = DEFAULT_CALLS.max_concurrency,
        prices: Prices | None = None,
        structured: StructuredMode | str = DEFAULT_CALLS.structured,
        temperature: float | None = DEFAULT_CALLS.temperature,
        max_tokens: int | None = None,
        seed: int | None = None,
        write_cache: bool = True,
        layout: str = DEFAULT_CALLS.layout,
    ) -> None:
        if layout not in LAYOUTS:
            raise InvalidOption(f"layout must be one of {LAYOUTS}, not {layout!r}")
        self.layout = layout
        self.backend = backend
        self.write_cache = write_cache
        self.name = name or backend.identity
        self.cache = cache
        self.policy = policy or DEFAULT_CALLS.retry_policy()
        self.limiter = AdaptiveLimiter(maximum=max_concurrency)
        self.breaker = new_breaker()  # an unreachable endpoint stops the run early
        self.prices = prices or Prices()
        self.usage = Usage()
        if structured != "auto" and structured not in MODES:
            raise InvalidOption(f"structured must be 'auto' or one of {MODES}, not {structured!r}")
        self._auto = structured == "auto"
        self.mode: StructuredMode = "json_schema" if structured == "auto" else structured
        self.logprobs = True  # asked only for G-Eval levels; off once the server rejects them
        self.params: dict[str, Any] = {"temperature": temperature}
        if max_tokens is not None:
            self.params["max_tokens"] = max_tokens
        if seed is not None:
            self.params["seed"] = seed

    async def generate(self, prompt: Prompt, output_type: type[T], *, temperature: float | None = None) -> T:
        messages = as_messages(prompt)
        params = dict(self.params)
        if temperature is not None:
            params["temperature"] = temperature
        weighted = weighted_fields(output_type)
        if weighted and self.logprobs:  # G-Eval: how likely each level was, where the server says
            params.update(logprobs=True, top_logprobs=TOP_LOGPROBS)
        try:
            completion = await self._complete_structured(messages, output_type, params)
        except LogprobsUnsupported:
            log.warning("judge %s: the server returns no log-probabilities; G-Eval uses the level as given", self.name)
            self.logprobs = False
            return await self.generate(prompt, output_type, temperature=temperature)
        try:
            return _weigh(parse_output(completion.content, output_type), completion, weighted)
        except OutputParseError as first:
            problem = str(first)
        self.usage.repairs += 1
        truncated = completion.finish_reason == "length"
        log.info("judge %s: output did not validate (%s); asking once more", self.name, problem)
        retry_messages = repair_messages(messages, completion.content, problem, output_type, truncated)
        completion = await self._complete_structured(retry_messages, output_type, params)
        try:
            return _weigh(parse_output(completion.content, output_type), completion, weighted)
        except OutputParseError as second:
            self.usage.failures += 1
            cut = " (the reply was cut off: finish_reason=length)" if completion.finish_reason == "length" else ""
            failed = JudgeOutputInvalid(
                f"{self.name}: {output_type.__name__} still invalid after one repair{cut}: {second}"
            )
            failed.reply, failed.cut_off = completion.content[:500], bool(cut)
            raise failed from None

    async def _complete_structured(
        self, messages: list[dict[str, str]], output_type: type[BaseModel], params: dict[str, Any]
    ) -> ChatCompletion:
        while True:
            mode = self.mode
            sent = messages if mode == "json_schema" else with_schema_in_prompt(messages, output_type)
            request = ChatRequest(
                messages=sent, params=dict(params), response_format=response_format(output_type, mode),
                output_type=output_type,
            )
            try:
                return await self._complete(request, output_type)
            except StructuredOutputUnsupported:
                if not self._auto or mode == MODES[-1]:
                    raise
                # Step down once for the whole judge; concurrent callers may have done it already.
                if self.mode == mode:
                    self.mode = MODES[MODES.index(mode) + 1]
                    log.warning("judge %s: server rejected %s output; using %s", self.name, mode, self.mode)

    def cache_key(self, request: ChatRequest, output_type: type[BaseModel]) -> str:
        """What identifies a request in the disk cache (never the API key)."""
        return cache_key(
            {
                "backend": self.backend.identity,
                "model": self.backend.model,
                "params": request.params,
                "messages": request.messages,
                "response_format": request.response_format,
                "schema": schema_of(output_type),
            }
        )

    def cached(self, key: str, output_type: type[BaseModel] | None = None) -> ChatCompletion | None:
        """The cached completion for ``key`` (counted as a cache hit), or None. With
        ``output_type``, an entry that does not validate is a miss (caches written before only
        valid replies were kept may hold one)."""
        if self.cache is None or (hit := self.cache.get(CACHE_NAMESPACE, key)) is None:
            return None
        completion = ChatCompletion(**json.loads(hit))
        if output_type is not None and not _validates(completion, output_type):
            return None
        self.usage.cache_hits += 1
        self.usage.cached_prompt_tokens += completion.prompt_tokens
        self.usage.cached_completion_tokens += completion.completion_tokens
        return completion

    async def _complete(self, request: ChatRequest, output_type: type[BaseModel]) -> ChatCompletion:
        key = self.cache_key(request, output_type)
        if (completion := self.cached(key, output_type)) is not None:
            return completion

        async def attempt() -> ChatCompletion:
            self.usage.calls += 1
            return await self.backend.complete(request)

        try:
            completion = await call_with_retries(
                attempt, self.policy, self.limiter, on_retry=self._on_retry, what=self.name, breaker=self.breaker
            )
        except StructuredOutputUnsupported:
            raise
        except Exception:
            self.usage.failures += 1
            raise
        self.usage.prompt_tokens += completion.prompt_tokens
        self.usage.completion_tokens += completion.completion_tokens
        self.usage.add_cost(
            self.prices.cost(self.backend.model, completion.prompt_tokens, completion.completion_tokens)
        )
        if self.cache is not None and self.write_cache and _validates(completion, output_type):
            self.cache.put(CACHE_NAMESPACE, key, json.dumps(completion.__dict__).encode())
        return completion

    def dry_run(self) -> DryRun:
        """The same judge (prompts, bundling, cache keys, structured mode) over a backend that
        sends nothing: cached requests are hits as in the real run, the others are counted
        and answered with synthetic replies; nothing is written to the cache."""
        twin = copy.copy(self)
        twin.backend = SyntheticBackend(self.backend.identity, self.backend.model)
        twin.usage = Usage()
        twin.write_cache = False
        twin._auto = False  # no server to reject a mode
        twin.limiter = AdaptiveLimiter(maximum=self.limiter.maximum)
        return DryRun(twin)

    async def aclose(self) -> None:
        """Close the backend's connections for the running event loop (before the loop ends,
        so no transport is left to be closed by a loop that is already gone)."""
        close = getattr(self.backend, "aclose", None)
        if close is not None:
            await close()

    def _on_retry(self, attempt: int, error: BaseException, delay: float) -> None:
        self.usage.retries += 1
        reason = str(error) or type(error).__name__
        log.warning("judge %s: attempt %d failed (%s); retrying in %.2fs", self.name, attempt, reason, delay)

    def __repr__(self) -> str:
        return f"LLMJudge({self.name!r}, mode={self.mode!r})"


def _weigh(reply: T, completion: ChatCompletion, weighted: list[tuple[str, tuple[int, int]]]) -> T:
    """Give each G-Eval level in ``reply`` its levels' probabilities from the completion's
    log-probabilities (none returned: the level stays as given)."""
    if completion.logprobs:
        for key, scale in weighted:
            getattr(reply, key).weigh(level_probabilities(completion.content, completion.logprobs, key, scale))
    return reply


def _validates(completion: ChatCompletion, output_type: type[BaseModel]) -> bool:
    """Whether the reply parses into ``output_type``: the condition for it to be cached."""
    try:
        parse_output(completion.content, output_type)
    except OutputParseError:
        return False
    return True
