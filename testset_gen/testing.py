"""A scripted question writer and critic for ``ragmeter.testing.OpenAIMockServer``.

The test double at the network edge for the generator: tests and benchmarks run the real
generator, over HTTP, against a server that answers the writing, critic and summary
prompts by rule. Rules that make its behaviour checkable:

* the question is built from the first sentence of each context, so a record's question can
  be traced to its seed chunks;
* a context containing ``SAY-ACCORDING`` makes the writer answer "According to the
  context, ...?" (the cheap rule check must drop it);
* a context containing ``CRITIC-REJECT`` makes the critic reject the question.

For the synthesizer path (``synthesis``) it also plays the enricher, the persona writer,
the query writer and its critic:

* a chunk's profile: its first sentence as summary, its capitalised names as entities, its
  three most frequent long words (7 letters or more) as themes, so chunks that share
  names or vocabulary are linked;
* personas are named after the summaries they were shown ("Reader of Marie Curie was");
* the query names its persona, style, length and topic ("Nurse asks (misspelled, short)
  about Warsaw: ...?"), so a test can see the prompt carried them; its ground truth is the
  contexts' first sentences, and it claims to use every context;
* ``BAD-JSON`` in a context makes the query writer reply with text that is not JSON, every
  time (so the judge's repair re-ask fails too); ``ONE-CONTEXT`` makes it claim one context;
  ``LONG-QUERY`` makes it write a query of 30 words or more whatever the length asked.
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


_NAME = re.compile(r"\b[A-Z][a-z]+(?:\s+(?:[A-Z][a-z]+|of|de|da|von))*(?:\s+[A-Z][a-z]+)?")
_NOT_NAMES = {"The", "In", "It", "He", "She", "They", "This", "That", "A", "An", "About", "After",
              "Before", "When", "Its", "His", "Her", "Their", "There", "Some", "Many", "CRITIC",
              "SAY", "BAD", "ONE", "Rules", "Rejected"}
_LONG_WORD = re.compile(r"\b[a-z]{7,}\b")


def _names(text: str) -> list[str]:
    out: list[str] = []
    for m in _NAME.finditer(text):
        name = m.group(0).strip()
        first, _, rest = name.partition(" ")
        if first in _NOT_NAMES:
            name = rest.strip()
        if name and name not in _NOT_NAMES and name not in out:
            out.append(name)
    return out[:8]


def _profile(user: str) -> dict[str, Any]:
    from collections import Counter

    chunks = []
    for n, text in enumerate(_tag(user, "chunk"), start=1):
        first = _first_sentence(text)
        counts = Counter(_LONG_WORD.findall(text.lower()))
        themes = [w for w, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]]
        chunks.append({"n": n, "headline": _topic(first), "summary": first,
                       "themes": themes, "entities": _names(text)})
    return {"chunks": chunks}


def _personas(user: str) -> dict[str, Any]:
    wanted = int(re.search(r"Describe (\d+) distinct", user).group(1))  # type: ignore[union-attr]
    summaries = _tag(user, "summary")
    return {"personas": [{"name": f"Reader of {_topic(s, 3)}", "role_description": f"Wants to know: {s}"}
                         for s in summaries[:wanted]]}


def _line(user: str, prefix: str) -> str:
    m = re.search(rf"^{re.escape(prefix)}(.*)$", user, re.M)
    return m.group(1).strip() if m else ""


def _synthesize(user: str) -> str:
    contexts = _tag(user, "context")
    if any("BAD-JSON" in c for c in contexts):
        return "Sorry, I cannot answer in JSON today."
    persona, topic = _line(user, "Persona: "), _line(user, "Topic: ")
    style = re.search(r"^Query style \((\w+)\)", user, re.M)
    length = _line(user, "Query length: ").split(":")[0]
    firsts = [_first_sentence(c) for c in contexts]
    if any("SAY-ACCORDING" in c for c in contexts):
        question = f"According to the context, what is said about {topic}?"
    elif length == "short" and "LONG-QUERY" not in " ".join(contexts):
        question = f"{persona} asks ({style.group(1) if style else '?'}, short) about {topic}: what?"
    else:
        question = (f"{persona} asks ({style.group(1) if style else '?'}, {length}) about {topic}: "
                    f"what links {' and '.join(_topic(f, 4) for f in firsts)}?")
        if "LONG-QUERY" in " ".join(contexts):
            question = question[:-1] + " and what else " * 8 + "?"
    used = [1] if any("ONE-CONTEXT" in c for c in contexts) else list(range(1, len(contexts) + 1))
    return json.dumps({"question": question, "ground_truth": " ".join(firsts), "contexts_used": used})


def _review_records(user: str) -> dict[str, Any]:
    reviews = []
    for n, block in enumerate(re.split(r"^## Record \d+.*$", user, flags=re.M)[1:], start=1):
        query = " ".join(_tag(block, "query"))
        contexts = _tag(block, "context")
        standalone = "the context" not in query.lower()
        ok = not any("CRITIC-REJECT" in c for c in contexts)
        reviews.append({"n": n, "standalone": standalone, "answerable": ok, "needs_all_contexts": True,
                        "reason": "ok" if ok and standalone else "rejected by rule"})
    return {"reviews": reviews}


def _converse(user: str) -> str:
    """The conversation writer: turn *k* asks about the *k*-th sentence of the section (the
    first names its topic and the persona; the others are "And what about ...?" follow-ups
    whose standalone form names the sentence's topic); its ground truth and evidence are
    that sentence. ``BAD-JSON`` in the section: a reply that is not JSON."""
    contexts = _tag(user, "context")
    if any("BAD-JSON" in c for c in contexts):
        return "Sorry, I cannot answer in JSON today."
    wanted = int(m.group(1)) if (m := re.search(r"conversation of (\d+) user turns", user)) else 3
    persona = _line(user, "Persona: ")
    sentences = [s.strip() for c in contexts for s in _SENTENCE.split(c.strip()) if len(s.split()) >= 4]
    turns = []
    for k, sentence in enumerate(sentences[:wanted]):
        standalone = f"What is stated about {_topic(sentence)}?"
        question = (f"{persona} asks: what is stated about {_topic(sentence)}?" if k == 0
                    else f"And what about {_topic(sentence, 3)}, then?")
        turns.append({"question": question, "standalone_question": standalone,
                      "ground_truth": sentence, "evidence": sentence})
    topic = _topic(sentences[0]) if sentences else ""
    return json.dumps({"subject": topic, "turns": turns})


def respond(request: dict[str, Any]) -> str:
    """``chat_responder`` for ``OpenAIMockServer``: writer, critic and summariser by rule."""
    messages = request.get("messages") or []
    system = next((m["content"] for m in messages if m["role"] == "system"), "")
    user = "\n".join(m["content"] for m in messages if m["role"] == "user")
    if system.startswith("You write evaluation questions"):
        return json.dumps(_write(user))
    if system.startswith("You review evaluation questions"):
        return json.dumps(_review(user))
    if system.startswith("You index documents"):
        return json.dumps(_profile(user))
    if system.startswith("You design user personas"):
        return json.dumps(_personas(user))
    if system.startswith("You write test queries"):
        return _synthesize(user)
    if system.startswith("You write test conversations"):
        return _converse(user)
    if system.startswith("You review test records"):
        return json.dumps(_review_records(user))
    if system.startswith("You summarise documents"):
        documents = _tag(user, "document")
        return json.dumps({"summary": _first_sentence(documents[0]) if documents else ""})
    return "{}"


# --- an imperfect model: a seeded mix of bad replies at the network edge -------------------

FAULTS = ("malformed", "refusal", "wrong_language", "truncated")
"""What ``FaultMix`` does to a reply: broken JSON (one of ``MALFORMED``), a refusal in
prose, the written question and answer (or a summary) in German, the reply cut in half with
``finish_reason: "length"``."""

MALFORMED = ("missing_commas", "trailing_comma", "single_quotes", "unclosed")
"""The ways a malformed reply is broken, drawn evenly: commas left out between members, a
comma left before the closing brace, a Python-style dict in single quotes, an object whose
closing brace never came (prose around it)."""

REFUSAL = "I'm sorry, but I can't help with that request."
GERMAN_QUESTION = "Welche Rolle spielt dieser Ort für die Geschichte, und warum ist er bis heute so wichtig?"
GERMAN_ANSWER = ("Der Ort wurde nach dem Krieg wieder aufgebaut und ist heute ein wichtiges Zentrum "
                 "für die Menschen, die in der Region leben und arbeiten.")
_WRITERS = ("You write evaluation questions", "You write test queries")


class FaultMix:
    """``chat_responder`` that answers like ``respond`` except for a seeded share of faults.

    Which request gets which fault is a pure function of ``seed``, the request's messages and
    how many times those exact messages were sent before (a repair re-ask carries the bad
    reply, so it is a new request; the same request sent again draws again, as a model at
    temperature > 0 would answer differently). So a run is deterministic whatever order its
    concurrent calls arrive in. ``injected`` counts the faults served, by kind.

    The wrong-language fault changes only replies that carry prose for the test set (the
    question writers' and the summariser's); a critic's or an indexer's reply drawn for it is
    served clean and not counted.
    """

    def __init__(self, responder: Any = None, *, seed: int = 0, malformed: float = 0.2,
                 refusal: float = 0.1, wrong_language: float = 0.1, truncated: float = 0.1) -> None:
        import threading
        from collections import Counter

        self.responder = responder or respond
        self.seed = seed
        self.shares = {"malformed": malformed, "refusal": refusal,
                       "wrong_language": wrong_language, "truncated": truncated}
        if sum(self.shares.values()) > 1:
            raise ValueError("fault shares add up to more than 1")
        self.injected: Counter[str] = Counter()
        self.requests = 0
        self._seen: Counter[str] = Counter()
        self._lock = threading.Lock()

    def draw(self, request: dict[str, Any]) -> tuple[str | None, int]:
        """The fault for this request (None: a clean reply) and a number for its variant."""
        import hashlib

        key = json.dumps(request.get("messages") or [], sort_keys=True)
        with self._lock:
            n = self._seen[key]
            self._seen[key] += 1
        digest = hashlib.sha256(f"{self.seed}:{n}:{key}".encode()).hexdigest()
        u = int(digest[:13], 16) / 16 ** 13
        variant = int(digest[13:17], 16)
        edge = 0.0
        for kind, share in self.shares.items():
            edge += share
            if u < edge:
                return kind, variant
        return None, variant

    def __call__(self, request: dict[str, Any]) -> Any:
        from ragmeter.testing.openai_server import Reply

        kind, variant = self.draw(request)
        clean = self.responder(request)
        content = clean.content if isinstance(clean, Reply) else clean
        system = next((m["content"] for m in request.get("messages") or [] if m["role"] == "system"), "")
        served = kind
        reply: Any = clean
        if kind == "malformed" and content:
            served = f"malformed ({MALFORMED[variant % len(MALFORMED)]})"
            reply = _malformed(content, MALFORMED[variant % len(MALFORMED)])
        elif kind == "refusal":
            reply = REFUSAL
        elif kind == "truncated" and content:
            reply = Reply(content=content[: len(content) // 2], finish_reason="length")
        elif kind == "wrong_language" and system.startswith(_WRITERS) and content:
            data = json.loads(content)
            data.update(question=GERMAN_QUESTION, ground_truth=GERMAN_ANSWER)
            if "seed_question" in data:
                data["seed_question"] = GERMAN_QUESTION
            reply = json.dumps(data)
        elif kind == "wrong_language" and system.startswith("You summarise documents"):
            reply = json.dumps({"summary": GERMAN_ANSWER})
        else:
            served = None
        with self._lock:
            self.requests += 1
            if served:
                self.injected[served] += 1
        return reply


def _malformed(content: str, how: str) -> str:
    """``content`` (a JSON object) broken the way ``how`` says (see ``MALFORMED``)."""
    try:
        data = json.loads(content)
    except ValueError:
        return content[: len(content) // 2]
    if not isinstance(data, dict):
        return content[: len(content) // 2]
    members = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in data.items()]
    if how == "missing_commas":
        return "{" + " ".join(members) + "}"
    if how == "trailing_comma":
        return "{" + ", ".join(members) + ",}"
    if how == "single_quotes":
        return repr(data)
    return "Here is the JSON you asked for:\n{" + ", ".join(members) + "\nI hope this helps."
