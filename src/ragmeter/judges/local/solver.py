"""Answering the facts layer's tasks with the local judge's models, batched across samples.

Why batched: the engine scores many samples at once, and each asks for its judgements at
about the same moment. Answered one sample at a time, the models would run on a handful of
sentences per call; gathered, spaCy parses every text of the batch in one pipe and the
verifier scores every (premise, claim) pair of the batch in one pass. Requests that arrive
while a batch is being computed form the next one (no timer: a lone sample waits for
nothing). The models run in one worker thread, so the event loop stays free for I/O.

Every answer comes with the probabilities behind its verdicts (``Solved.probabilities``),
which the cascade uses to decide what to send to an LLM judge. Where a calibration exists
(``calibration.py``: claim support with the default verifier, chunk relevance, question
coverage) the probability is the calibrated one, the share of such verdicts that are "yes" on
development data, and the task is listed in ``Solved.calibrated``; the verdicts and scores
themselves are the raw rules' (a calibration is monotone, so it changes no ranking, and it
would pull every relevance towards the middle if it replaced the scores).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import weakref
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from pydantic import BaseModel

from ragmeter.errors import NeedsLLMJudge, UnsupportedLanguage
from ragmeter.judges.local.calibration import ADDRESSING, CHUNK_RELEVANCE, SUPPORT, Calibration, calibrations
from ragmeter.judgements.outputs import ChunkRelevance, Claims, CoveredPart, Critique, Entities, QuestionCoverage, Verdict
from ragmeter.judgements.tasks import Sections, Task

THRESHOLD = 0.5
"""A local probability of support (or relevance) at or above this is a yes."""

LOCAL_CRITIQUES = ("conciseness", "coherence")
"""The aspects with a local signal; the others need an LLM judge."""


@dataclass
class Solved:
    """The outcome of each task (an output or the error that stopped it), and, for tasks
    made of yes/no verdicts, the probability of yes behind each verdict."""

    outcomes: dict[str, Any] = field(default_factory=dict)
    probabilities: dict[str, list[float]] = field(default_factory=dict)
    calibrated: set[str] = field(default_factory=set)
    """The tasks whose probabilities are calibrated (the others are the rules' raw scores)."""


@dataclass
class _Request:
    tasks: Sequence[Task]
    sections: Sections
    future: asyncio.Future[Solved]


class LocalModels:
    """The local judge's models, each loaded on first use and shared by every sample of a run:
    "encoder" (MiniLM sentence embeddings), "verifier" (claim support), "relevance" (sentences),
    "chunk_relevance" (whole chunks)."""

    def __init__(self, verifier: str = "alignment", threads: int | None = None) -> None:
        self.verifier_spec = verifier
        self.threads = threads
        self._models: dict[str, Any] = {}
        self._lock = threading.RLock()  # re-entrant: a model may be built on another (chunk_relevance on the encoder)

    def calibration(self, kind: str) -> Calibration | None:
        """The calibration of a judgement ``kind`` for these models (None: the raw scores are all there is)."""
        return calibrations(self.verifier_spec).get(kind)

    def model(self, kind: str) -> Any:
        """The loaded model of ``kind``, built once."""
        with self._lock:
            if "encoder" not in self._models:
                # first, so that ``threads`` reaches the encoder every other model shares
                self._models["encoder"] = self._load("encoder")
            if kind not in self._models:
                self._models[kind] = self._load(kind)
            return self._models[kind]

    def _load(self, kind: str) -> Any:
        if kind == "encoder":
            from ragmeter.judges.local.verifier import default_encoder

            encoder = default_encoder()
            if self.threads is not None:
                encoder.threads = self.threads
            return encoder
        if kind == "verifier":
            from ragmeter.judges.local.verifier import get_verifier

            return get_verifier(self.verifier_spec)
        if kind == "relevance":
            from ragmeter.judges.local.relevance import RelevanceScorer

            # lexical signals only: on MS MARCO dev the MiniLM cosine adds 0.005 pairwise
            # accuracy (0.705 vs 0.700, sentence level 0.695 vs 0.700) and costs two thirds
            # of the suite's time (every context sentence encoded)
            return RelevanceScorer(embeddings=False)
        if kind == "chunk_relevance":
            from ragmeter.judges.local.chunk_relevance import ChunkRelevanceScorer

            # with the MiniLM cosine, unlike "relevance": it scores whole chunks (one encode
            # each, not every sentence) and lifts pairwise accuracy from 0.735 to 0.755 on
            # MS MARCO dev and from 0.87 to 0.94 on the pairs of bench/data (bench/HISTORY.md)
            return ChunkRelevanceScorer(encoder=self.model("encoder"))
        raise KeyError(kind)


class LocalSolver:
    """Answers tasks with ``models``, batching the requests of concurrent samples.

    One queue per event loop: a judge may be shared by threads that each run their own loop
    (``asyncio.run`` in worker threads). A request is queued and answered on its caller's
    loop; the models still run in one worker thread shared by every loop. Why: with one
    queue for all loops, a request from a second loop joined the first loop's drain, whose
    answer (set on a future of another loop, from the wrong thread) never woke the waiting
    loop: worker threads sat at 0% CPU forever (``tests/test_local_judge.py``).
    """

    def __init__(self, models: LocalModels) -> None:
        self.models = models
        self._queues: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Queue]" = weakref.WeakKeyDictionary()
        self._queues_lock = threading.Lock()
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="ragmeter-local")
        weakref.finalize(self, self._pool.shutdown, wait=False)

    async def solve(self, tasks: Sequence[Task], sections: Sections) -> Solved:
        loop = asyncio.get_running_loop()
        with self._queues_lock:
            queue = self._queues.get(loop)
            if queue is None:
                queue = self._queues[loop] = _Queue()
        request = _Request(tasks, sections, loop.create_future())
        queue.pending.append(request)
        if queue.drainer is None or queue.drainer.done():
            queue.drainer = loop.create_task(self._drain(queue))
        return await request.future

    async def _drain(self, queue: "_Queue") -> None:
        await asyncio.sleep(0)  # let callers already scheduled join the first batch
        loop = asyncio.get_running_loop()
        while queue.pending:
            batch = [r for r in queue.pending if not r.future.done()]
            queue.pending.clear()
            if not batch:
                continue
            try:
                solved = await loop.run_in_executor(self._pool, solve_batch, self.models, [(r.tasks, r.sections) for r in batch])
            except BaseException as exc:  # noqa: BLE001 (handed to every waiting caller)
                for request in batch:
                    if not request.future.done():
                        request.future.set_exception(exc)
                if isinstance(exc, asyncio.CancelledError):
                    raise
                continue
            for request, result in zip(batch, solved):
                if not request.future.done():
                    request.future.set_result(result)


