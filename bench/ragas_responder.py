"""A deterministic judge that answers the prompts Ragas 0.4.3 sends, for the mock server.

Runs in ragmeter's venv, inside the ``OpenAIMockServer`` process, and never imports Ragas:
it reads the prompt text Ragas renders (``PydanticPrompt.to_string``: instruction, JSON
schema, examples, then ``input: {json}`` and ``Output: ``) and answers with JSON for the
output model that prompt names.

Why every rule comes from ``ragmeter.testing.scripted_judge``: the benchmark compares what
the two tools *cost*, so both must be shown the same judgements. Claims are the sentences of
a text (none for a refusal), a claim is supported when all its content words and numbers
appear in the passages, a chunk is useful when it holds at least half of the reference's
content words, entities are capitalised word runs and numbers, questions are the answer's
sentences turned into questions, and harmfulness looks for alarming words. Only the shape
of the answers is Ragas' (its output models); note that Ragas' AspectCritic verdict 1 means
"harmful" where ragmeter's critique verdict true means "passes".

An unknown prompt raises ``UnknownPrompt``: a benchmark that silently answered ``{}`` would
make Ragas fail, retry or score NaN and quietly skew the numbers. Ragas' own "fix the
output format" retry prompt is refused the same way: it would mean our JSON did not parse.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from typing import Any

from ragmeter.testing.openai_server import Reply, approx_tokens
from ragmeter.testing.scripted_judge import (
    claims_of,
    critique,
    entities_of,
    overlap,
    questions_of,
    supported,
)

INPUT_MARKER = "\nNow perform the same with the following input\ninput: "
OUTPUT_MARKER = "\nOutput: "


class UnknownPrompt(ValueError):
    """Ragas sent a prompt this responder has no rule for (or asked to fix our output)."""


# --- one function per Ragas prompt ------------------------------------------------------


Rule = Callable[[dict[str, Any], int], dict[str, Any]]
"""A rule answers a prompt's input for one completion choice (0 .. n-1)."""


def _statements(data: dict[str, Any], choice: int) -> dict[str, Any]:
    """StatementGeneratorPrompt (faithfulness, answer_correctness): the answer's claims."""
    return {"statements": claims_of(data["answer"])}


def _nli(data: dict[str, Any], choice: int) -> dict[str, Any]:
    """NLIStatementPrompt (faithfulness): one verdict per statement against the context."""
    verdicts = []
    for statement in data["statements"]:
        ok = supported(statement, [data["context"]])
        reason = (
            "all its terms appear in the context" if ok else "a term is missing from the context"
        )
        verdicts.append({"statement": statement, "reason": reason, "verdict": int(ok)})
    return {"statements": verdicts}


def _response_relevance(data: dict[str, Any], choice: int) -> dict[str, Any]:
    """ResponseRelevancePrompt (answer_relevancy): one question per choice, noncommittal flag.

    Choice i gets the i-th of the questions ragmeter's judge would write, so n choices of
    one request hold the same questions ragmeter asks for in one call.
    """
    response = data["response"]
    question = questions_of(response, choice + 1)[choice]
    return {"question": question, "noncommittal": 0 if claims_of(response) else 1}


def _context_precision(data: dict[str, Any], choice: int) -> dict[str, Any]:
    """ContextPrecisionPrompt (one call per chunk): useful when it holds half the reference."""
    share = overlap(data["answer"], data["context"])
    return {"reason": f"holds {share:.0%} of the reference", "verdict": int(share >= 0.5)}


def _context_recall(data: dict[str, Any], choice: int) -> dict[str, Any]:
    """ContextRecallClassificationPrompt: each reference sentence attributed to the context or not."""
    classifications = []
    for claim in claims_of(data["answer"]):
        ok = supported(claim, [data["context"]])
        reason = (
            "all its terms appear in the context" if ok else "a term is missing from the context"
        )
        classifications.append({"statement": claim, "reason": reason, "attributed": int(ok)})
    return {"classifications": classifications}


def _entities(data: dict[str, Any], choice: int) -> dict[str, Any]:
    """ExtractEntitiesPrompt (context_entity_recall): capitalised runs and numbers."""
    return {"entities": entities_of(data["text"])}


def _correctness(data: dict[str, Any], choice: int) -> dict[str, Any]:
    """CorrectnessClassifier (answer_correctness): TP/FP against the ground truth, FN for misses."""
    answer, truth = data["answer"], data["ground_truth"]
    tp = [
        {"statement": s, "reason": "supported by the ground truth"}
        for s in answer
        if supported(s, truth)
    ]
    fp = [
        {"statement": s, "reason": "not supported by the ground truth"}
        for s in answer
        if not supported(s, truth)
    ]
    fn = [
        {"statement": s, "reason": "missing from the answer"}
        for s in truth
        if not supported(s, answer)
    ]
    return {"TP": tp, "FP": fp, "FN": fn}


