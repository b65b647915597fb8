"""Personas: who asks the questions.

A question written "for nobody" reads like an exam item; one written for "a nurse checking a
drug interaction" reads like what a user of the app would type. Each record is written for
one persona (its name lands in the record's metadata), so a test set covers the kinds of
people the corpus serves.

Personas come from the user (a JSON/JSONL file or a list of ``{name, role_description}``)
or from the corpus: a handful of document summaries, chosen to be far apart in meaning when
vectors are given (farthest-point sampling) and spread over documents otherwise, go into ONE
call that returns the personas. That call is part of the fixed cost; it is not repeated per
question.

Which persona asks a given question is decided without a call: the persona whose name and
role share most words with the question's topic and the chunks' themes, ties broken by the
record's seeded random generator (Ragas spends an LLM call on this matching).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
from pydantic import BaseModel, Field, ValidationError

from ragmeter.judges.protocol import FreeFormJudge, Message
from ragmeter.prompts.fencing import DATA_NOTICE, fence_numbered

DEFAULT_PERSONAS = 3
"""Personas derived from the corpus when the user gives none (Ragas' default too)."""

MAX_SUMMARIES = 12
"""Summaries shown to the persona call: enough to see the corpus's range, few enough to stay
a short prompt whatever the corpus size."""

class Persona(BaseModel):
    """Someone who would ask questions of this corpus."""

    name: str = Field(min_length=1, description="a short label, e.g. 'Hospital pharmacist'")
    role_description: str = Field(min_length=1, description="one or two sentences: who they are and what they want to know")


class Personas(BaseModel):
    """What the persona call returns."""

    personas: list[Persona]


GENERIC_PERSONA = Persona(name="Curious reader",
                          role_description="Someone who wants to learn what these documents say.")
"""Used when the persona call fails and the user gave none: the run goes on, with a warning."""


def load_personas(source: str | Path | Sequence[Mapping[str, Any] | Persona]) -> list[Persona]:
    """Personas from a JSON file (a list), a JSONL file (one object per line) or a list.

    Raises ``ValueError`` naming the file, the row (1-based) and the field at fault, and
    for duplicate names (records cite personas by name)."""
    where = "personas"
    rows: list[Any]
    if isinstance(source, (str, Path)):
        path = Path(source)
        where = str(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ValueError(f"{path}: cannot read the personas file ({exc})") from None
        try:
            loaded = json.loads(text)
            rows = loaded if isinstance(loaded, list) else [loaded]
        except json.JSONDecodeError:
            rows = []
            for number, line in enumerate(text.splitlines(), start=1):
                if not line.strip():
                    continue
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{path}: line {number} is not JSON ({exc.msg})") from None
    else:
        rows = list(source)
    personas: list[Persona] = []
    for number, row in enumerate(rows, start=1):
        if isinstance(row, Persona):
            personas.append(row)
            continue
        try:
            personas.append(Persona.model_validate(row))
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or "row"
            raise ValueError(f"{where}: row {number}, field {field!r}: {first['msg']} "
                             "(each persona is {\"name\": ..., \"role_description\": ...})") from None
    if not personas:
        raise ValueError(f"{where}: no personas in it")
    names = [p.name for p in personas]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"{where}: persona names must be unique; repeated: {', '.join(duplicates)}")
    return personas


def representative(summaries: Sequence[str], count: int, seed: int,
                   vectors: np.ndarray | None = None) -> list[int]:
    """Indices of up to ``count`` summaries that together cover the corpus.

    With unit ``vectors``: farthest-point sampling (start from a seeded pick, then always the
    summary least similar to those already chosen), so near-identical chunks do not crowd
    out the rest. Without: a seeded sample, in corpus order."""
    n = len(summaries)
    if n <= count:
        return list(range(n))
    rng = random.Random(f"{seed}:personas")
    if vectors is None:
        return sorted(rng.sample(range(n), count))
    chosen = [rng.randrange(n)]
    closest = vectors @ vectors[chosen[0]]
    while len(chosen) < count:
        closest[chosen] = np.inf
        nxt = int(np.argmin(closest))
        chosen.append(nxt)
        closest = np.maximum(closest, vectors @ vectors[nxt])
    return sorted(chosen)


def persona_messages(summaries: Sequence[str], count: int) -> list[Message]:
    user = (
        f"Below are summaries of parts of a document collection. Describe {count} distinct "
        "personas: people who would realistically search this collection for answers, "
        "different from one another in role and in what they want to know. For each, a short "
        "name (a role, not a personal name) and a role_description of one or two sentences "
        "saying who they are and what they look for.\n\n"
        + fence_numbered("summary", list(summaries))
        + '\n\nReply with {"personas": [{"name": ..., "role_description": ...}, ...]}.'
    )
    system = "You design user personas for testing a question answering system. " + DATA_NOTICE
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


async def derive_personas(judge: FreeFormJudge, summaries: Sequence[str], count: int = DEFAULT_PERSONAS,
                          *, seed: int = 0, vectors: np.ndarray | None = None) -> list[Persona]:
    """``count`` personas from the corpus in one call (see the module docstring). Raises the
    judge's ``JudgeError`` when the call fails; duplicate names and empty entries are dropped,
    extra ones cut."""
    picked = representative(summaries, min(MAX_SUMMARIES, max(count * 3, count)), seed, vectors)
    reply = await judge.generate(persona_messages([summaries[i] for i in picked], count), Personas)
    out: list[Persona] = []
    for p in reply.personas:
        if p.name.strip() and p.name.strip() not in {q.name for q in out}:
            out.append(Persona(name=p.name.strip(), role_description=p.role_description.strip()))
    return out[:count]


_WORD = re.compile(r"[a-z][a-z0-9]{2,}")


def words(texts: Iterable[str]) -> set[str]:
    """Lower-case words of three letters or more: what persona matching compares."""
    return {w for t in texts for w in _WORD.findall(t.lower())}


def match_persona(personas: Sequence[Persona], topic_words: set[str], rng: random.Random) -> Persona:
    """The persona whose name and role share most words with the topic; ties (including
    "none shares any") broken by ``rng``, so the choice is seeded and spreads over personas."""
    scores = [len(words([p.name, p.role_description]) & topic_words) for p in personas]
    best = max(scores)
    return rng.choice([p for p, s in zip(personas, scores) if s == best])