@dataclass
class _Queue:
    """One event loop's requests waiting for the models, and the task draining them."""

    pending: deque[_Request] = field(default_factory=deque)
    drainer: "asyncio.Task[None] | None" = None


# --- the batch ---------------------------------------------------------------------------

Job = tuple[int, Task, Sections]
"""(request index, task, that request's sections)."""


def solve_batch(models: LocalModels, requests: Sequence[tuple[Sequence[Task], Sections]]) -> list[Solved]:
    """Every task of every request, grouped by kind so each model runs once per batch."""
    results = [Solved() for _ in requests]
    by_kind: dict[str, list[Job]] = {}
    for i, (tasks, sections) in enumerate(requests):
        for task in tasks:
            try:
                unreadable: Exception | None = _unsupported_language(task, sections)
            except Exception as exc:  # noqa: BLE001 (this task's error, not the batch's)
                unreadable = exc
            if unreadable is not None:  # English models: no number for what they cannot read
                results[i].outcomes[task.key] = unreadable
                continue
            kind = "critique" if task.need.prompt == "critique" else task.need.prompt
            by_kind.setdefault(kind, []).append((i, task, sections))
    # entities first: its analyses (with the recogniser) serve the later kinds from the
    # cache, while the reverse order would parse every context twice
    for kind, jobs in sorted(by_kind.items(), key=lambda item: item[0] != "entities"):
        solve_kind = _KINDS.get(kind)
        try:
            if solve_kind is None:
                raise NeedsLLMJudge(f"the local judge has no implementation of {kind!r} (rubrics, G-Eval and "
                                    "your own judged metrics need an LLM judge or a cascade: local+openai:MODEL)")
            solve_kind(models, jobs, results)
        except Exception as exc:  # one kind failing leaves the others' answers intact
            for i, task, _ in jobs:
                results[i].outcomes.setdefault(task.key, exc)
    return results


def _unsupported_language(task: Task, sections: Sections) -> UnsupportedLanguage | None:
    """The error for a task that reads a text in a language the local models do not read."""
    from ragmeter.text.language import unsupported_language

    for name in task.sections:
        value = sections.get(name) or ""
        if isinstance(value, list) and name in ("sentence", "answer_claim", "ground_truth_claim"):
            value = " ".join(value)  # cut from one text: read together (one look-up, more words)
        language = unsupported_language(value if isinstance(value, list) else [value])
        if language is not None:
            return UnsupportedLanguage(
                f"{task.key}: the {name.replace('_', ' ')} is in {language.name} (detected), and the "
                "local judge's models read English only; use an LLM judge (--judge openai:MODEL) "
                "or the cascade (--judge local+openai:MODEL)")
    return None


