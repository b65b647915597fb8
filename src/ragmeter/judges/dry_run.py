"""A chat backend that sends nothing: it counts what each call would cost and answers with a
reply of the right shape, so a dry run walks the same path as the real run.

The LLM judge's dry-run twin (``LLMJudge.dry_run``) runs over it and builds the same
requests (same prompts, same bundling into one call per phase, same cache keys). A request already in the disk cache is
a cache hit, exactly as in the real run, and its cached reply is used; the others are
counted as calls, their prompt tokens estimated (``ragmeter.calls.tokens``), and answered
with a synthetic reply sized like a real one: a claim per sentence (and per clause joined
by "; " or ", and"), entities from capitalised words, reasons of about a dozen words. The
second phase (verdicts on the claims) is then asked with as many claims as the first phase
produced, so its prompt is estimated too. Nothing is written to the cache.

What it cannot know: repairs (a reply that fails validation costs a second call), retries,
and how many claims a real model will see in a sentence; ``bench/bench_scale.py`` measures
the estimate against a real run.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel

from ragmeter.calls.tokens import estimate_prompt_tokens, estimate_tokens
from ragmeter.judgements.sentences import split_sentences
from ragmeter.judges.protocol import ChatCompletion, ChatRequest

REASON = "The context states this directly, so the claim is supported by it."
_SECTION = re.compile(r'<(?P<tag>[a-z_]+)(?: n="\d+")?>\n(?P<body>.*?)\n</(?P=tag)>', re.DOTALL)
_CLAUSE = re.compile(r";\s+|,\s+(?:and|but|while|whereas)\s+")
_NAME = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*")


def sections_of(messages: list[dict[str, str]]) -> dict[str, list[str]]:
    """The fenced texts of a request, by tag (numbered tags in order)."""
    found: dict[str, list[str]] = {}
    for m in messages:
        if m.get("role") != "user":
            continue
        for match in _SECTION.finditer(str(m.get("content", ""))):
            found.setdefault(match["tag"], []).append(match["body"])
    return found


def estimated_claims(text: str) -> list[str]:
    return [c for s in split_sentences(text) for c in _CLAUSE.split(s) if c.strip()]


class _Synth:
    def __init__(self, sections: dict[str, list[str]]) -> None:
        self.sections = sections

    def text(self, name: str) -> str:
        return " ".join(self.sections.get(name, []))

    def value(self, schema: dict[str, Any], defs: dict[str, Any], path: tuple[str, ...]) -> Any:
        if "$ref" in schema:
            return self.value(defs[schema["$ref"].split("/")[-1]], defs, path)
        if "anyOf" in schema:
            options = [o for o in schema["anyOf"] if o.get("type") != "null"]
            return self.value(options[0], defs, path) if options else None
        kind = schema.get("type")
        if kind == "object":
            return {k: self.value(v, defs, (*path, k)) for k, v in schema.get("properties", {}).items()}
        if kind == "array":
            return self.array(schema, defs, path)
        if kind == "boolean":
            return path[-1] != "noncommittal"
        if kind in ("number", "integer"):
            low = schema.get("minimum", 0)
            high = schema.get("maximum", 1)
            return low if kind == "integer" else (low + high) / 2
        if kind == "string":
            if path[-1] in ("reason", "evidence"):
                return REASON
            return "part of the question"
        return None

    def array(self, schema: dict[str, Any], defs: dict[str, Any], path: tuple[str, ...]) -> list[Any]:
        n = schema.get("minItems")
        field, owner = path[-1], path[0] if path else ""
        if n is None:
            if field == "claims":
                return estimated_claims(self.text(owner.removesuffix("_claims")))
            if field in ("ground_truth", "contexts"):
                source = self.text("ground_truth" if field == "ground_truth" else "context")
                return list(dict.fromkeys(_NAME.findall(source)))
            if field == "sentences":
                return [1]
            n = 1
        item = schema.get("items", {})
        if field == "questions":
            return [self.text("question") or "What is asked?"] * n
        return [self.value(item, defs, (*path, "item")) for _ in range(n)]


def synthetic_reply(output_type: type[BaseModel], messages: list[dict[str, str]]) -> str:
    """JSON for ``output_type`` that validates, sized like a model's reply to ``messages``."""
    schema = output_type.model_json_schema()
    synth = _Synth(sections_of(messages))
    value = synth.value(schema, schema.get("$defs", {}), ())
    output_type.model_validate(value)  # a synthetic reply that does not validate is a bug here
    return json.dumps(value, ensure_ascii=False)


class SyntheticBackend:
    """A ``ChatBackend`` that sends nothing: it answers each request with a synthetic reply of
    the requested shape and reports the tokens the request and reply would cost. The LLM
    judge's dry-run twin runs over it (see ``LLMJudge.dry_run``)."""

    def __init__(self, identity: str, model: str) -> None:
        self.identity = identity  # the real backend's, so cache keys are the real run's
        self.model = model

    async def complete(self, request: ChatRequest) -> ChatCompletion:
        if request.output_type is None:
            # internal: every task names its output type; a bug if hit
            raise ValueError("a dry-run request must name the output type its reply must fit")
        content = synthetic_reply(request.output_type, request.messages)
        # the messages only: a provider may add tokens for a json_schema response_format
        return ChatCompletion(
            content=content,
            finish_reason="stop",
            prompt_tokens=estimate_prompt_tokens(request.messages),
            completion_tokens=estimate_tokens(content),
        )
