"""A deterministic judge for the OpenAI mock server: it reads ragmeter's fenced prompts and
answers every task the way a careful judge would on simple texts.

* claims: one claim per sentence; none for "I don't know"-style refusals;
* support: a claim is supported when every content word (its first 5 letters) and every
  number of the claim appears in the passages;
* questions: the answer's sentences turned into questions; noncommittal for refusals;
* context usefulness: a chunk is useful when it holds at least half of the reference's
  content words; relevant sentences, and relevant chunks (relevance 1, else 0): more than
  half of the question's content words;
* entities: runs of capitalised words, and numbers;
* critiques: harmfulness and maliciousness fail on a few alarming words, conciseness on an
  answer over 60 words, a custom criterion passes;
* rubric and G-Eval levels: the level fixed for the task's key (``make_responder(levels=)``),
  else the scale's highest, or its lowest for an answer with an alarming word; G-Eval
  steps: three fixed steps naming the criterion;
* translations: each text prefixed with the target language in brackets.

Test doubles live at the network edge only: this runs inside the HTTP server, and the
benchmark uses it too, so its rules are shared by both.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

REFUSALS = ("i don't know", "i do not know", "cannot answer", "no information")
STOPWORDS = {
    "the", "was", "were", "is", "are", "and", "for", "with", "that", "this", "its", "has", "have", "from",
    "into", "of", "in", "on", "a", "an", "to", "by", "at", "as", "it", "be", "what", "which", "who", "whom",
    "when", "where", "why", "how", "does", "did", "do", "about",
}
ALARMING = ("poison", "bomb", "kill", "weapon", "steal")
_LEADING = {"The", "A", "An", "In", "It", "He", "She", "They", "This", "That", "These", "On", "At", "Its", "His", "Her", "What", "Who", "Where", "When", "How", "Which", "Yes", "No"}


def _tag(text: str, tag: str) -> list[str]:
    return [m.strip() for m in re.findall(rf"<{tag}(?: n=\"\d+\")?>\n(.*?)\n</{tag}>", text, re.DOTALL)]


def _terms(text: str) -> tuple[set[str], set[str]]:
    words = re.findall(r"[A-Za-z]+|\d+", text.lower())
    numbers = {w for w in words if w.isdigit()}
    stems = {w[:5] for w in words if not w.isdigit() and len(w) > 2 and w not in STOPWORDS}
    return stems, numbers


def sentences_of(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]


def claims_of(text: str) -> list[str]:
    if any(r in text.lower() for r in REFUSALS):
        return []
    return sentences_of(text)


def supported(claim: str, passages: list[str]) -> bool:
    stems, numbers = _terms(claim)
    p_stems, p_numbers = _terms(" ".join(passages))
    p_words = set(re.findall(r"[a-z]+", " ".join(passages).lower()))
    stem_ok = all(s in p_stems or any(w.startswith(s) for w in p_words) for s in stems)
    return stem_ok and numbers <= p_numbers


def overlap(reference: str, text: str) -> float:
    """Share of ``reference``'s content words (and numbers) that ``text`` holds."""
    stems, numbers = _terms(reference)
    wanted = stems | numbers
    if not wanted:
        return 0.0
    have_stems, have_numbers = _terms(text)
    return len(wanted & (have_stems | have_numbers)) / len(wanted)


def entities_of(text: str) -> list[str]:
    found: list[str] = []
    for match in re.finditer(r"[A-Z][\w'-]*(?:\s+(?:of\s+)?[A-Z][\w'-]*)*|\b\d[\d,.]*\d\b|\b\d\b", text):
        words = match.group(0).split()
        while words and words[0] in _LEADING:
            words = words[1:]
        entity = " ".join(words).rstrip(".,")
        if entity and entity not in found:
            found.append(entity)
    return found


def questions_of(answer: str, n: int) -> list[str]:
    sentences = sentences_of(answer) or [answer]
    return [f"What about this: {sentences[i % len(sentences)].rstrip('.!?')}?" for i in range(n)]


def critique(key: str, answer: str) -> dict[str, Any]:
    aspect = key.removeprefix("critique_")
    lower = answer.lower()
    if aspect in ("harmfulness", "maliciousness"):
        bad = [w for w in ALARMING if w in lower]
        return {"reason": f"mentions {bad[0]}" if bad else "nothing alarming", "verdict": not bad}
    if aspect == "conciseness":
        words = len(answer.split())
        return {"reason": f"{words} words", "verdict": words <= 60}
    return {"reason": "meets the criterion", "verdict": True}


def graded(key: str, user: str, answer: str, levels: dict[str, int]) -> dict[str, Any]:
    """A rubric's or G-Eval's level: fixed for ``key``, else by the rule above."""
    block = user[user.index(f"Task {key}:"):]
    low, high = (int(v) for v in re.search(r"an integer from (-?\d+) (?:\(worst\) )?to (-?\d+)", block).groups())  # type: ignore[union-attr]
    if key in levels:
        return {"reason": "fixed by the test", "level": levels[key]}
    bad = [w for w in ALARMING if w in answer.lower()]
    return {"reason": f"mentions {bad[0]}" if bad else "meets it", "level": low if bad else high}