def _claims(models: LocalModels, jobs: list[Job], results: list[Solved]) -> None:
    from ragmeter.judges.local.claims import extract_claims

    field_of = {"answer_claims": "answer", "ground_truth_claims": "ground_truth"}
    texts = [str(s.get(field_of[t.need.prompt]) or "") for _, t, s in jobs]
    questions = [str(s.get("question") or "") or None for _, t, s in jobs]
    for (i, task, _), claims in zip(jobs, extract_claims(texts, questions)):
        results[i].outcomes[task.key] = Claims(claims=claims)


_PREMISE = {
    "answer_support": ("context", "answer_claim"),
    "ground_truth_support": ("context", "ground_truth_claim"),
    "answer_in_ground_truth": ("ground_truth", "answer_claim"),
    "ground_truth_in_answer": ("answer", "ground_truth_claim"),
}


def _premise(sections: Sections, name: str) -> str:
    value = sections.get(name) or ""
    return "\n".join(value) if isinstance(value, list) else value


def _verdicts(results: list[Solved], i: int, task: Task, raw: Sequence[float], why: Callable[[float], str],
              calibration: Calibration | None = None) -> None:
    """Yes/no verdicts from raw scores (yes at ``THRESHOLD``), each reason saying how sure it is."""
    probs = calibration.probability(raw) if calibration else [float(p) for p in raw]
    verdicts = [Verdict(reason=_sure(why(r), p, calibration), verdict=r >= THRESHOLD) for r, p in zip(raw, probs)]
    _record(results[i], task, task.output_type(verdicts=verdicts), probs, calibration)


def _sure(reason: str, probability: float, calibration: Calibration | None) -> str:
    return f"{reason}; P(yes) {probability:.2f} calibrated" if calibration else reason


def _record(solved: Solved, task: Task, output: Any, probs: Sequence[float], calibration: Calibration | None) -> None:
    solved.outcomes[task.key] = output
    solved.probabilities[task.key] = [float(p) for p in probs]
    if calibration:
        solved.calibrated.add(task.key)


def _support(models: LocalModels, jobs: list[Job], results: list[Solved]) -> None:
    pairs: list[tuple[str, str]] = []
    spans = []
    for _, task, sections in jobs:
        premise_name, items_name = _PREMISE[task.need.prompt]
        premise = _premise(sections, premise_name)
        items = list(sections.get(items_name) or [])
        spans.append((len(pairs), len(items)))
        pairs.extend((premise, claim) for claim in items)
    probs = models.model("verifier").support(pairs) if pairs else []
    calibration = models.calibration(SUPPORT)
    for (i, task, _), (start, n) in zip(jobs, spans):
        _verdicts(results, i, task, probs[start : start + n], lambda p: f"local verifier: support {p:.2f}", calibration)


def _usefulness(models: LocalModels, jobs: list[Job], results: list[Solved]) -> None:
    """A chunk is useful when it states much of some sentence of the reference (ground truth
    or answer): the best ``AlignmentVerifier.share`` over the reference's sentences (with an
    NLI verifier, its best entailment probability)."""
    from ragmeter.text.nlp import sentences as split

    pairs: list[tuple[str, str]] = []
    layout = []
    for _, task, sections in jobs:
        reference = _premise(sections, task.reference or "ground_truth")
        targets = split(reference) or [reference]
        chunks = list(sections.get("context") or [])
        layout.append((len(pairs), len(chunks), len(targets)))
        pairs.extend((chunk, target) for chunk in chunks for target in targets)
    verifier = models.model("verifier")
    if not pairs:
        probs: list[float] = []
    elif hasattr(verifier, "align") and hasattr(verifier, "share"):
        # part of the reference is enough for a chunk to be useful (``share``)
        probs = [verifier.share(a) for a in verifier.align(pairs)]
    else:  # an NLI model: its entailment probability
        probs = verifier.support(pairs)
    for (i, task, _), (start, n_chunks, n_targets) in zip(jobs, layout):
        per_chunk = [max(probs[start + c * n_targets : start + (c + 1) * n_targets]) for c in range(n_chunks)]
        _verdicts(results, i, task, per_chunk, lambda p: f"local verifier: states {p:.2f} of a reference sentence")


def _relevant_sentences(models: LocalModels, jobs: list[Job], results: list[Solved]) -> None:
    from ragmeter.text.nlp import analyse

    scorer = models.model("relevance")
    # one spaCy pass and one encode for the whole batch; the per-sample calls below then
    # find every analysis and embedding in the models' caches
    texts = [t for _, _, s in jobs for t in [str(s.get("question") or ""), *(s.get("sentence") or [])]]
    analyse(texts)
    if scorer.embeddings:
        scorer.encoder.encode(texts)
    for i, task, sections in jobs:
        sentences = list(sections.get("sentence") or [])
        probs = scorer.relevance(str(sections.get("question") or ""), sentences)
        chosen = [n for n, p in enumerate(probs, start=1) if p >= THRESHOLD]
        reason = f"local relevance: {len(chosen)} of {len(sentences)} sentences at or above {THRESHOLD}"
        results[i].outcomes[task.key] = task.output_type(reason=reason, sentences=chosen)
        results[i].probabilities[task.key] = [float(p) for p in probs]


