"""A scripted question writer and critic for ``ragmeter.testing.OpenAIMockServer``.

The test double at the network edge for the generator: tests and benchmarks run the real
generator, over HTTP, against a server that answers the writing, critic and summary
prompts by rule. Rules that make its behaviour checkable:

* the question is built from the first sentence of each context, so a record's question can
  be traced to its seed chunks;
* a context containing ``SAY-ACCORDING`` makes the writer answer "According to the
  context, ...?" (the cheap rule check must drop it);
* a context containing ``CRITIC-REJECT`` makes the critic reject the question.
"""

from __future__ import annotations

import json
import re
from typing import Any

_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _tag(text: str, tag: str) -> list[str]:
    return [m.strip() for m in re.findall(rf"<{tag}(?: n=\"\d+\")?>\n(.*?)\n</{tag}>", text, re.S)]


def _first_sentence(text: str) -> str:
    return _SENTENCE.split(text.strip(), maxsplit=1)[0].strip()


def _topic(sentence: str, words: int = 6) -> str:
    return " ".join(sentence.rstrip(".!?").split()[:words])


def _write(user: str) -> dict[str, Any]:
    contexts = _tag(user, "context")
    firsts = [_first_sentence(c) for c in contexts] or [""]
    topic = _topic(firsts[0])
    if any("SAY-ACCORDING" in c for c in contexts):
        question = f"According to the context, what is said about {topic}?"
    elif user.startswith("The numbered contexts"):
        question = f"How does {topic} relate to {_topic(firsts[-1])}?"
    elif "step of reasoning" in user:
        question = f"Why is it the case that {topic}?"
    elif "with a condition" in user:
        question = f"If one asks about {topic}, what holds?"
    else:
        question = f"What is stated about {topic}?"
    return {"seed_question": f"What is {topic}?", "question": question,
            "ground_truth": " ".join(firsts)}


def _review(user: str) -> dict[str, Any]:
    reviews = []
    for n, block in enumerate(re.split(r"^## Question \d+$", user, flags=re.M)[1:], start=1):
        question = " ".join(_tag(block, "question"))
        contexts = _tag(block, "context")
        standalone = "context" not in question.lower()
        ok = not any("CRITIC-REJECT" in c for c in contexts)
        reviews.append({"n": n, "standalone": standalone, "answerable": ok, "unambiguous": True,
                        "reason": "ok" if ok and standalone else "rejected by rule"})
    return {"reviews": reviews}


def respond(request: dict[str, Any]) -> str:
    """``chat_responder`` for ``OpenAIMockServer``: writer, critic and summariser by rule."""
    messages = request.get("messages") or []
    system = next((m["content"] for m in messages if m["role"] == "system"), "")
    user = "\n".join(m["content"] for m in messages if m["role"] == "user")
    if system.startswith("You write evaluation questions"):
        return json.dumps(_write(user))
    if system.startswith("You review evaluation questions"):
        return json.dumps(_review(user))
    if system.startswith("You summarise documents"):
        documents = _tag(user, "document")
        return json.dumps({"summary": _first_sentence(documents[0]) if documents else ""})
    return "{}"
