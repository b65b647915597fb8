"""``ragmeter.evaluate`` and ``ragmeter.aevaluate``: the engine with the sinks a user names.

The engine (``ragmeter.engine``) scores; it opens no file and knows no store. This face
turns what users write into the sinks the engine writes to, and hands them over:
``out=`` the result file and ``journal=`` / ``resume=`` the journal (``ragmeter.sinks``),
``record=`` the run store's recorder (``ragmeter.runs``). So where a run's files live is
decided here, and the store sits beside the engine rather than under it.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any, Sequence

from ragmeter.engine import aevaluate as engine_aevaluate
from ragmeter.engine import conversation_inputs
from ragmeter.runtime.loop import synchronous
from ragmeter.result import EvaluationResult
from ragmeter.runs import recorder_for
from ragmeter.sinks import journal_for, result_file_for

ENGINE_SINKS = ("result_file", "journal", "recorder")
"""The engine's sink parameters, which users name by ``out``, ``journal``/``resume``, ``record``."""


async def aevaluate(data: Any, metrics: Any = None, *, out: str | Path | None = None,
                    journal: str | Path | bool | None = True, resume: bool = True, record: Any = True,
                    **options: Any) -> EvaluationResult:
    return await engine_aevaluate(data, metrics, result_file=result_file_for(out), journal=journal_for(journal, resume),
                                  recorder=recorder_for(record), **options)


def _public_signature(engine: inspect.Signature, face: inspect.Signature) -> inspect.Signature:
    """The engine's options, then the sinks as users name them (this face's own parameters)."""
    options = [p for p in engine.parameters.values() if p.name not in ENGINE_SINKS]
    sinks = [p for p in face.parameters.values() if p.kind is inspect.Parameter.KEYWORD_ONLY]
    return engine.replace(parameters=[*options, *sinks])


aevaluate.__signature__ = _public_signature(  # type: ignore[attr-defined]
    inspect.signature(engine_aevaluate), inspect.signature(aevaluate))
aevaluate.__doc__ = (engine_aevaluate.__doc__ or "").split("    ``result_file``, ``journal``")[0] + """    ``out`` (``.json`` or ``.parquet``) writes each sample's scores as it finishes. With
    ``out`` the samples are not kept in memory (``keep_samples=True`` keeps them too): a
    file input is read lazily (JSONL, CSV, Parquet), at most a few times ``concurrency``
    samples are held at once, and memory stays flat however many samples there are. The
    returned result then carries the summary and ``streamed.path``;
    ``EvaluationResult.load(path)`` reads the samples back.

    ``journal`` keeps every finished score as it lands, so an interrupted run loses nothing:
    ``True`` one file per run identity in the cache dir, a path that file, ``False`` none.
    A rerun of the same identity computes only what is missing; ``resume=False`` starts afresh.

    ``record`` keeps the run in the run store as its samples finish (``ragmeter.runs``):
    ``True`` the default store, a path or SQLAlchemy URL another, ``ragmeter.runs.Record``
    with tags, ``False`` not at all (see docs/runs.md).
    """

evaluate = synchronous(aevaluate, """Score ``data`` (a file, a pandas DataFrame, a Hugging Face Dataset, a list of dicts or
    ``Sample``s) with ``metrics``; the arguments are ``aevaluate``'s.

    Works from a plain script and from a notebook whose event loop is already running: the
    run goes to ragmeter's one long-lived loop (``ragmeter.runtime.loop``). In async code,
    ``await aevaluate(...)`` instead, so the caller's loop is not blocked.
    """)



async def aevaluate_conversations(data: Any, metrics: Sequence[Any] | None = None, *,
                                  retrieval_tools: Sequence[str] | None = None, **options: Any) -> EvaluationResult:
    """Async form of ``evaluate_conversations``."""
    dataset, chosen = conversation_inputs(data, metrics, retrieval_tools)
    return await aevaluate(dataset, chosen, **options)


evaluate_conversations = synchronous(aevaluate_conversations, """Score conversations (a JSONL / JSON /
    Parquet file, a DataFrame, a Hugging Face dataset, a list of records, message lists or Ragas
    ``MultiTurnSample``s) with ``metrics``: the conversation metrics (``tool_call_accuracy``,
    ``tool_call_f1``, ``agent_goal_accuracy``, ``topic_adherence``, ``knowledge_retention``,
    ``conversation_completeness``) once per conversation, any single-turn metric on each reply
    that has contexts (the mean is the conversation's score; each turn's is in the score's
    ``verdicts``).

    ``retrieval_tools`` names the tools whose results are a reply's contexts. The other
    arguments are ``evaluate``'s (judge, embedder, cache, journal, resume, out, record, ...).
    """)

__all__ = ["aevaluate", "aevaluate_conversations", "evaluate", "evaluate_conversations"]