def _chunk_relevance(models: LocalModels, jobs: list[Job], results: list[Solved]) -> None:
    """Each chunk's relevance from ``ChunkRelevanceScorer``: the question's focus present and an
    answer of the kind it asks for beside it, not only its words."""
    from ragmeter.judges.local.chunk_relevance import ChunkRelevanceScorer

    scorer = models.model("chunk_relevance")
    calibration = models.calibration(CHUNK_RELEVANCE)
    for i, task, sections in jobs:
        judged = scorer.relevance(str(sections.get("question") or ""), list(sections.get("context") or []))
        raw = [float(j.relevance) for j in judged]
        probs = calibration.probability(raw) if calibration else raw
        verdicts = [ChunkRelevance(reason=_sure(j.reason, p, calibration), relevance=round(j.relevance, 4))
                    for j, p in zip(judged, probs)]
        _record(results[i], task, task.output_type(verdicts=verdicts), probs, calibration)


def _entities(models: LocalModels, jobs: list[Job], results: list[Solved]) -> None:
    from ragmeter.text.nlp import analyse

    texts = []
    for _, _, sections in jobs:
        texts += [_premise(sections, "ground_truth"), _premise(sections, "context")]
    analyses = analyse(texts)
    for n, (i, task, _) in enumerate(jobs):
        truth, contexts = analyses[2 * n], analyses[2 * n + 1]
        results[i].outcomes[task.key] = Entities(
            ground_truth=list(dict.fromkeys(e.text for e in truth.entities)),
            contexts=list(dict.fromkeys(e.text for e in contexts.entities)),
        )


def _coverage(models: LocalModels, jobs: list[Job], results: list[Solved]) -> None:
    from ragmeter.judges.local.coverage import question_coverage

    covered = question_coverage(
        [str(s.get("question") or "") for _, _, s in jobs],
        [str(s.get("answer") or "") for _, _, s in jobs],
        models.model("encoder"),
    )
    calibration = models.calibration(ADDRESSING)
    for (i, task, _), c in zip(jobs, covered):
        output = QuestionCoverage(
            score=c.score,
            noncommittal=c.noncommittal,
            parts=[CoveredPart(part=p.part, covered=p.covered, evidence=p.evidence) for p in c.parts],
        )
        # one probability, that the answer addresses the question; with no calibration the
        # coverage score is not one, so the cascade gets nothing to decide on and keeps it local
        if calibration:
            _record(results[i], task, output, calibration.probability([c.score]), calibration)
        else:
            results[i].outcomes[task.key] = output


def _critiques(models: LocalModels, jobs: list[Job], results: list[Solved]) -> None:
    from ragmeter.judges.local import critiques as signals

    for aspect in LOCAL_CRITIQUES:
        mine = [(i, t, s) for i, t, s in jobs if t.key == f"critique_{aspect}" and _builtin_criterion(t, aspect)]
        if not mine:
            continue
        answers = [str(s.get("answer") or "") for _, _, s in mine]
        if aspect == "conciseness":
            judged = signals.conciseness(answers, [str(s.get("question") or "") for _, _, s in mine])
        else:
            judged = signals.coherence(answers)
        for (i, task, _), (verdict, confidence, reason) in zip(mine, judged):
            results[i].outcomes[task.key] = Critique(reason=f"local check: {reason}", verdict=verdict)
            p_yes = confidence if verdict else 1.0 - confidence
            results[i].probabilities[task.key] = [float(p_yes)]
    for i, task, _ in jobs:
        results[i].outcomes.setdefault(
            task.key,
            NeedsLLMJudge(f"{task.key.removeprefix('critique_')}: no local signal for this criterion; use an LLM judge or a cascade (local+openai:MODEL)"),
        )


def _builtin_criterion(task: Task, aspect: str) -> bool:
    """Only the built-in criterion has a local check: a user's own critique that happens to
    be called "conciseness" may ask something else."""
    return task.need.aspect == aspect


_KINDS: dict[str, Callable[[LocalModels, list[Job], list[Solved]], None]] = {
    "answer_claims": _claims,
    "ground_truth_claims": _claims,
    "answer_support": _support,
    "ground_truth_support": _support,
    "answer_in_ground_truth": _support,
    "ground_truth_in_answer": _support,
    "context_usefulness": _usefulness,
    "relevant_sentences": _relevant_sentences,
    "chunk_relevance": _chunk_relevance,
    "entities": _entities,
    "answer_questions": _coverage,
    "critique": _critiques,
}

