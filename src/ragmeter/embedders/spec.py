"""Build an embedder from a short string, the way the CLI and ``evaluate`` take one.

Every embedder's ``name`` is itself a valid spec, so a result file's recorded embedder can be
rebuilt from its name.
"""

from __future__ import annotations

from typing import Union

from ragmeter.calls.cache import CacheSetting, DiskCache, open_cache
from ragmeter.calls.redact import mask_secrets
from ragmeter.calls.options import DEFAULT_CALLS, LLMCallOptions
from ragmeter.calls.retry import RetryPolicy
from ragmeter.embedders.cached import CachedEmbedder
from ragmeter.embedders.openai_embedder import OpenAIEmbedder
from ragmeter.embedders.protocol import Embedder
from ragmeter.embedders.sentence_transformer import DEFAULT_MODEL_NAME, SentenceTransformerEmbedder
from ragmeter.errors import InvalidOption, InvalidOptionType

SPEC_FORMS = (
    "'local' or 'minilm' (the bundled all-MiniLM-L6-v2, no network)",
    "'st:NAME_OR_PATH' (any sentence-transformers model: hub name or local directory)",
    "'openai:MODEL' (OpenAI, key from $OPENAI_API_KEY)",
    "'openai:MODEL@http://host:port/v1' (any OpenAI-compatible endpoint)",
)

_LOCAL_ALIASES = {"local", "minilm", f"local:{DEFAULT_MODEL_NAME}".lower()}

EmbedderSpec = Union[str, Embedder, None]


def parse_spec(spec: str, *, threads: int | None = None, policy: RetryPolicy | None = None) -> Embedder:
    """The embedder a spec string names, without a cache. ``policy`` (timeout, attempts)
    applies to endpoint embedders."""
    text = spec.strip()
    lowered = text.lower()
    shown = mask_secrets(text)  # errors reach screens and CI logs: the spec without its credentials
    if lowered in _LOCAL_ALIASES:
        return SentenceTransformerEmbedder(threads=threads)
    if lowered.startswith("st:"):
        model = text[3:].strip()
        if not model:
            raise InvalidOption(f"embedder spec {shown!r} names no model; accepted forms: {_forms()}")
        return SentenceTransformerEmbedder(model=model, threads=threads)
    if lowered.startswith("openai:"):
        rest = text[len("openai:") :]
        model, at, base_url = rest.partition("@")
        model, base_url = model.strip(), base_url.strip()
        if not model:
            raise InvalidOption(f"embedder spec {shown!r} names no model; accepted forms: {_forms()}")
        if at and not base_url.lower().startswith(("http://", "https://")):
            raise InvalidOption(
                f"embedder spec {shown!r}: the part after '@' must be an http(s) base URL such as "
                f"http://localhost:11434/v1; accepted forms: {_forms()}"
            )
        return OpenAIEmbedder(model=model, base_url=base_url or None, policy=policy)
    raise InvalidOption(f"unknown embedder spec {shown!r}; accepted forms: {_forms()}")


def get_embedder(
    spec: EmbedderSpec = "local",
    *,
    cache: CacheSetting = True,
    threads: int | None = None,
    calls: LLMCallOptions | None = None,
) -> Embedder:
    """An embedder from a spec string (see ``SPEC_FORMS``), or ``spec`` itself if it is one.

    ``cache``: ``True`` puts a ``DiskCache`` at the default location in front of it, a
    ``DiskCache`` puts that one, ``False``/``None`` none. An embedder object passed in is used
    as given unless ``cache`` is an explicit ``DiskCache``: ragmeter cannot know whether its
    ``name`` changes whenever its vectors would, which per-text caching relies on.
    ``threads`` applies to local (sentence-transformers) embedders only; ``calls`` (its
    ``timeout`` per attempt and ``max_attempts``) to endpoint embedders only, the same object
    the LLM judge takes, so that ``--timeout 2 --max-attempts 1`` bounds every call of a run.
    """
    if spec is None:
        spec = "local"
    if isinstance(spec, str):
        embedder = parse_spec(spec, threads=threads, policy=(calls or DEFAULT_CALLS).retry_policy())
        store = open_cache(cache)
    elif isinstance(spec, Embedder):
        embedder = spec
        store = cache if isinstance(cache, DiskCache) else None
    else:
        raise InvalidOptionType(
            f"embedder must be a spec string or an object with name, usage and async embed(); "
            f"got {type(spec).__name__}"
        )
    if store is None or isinstance(embedder, CachedEmbedder):
        return embedder
    return CachedEmbedder(embedder, store)


def _forms() -> str:
    return "; ".join(SPEC_FORMS)
