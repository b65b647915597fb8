"""``adapt``: the few-shot examples of every prompt, translated once into the data's language.

Why: a judge shown English examples tends to answer in English (claims, generated questions,
reasons) even about German texts, and answer relevancy then compares a German question with
English ones. The instructions stay in English, which every capable judge follows, and
already ask for output in the language of the texts; the examples are what must change.

Each prompt's example texts go to the judge in one call (names, numbers and dates kept),
and the translated prompt is stored in the disk cache under the judge, the language and
the original prompt's fingerprint, so the translation happens once per machine.
"""

from __future__ import annotations

import asyncio
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, Field, create_model

from ragmeter.calls.cache import DiskCache, cache_key
from ragmeter.judges.protocol import FreeFormJudge
from ragmeter.prompts.fencing import DATA_NOTICE, fence_numbered
from ragmeter.prompts.template import Example, PromptSet, TaskPrompt

CACHE_NAMESPACE = "prompts"

TRANSLATE_SYSTEM = (
    "You translate short texts used as examples in instructions. Translate each <text> into "
    "{language}, keeping its meaning, tone and length. Keep names of people and places, "
    "numbers and dates as they are. Return exactly as many translations as there are texts, in order."
)

_ENGLISH = {"english", "en", "en-us", "en-gb"}


@lru_cache(maxsize=64)
def _translations_type(n: int) -> type[BaseModel]:
    return create_model(f"Translations{n}", texts=(list[str], Field(min_length=n, max_length=n)))


def _leaves(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, list):
        for item in value:
            _leaves(item, out)
    elif isinstance(value, dict):
        for item in value.values():
            _leaves(item, out)


def _refill(value: Any, texts: list[str]) -> Any:
    if isinstance(value, str):
        return texts.pop(0)
    if isinstance(value, list):
        return [_refill(item, texts) for item in value]
    if isinstance(value, dict):
        return {k: _refill(v, texts) for k, v in value.items()}
    return value


async def adapt_prompt(prompt: TaskPrompt, language: str, judge: FreeFormJudge, cache: DiskCache | None = None) -> TaskPrompt:
    """``prompt`` with its examples in ``language`` (one judge call, cached)."""
    if not prompt.examples or language.strip().lower() in _ENGLISH or prompt.language == language:
        return prompt
    key = cache_key({"judge": judge.name, "language": language, "prompt": prompt.fingerprint()})
    if cache is not None and (hit := cache.get(CACHE_NAMESPACE, key)) is not None:
        return TaskPrompt.model_validate_json(hit)
    texts: list[str] = []
    for example in prompt.examples:
        _leaves(example.input, texts)
        _leaves(example.output, texts)
    messages = [
        {"role": "system", "content": TRANSLATE_SYSTEM.format(language=language) + "\n" + DATA_NOTICE},
        {"role": "user", "content": fence_numbered("text", texts) + f"\nTranslate these {len(texts)} texts into {language}."},
    ]
    reply = await judge.generate(messages, _translations_type(len(texts)))
    translated = list(reply.texts)  # type: ignore[attr-defined]
    examples = tuple(
        Example(input=_refill(e.input, translated), output=_refill(e.output, translated)) for e in prompt.examples
    )
    adapted = prompt.model_copy(update={"examples": examples, "language": language})
    if cache is not None:
        cache.put(CACHE_NAMESPACE, key, adapted.model_dump_json().encode())
    return adapted


async def adapt(prompts: PromptSet, language: str, judge: FreeFormJudge, cache: DiskCache | None = None) -> PromptSet:
    """Every prompt of ``prompts`` with its few-shot examples translated into ``language``.

    >>> german = await adapt(DEFAULT_PROMPTS, "German", judge)
    >>> evaluate(data, metrics, judge=judge, prompts=german)   # or evaluate(..., language="German")
    """
    adapted = await asyncio.gather(*(adapt_prompt(p, language, judge, cache) for p in prompts.values()))
    return PromptSet(list(adapted))
