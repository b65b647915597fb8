"""A deterministic judge for the OpenAI mock server: it reads ragmeter's fenced prompts and
answers the way a careful judge would on simple texts.

* claims: one claim per sentence of <text>; none for "I don't know"-style refusals;
* support: a claim is supported when every content word (prefix of 5 letters) and every
  number of the claim appears in the passages.

Test doubles live at the network edge only: this runs inside the HTTP server.
"""

from __future__ import annotations

import json
import re
from typing import Any

REFUSALS = ("i don't know", "i do not know", "cannot answer", "no information")
STOPWORDS = {"the", "was", "were", "is", "are", "and", "for", "with", "that", "this", "its", "has", "have", "from", "into", "of", "in", "on", "a", "an", "to", "by", "at", "as", "it", "be"}


def _tag(text: str, tag: str) -> list[str]:
    return [m.strip() for m in re.findall(rf"<{tag}(?: n=\"\d+\")?>\n(.*?)\n</{tag}>", text, re.DOTALL)]


def _terms(text: str) -> tuple[set[str], set[str]]:
    words = re.findall(r"[A-Za-z]+|\d+", text.lower())
    numbers = {w for w in words if w.isdigit()}
    stems = {w[:5] for w in words if not w.isdigit() and len(w) > 2 and w not in STOPWORDS}
    return stems, numbers


def claims_of(text: str) -> list[str]:
    if any(r in text.lower() for r in REFUSALS):
        return []
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]


def supported(claim: str, passages: list[str]) -> bool:
    stems, numbers = _terms(claim)
    p_stems, p_numbers = _terms(" ".join(passages))
    p_words = set(re.findall(r"[a-z]+", " ".join(passages).lower()))
    stem_ok = all(s in p_stems or any(w.startswith(s) for w in p_words) for s in stems)
    return stem_ok and numbers <= p_numbers


def respond(request: dict[str, Any]) -> str:
    messages = request.get("messages", [])
    system = next((m["content"] for m in messages if m["role"] == "system"), "")
    user = next((m["content"] for m in reversed(messages) if m["role"] == "user" and "<" in m["content"]), "")
    if "break a text into its claims" in system:
        (text,) = _tag(user, "text")
        return json.dumps({"claims": claims_of(text)})
    if "check claims against passages" in system:
        passages = _tag(user, "passage")
        claims = _tag(user, "claim")
        verdicts = [
            {"reason": "all its terms appear in the passages" if ok else "a term is missing from the passages", "supported": ok}
            for ok in (supported(c, passages) for c in claims)
        ]
        return json.dumps({"verdicts": verdicts})
    return "{}"