def _task(key: str, user: str, claims: dict[str, list[str]], entities: dict[str, list[str]],
          levels: dict[str, int] | None = None) -> Any:
    question = (_tag(user, "question") or [""])[0]
    answer = (_tag(user, "answer") or [""])[0]
    truth = (_tag(user, "ground_truth") or [""])[0]
    contexts = _tag(user, "context")
    if key in ("answer_claims", "ground_truth_claims"):
        text = answer if key == "answer_claims" else truth
        return {"claims": claims[text] if text in claims else claims_of(text)}
    if key in ("answer_support", "ground_truth_support", "answer_in_ground_truth", "ground_truth_in_answer"):
        items = _tag(user, "answer_claim" if key.startswith("answer") else "ground_truth_claim")
        passages = {"answer_support": contexts, "ground_truth_support": contexts, "answer_in_ground_truth": [truth], "ground_truth_in_answer": [answer]}[key]
        return {"verdicts": [
            {"reason": "all its terms appear" if ok else "a term is missing", "verdict": ok}
            for ok in (supported(c, passages) for c in items)
        ]}
    if key == "answer_questions":
        n = int(re.search(r"Write exactly (\d+) questions", user).group(1))  # type: ignore[union-attr]
        refusal = any(r in answer.lower() for r in REFUSALS)
        return {"questions": questions_of(answer, n), "noncommittal": refusal}
    if key == "context_usefulness":
        reference = truth or answer
        return {"verdicts": [
            {"reason": f"holds {overlap(reference, c):.0%} of the reference", "verdict": overlap(reference, c) >= 0.5}
            for c in contexts
        ]}
    if key == "chunk_relevance":
        return {"verdicts": [
            {"reason": f"holds {overlap(question, c):.0%} of the question's words", "relevance": 1.0 if overlap(question, c) > 0.5 else 0.0}
            for c in contexts
        ]}
    if key == "relevant_sentences":
        chosen = [i for i, s in enumerate(_tag(user, "sentence"), start=1) if overlap(question, s) > 0.5]
        return {"reason": f"{len(chosen)} sentences on the question's topic", "sentences": chosen}
    if key == "entities":
        joined = " ".join(contexts)
        return {
            "ground_truth": entities[truth] if truth in entities else entities_of(truth),
            "contexts": entities[joined] if joined in entities else entities_of(joined),
        }
    if key.startswith("critique_"):
        return critique(key, answer)
    if key.startswith(("rubric_", "g_eval_")):
        return graded(key, user, answer, levels or {})
    # internal: a test double's script lacks a task; a bug in the test
    raise ValueError(f"scripted judge: unknown task {key!r}")


def make_responder(
    claims: dict[str, list[str]] | None = None, entities: dict[str, list[str]] | None = None,
    levels: dict[str, int] | None = None, answers: dict[str, Any] | None = None,
) -> Callable[[dict[str, Any]], str]:
    """A responder whose claims and entities are fixed for some texts (as a careful judge
    would extract them), rubric or G-Eval levels for some task keys, and whole answers for
    others (a person's own ``JudgedMetric``); the rules above for the rest."""
    claims = dict(claims or {})
    entities = dict(entities or {})
    fixed = dict(levels or {})
    whole = dict(answers or {})

    def respond(request: dict[str, Any]) -> str:
        return _respond(request, claims, entities, fixed, whole)

    return respond


def respond(request: dict[str, Any]) -> str:
    return _respond(request, {}, {})


def _respond(request: dict[str, Any], claims: dict[str, list[str]], entities: dict[str, list[str]],
             levels: dict[str, int] | None = None, answers: dict[str, Any] | None = None) -> str:
    messages = request.get("messages", [])
    system = next((m["content"] for m in messages if m["role"] == "system"), "")
    user = next((m["content"] for m in reversed(messages) if m["role"] == "user" and "<" in m["content"]), "")
    if "You translate short texts" in system:
        language = re.search(r"into (.+?), keeping", system).group(1)  # type: ignore[union-attr]
        return json.dumps({"texts": [f"[{language}] {t}" for t in _tag(user, "text")]})
    if "You write evaluation procedures" in system:
        criterion = re.search(r"Criterion: (.+)", messages[-1]["content"]).group(1)  # type: ignore[union-attr]
        return json.dumps({"steps": [f"Read the answer against: {criterion}", "List where it falls short.", "Pick the level."]})
    keys = re.findall(r"^Task (\w+):", user, re.MULTILINE)
    if not keys:
        return "{}"
    answers = answers or {}
    return json.dumps({key: answers[key] if key in answers else _task(key, user, claims, entities, levels) for key in keys})
