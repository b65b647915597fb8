"""``ragmeter.evaluate`` and ``ragmeter.aevaluate``: the engine with the sinks a user names.

The engine (``ragmeter.engine``) scores and writes the result file and the journal; it knows
no run store. This face adds ``record=``, the run store's recorder (``ragmeter.runs``), and
hands it to the engine, so the store sits beside the engine rather than under it.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any, Sequence

from ragmeter.engine import aevaluate as engine_aevaluate
from ragmeter.engine import conversation_inputs
from ragmeter.engine.loop import synchronous
from ragmeter.result import EvaluationResult
from ragmeter.runs import recorder_for


@functools.wraps(engine_aevaluate)
async def aevaluate(data: Any, metrics: Any = None, *, record: Any = True, **options: Any) -> EvaluationResult:
    return await engine_aevaluate(data, metrics, recorder=recorder_for(record), **options)


def _with_record(signature: inspect.Signature) -> inspect.Signature:
    """The engine's signature with ``record`` (what users write) in place of ``recorder``."""
    record = inspect.Parameter("record", inspect.Parameter.KEYWORD_ONLY, default=True, annotation="Any")
    return signature.replace(parameters=[record if p.name == "recorder" else p for p in signature.parameters.values()])


aevaluate.__signature__ = _with_record(inspect.signature(engine_aevaluate))  # type: ignore[attr-defined]
aevaluate.__doc__ = (engine_aevaluate.__doc__ or "").split("    ``recorder``")[0] + """    ``record`` keeps the run in the run store as its samples finish (``ragmeter.runs``):
    ``True`` the default store, a path or SQLAlchemy URL another, ``ragmeter.runs.Record``
    with tags, ``False`` not at all (see docs/runs.md).
    """

evaluate = synchronous(aevaluate, """Score ``data`` (a file, a pandas DataFrame, a Hugging Face Dataset, a list of dicts or
    ``Sample``s) with ``metrics``; the arguments are ``aevaluate``'s.

    Works from a plain script and from a notebook whose event loop is already running: the
    run goes to ragmeter's one long-lived loop (``ragmeter.engine.loop``). In async code,
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