def _aspect_critic(prompt: str, data: dict[str, Any]) -> dict[str, Any]:
    """AspectCritic "harmfulness": the scripted judge's critique of the response, inverted.

    Ragas asks "does the submission cause harm?" (1 = harmful); ragmeter's critique verdict
    says whether the answer passes (true = harmless). Other criteria are not benchmarked.
    """
    definition = prompt.split("Criteria Definition: ", 1)[1].split("\n", 1)[0]
    if "harm" not in definition.lower():
        raise UnknownPrompt(f"AspectCritic criterion without a rule: {definition!r}")
    verdict = critique("critique_harmfulness", data.get("response") or "")
    return {"reason": verdict["reason"], "verdict": int(not verdict["verdict"])}


_RULES: list[tuple[str, Rule]] = [
    ("Given a question and an answer, analyze the complexity of each sentence", _statements),
    ("Your task is to judge the faithfulness of a series of statements", _nli),
    (
        "Generate a question for the given answer and Identify if answer is noncommittal",
        _response_relevance,
    ),
    ("Given question, answer and context verify if the context was useful", _context_precision),
    (
        "Given a context, and an answer, analyze each sentence in the answer and classify",
        _context_recall,
    ),
    ("Given a text, extract unique entities without repetition", _entities),
    ("Given a ground truth and an answer statements, analyze each statement", _correctness),
]
ASPECT_CRITIC = "Evaluate the Input based on the criterial defined."
FIX_OUTPUT = "The output string did not satisfy the constraints given in the prompt."


def prompt_kind(prompt: str) -> str:
    """A short name for the Ragas prompt (its rule's function name), for reports."""
    for prefix, rule in _RULES:
        if prompt.startswith(prefix):
            return rule.__name__.lstrip("_")
    if prompt.startswith(ASPECT_CRITIC):
        return "aspect_critic"
    return "unknown"


def _prompt_text(request: dict[str, Any]) -> str:
    messages = request.get("messages") or []
    if (
        len(messages) != 1
        or messages[0].get("role") != "user"
        or not isinstance(messages[0].get("content"), str)
    ):
        raise UnknownPrompt(
            f"expected one user message with text, got roles {[m.get('role') for m in messages]}"
        )
    return messages[0]["content"]


def _input_of(prompt: str) -> dict[str, Any]:
    _, sep, tail = prompt.rpartition(INPUT_MARKER)
    if not sep or not tail.endswith(OUTPUT_MARKER):
        raise UnknownPrompt(f"no 'input: ... Output: ' block in prompt starting {prompt[:80]!r}")
    return json.loads(tail[: -len(OUTPUT_MARKER)])


def answers(request_json: dict[str, Any]) -> list[str]:
    """The assistant's contents (JSON texts), one per requested choice (``n``, default 1)."""
    prompt = _prompt_text(request_json)
    if prompt.startswith(FIX_OUTPUT):
        raise UnknownPrompt("Ragas asked to fix an output format: an earlier answer did not parse")
    data = _input_of(prompt)
    n = int(request_json.get("n") or 1)
    for prefix, rule in _RULES:
        if prompt.startswith(prefix):
            return [json.dumps(rule(data, choice)) for choice in range(n)]
    if prompt.startswith(ASPECT_CRITIC):
        return [json.dumps(_aspect_critic(prompt, data))] * n
    raise UnknownPrompt(f"no rule for the Ragas prompt starting {prompt[:100]!r}")


def respond(request_json: dict[str, Any]) -> str:
    """The assistant's content (a JSON text) for one Ragas chat-completions request."""
    return answers(request_json)[0]


def server_reply(request_json: dict[str, Any]) -> str | Reply:
    """What the mock server sends: one choice, or the whole body with ``n`` choices.

    Why: Ragas asks ChatOpenAI for ``n`` completions in one request (answer_relevancy's
    strictness), and a real OpenAI endpoint returns ``n`` choices. The mock server itself
    always returns one choice, so the body is built here for ``n > 1``.
    """
    contents = answers(request_json)
    if len(contents) == 1:
        return contents[0]
    prompt_text = " ".join(str(m.get("content", "")) for m in request_json.get("messages", []))
    prompt_tokens = approx_tokens(prompt_text)
    completion_tokens = sum(approx_tokens(c) for c in contents)
    body = {
        "id": f"chatcmpl-{hashlib.md5(prompt_text.encode()).hexdigest()[:12]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request_json.get("model", "mock-model"),
        "choices": [
            {
                "index": i,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
            for i, content in enumerate(contents)
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }
    return Reply(body=body)


def main() -> None:
    """Serve the responder on 127.0.0.1 until interrupted (for running run_ragas.py by hand)."""
    import argparse

    from ragmeter.testing import OpenAIMockServer

    parser = argparse.ArgumentParser(description="mock OpenAI server answering Ragas' prompts")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per request")
    args = parser.parse_args()
    with OpenAIMockServer(chat_responder=server_reply, latency=args.latency) as server:
        print(server.base_url, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
