"""Running the user's app over a test set: question in, answer and contexts out.

Works with any callable, sync or async, that takes a question (``app(question)``) and
returns one of the shapes ``output.read_output`` understands. The LangChain and LlamaIndex
adapters turn a chain or a query engine into such a callable and use this runner too.

Why a runner of its own: an app call is slow and fallible (network, rate limits, a bug on
one input). Questions run with bounded concurrency and a progress bar; a question whose
call fails or times out gets no answer, and its error is recorded in the sample's metadata
(``app_error``) and in ``RunResult.errors``, while the others go on. Sync callables run in
worker threads so that a slow one does not block the rest.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import inspect
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable

from ragmeter.adapters.output import read_output
from ragmeter.data import Dataset, Sample
from ragmeter.runtime.loop import run_sync
from ragmeter.runtime.progress import progress_bar
from ragmeter.errors import BadFile, InvalidOption

App = Callable[[str], Any] | Callable[[str], Awaitable[Any]]


@dataclass
class AppError:
    """One question the app could not answer."""

    row: int
    id: str | None
    question: str | None
    error: str

    def __str__(self) -> str:
        name = f" ({self.id})" if self.id else ""
        return f"row {self.row}{name}: {self.error}"


@dataclass
class RunResult:
    """The test set with each question's ``answer``, ``contexts`` and ``retrieved_context_ids``
    filled in, the questions that failed, and timing."""

    dataset: Dataset
    errors: list[AppError] = field(default_factory=list)
    wall_s: float = 0.0

    @property
    def answered(self) -> int:
        return len(self.dataset) - len(self.errors)


def load_app(spec: str) -> App:
    """``"package.module:NAME"`` (or ``"path/to/file.py:NAME"``) -> the app to run.

    ``NAME`` is a callable, a LangChain Runnable (a chain) or a LlamaIndex query engine; the
    last two are wrapped with their adapter (``langchain_app``, ``llamaindex_app``), so the
    object a user already has needs no wrapper function. See ``load_object``."""
    return as_app(load_object(spec), spec)


def load_object(spec: str) -> Any:
    """The object ``"package.module:NAME"`` (or ``"path/to/file.py:NAME"``) names. The current directory is importable,
    as with ``python -m``; a file's own folder is too, so it can import the modules beside it
    as it does when run as a script. Raises ``ValueError`` with what went wrong (bad spec,
    module not found, no such attribute, not an app)."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise InvalidOption(f"--app takes MODULE:FUNCTION (e.g. my_rag.app:answer), not {spec!r}")
    if module_name.endswith(".py") or "/" in module_name:
        path = Path(module_name).resolve()
        if not path.exists():
            raise BadFile(f"app file {path} does not exist")
        name = f"ragmeter_app_{path.stem}"
        if str(path.parent) not in sys.path:  # `python file.py` puts the file's folder first
            sys.path.insert(0, str(path.parent))
        loader_spec = importlib.util.spec_from_file_location(name, path)
        if loader_spec is None or loader_spec.loader is None:
            raise BadFile(f"cannot import {path}")
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[name] = module
        loader_spec.loader.exec_module(module)
    else:
        if "" not in sys.path and str(Path.cwd()) not in sys.path:
            sys.path.insert(0, str(Path.cwd()))
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            raise InvalidOption(f"cannot import app module {module_name!r}: {exc}") from exc
    target: Any = module
    for part in attr.split("."):
        if not hasattr(target, part):
            raise InvalidOption(f"module {module_name!r} has no attribute {attr!r}")
        target = getattr(target, part)
    return target


def defined_in(obj: Any, package: str, class_names: tuple[str, ...]) -> bool:
    """Whether ``obj`` is an instance of a class named one of ``class_names`` from ``package``,
    checked by name so that neither framework is imported to ask."""
    return any(cls.__name__ in class_names and cls.__module__.startswith(package) for cls in type(obj).__mro__)


def as_app(target: Any, spec: str | None = None) -> App:
    """``target`` as an app ``run_app`` can call: a LangChain Runnable or a LlamaIndex query
    engine wrapped with its adapter, any other callable as it is."""
    if defined_in(target, "langchain_core", ("Runnable",)):
        from ragmeter.adapters.langchain import langchain_app

        return langchain_app(target)
    if defined_in(target, "llama_index.core", ("BaseQueryEngine",)):
        from ragmeter.adapters.llamaindex import llamaindex_app

        return llamaindex_app(target)
    if not callable(target):
        raise InvalidOption(f"{spec or 'the app'} is a {type(target).__name__}, not a callable, a LangChain "
                         "Runnable or a LlamaIndex query engine")
    return target


def _as_dataset(data: Any) -> Dataset:
    if isinstance(data, Dataset):
        return data
    to_dataset = getattr(data, "to_dataset", None)  # a testset_gen Testset
    if callable(to_dataset):
        return to_dataset()
    from ragmeter.data.stream import as_dataset

    return as_dataset(data)


async def _call(app: App, question: str) -> Any:
    if inspect.iscoroutinefunction(app) or inspect.iscoroutinefunction(getattr(app, "__call__", None)):
        return await app(question)
    result = await asyncio.to_thread(app, question)
    if inspect.isawaitable(result):
        return await result
    return result


async def arun_app(data: Any, app: App | str, *, concurrency: int = 8, timeout: float | None = None,
                   show_progress: bool = True) -> RunResult:
    """Async form of ``run_app``."""
    if concurrency < 1:
        raise InvalidOption("concurrency must be at least 1")
    the_app = load_app(app) if isinstance(app, str) else as_app(app)
    dataset = _as_dataset(data)
    gate = asyncio.Semaphore(concurrency)
    samples: list[Sample] = list(dataset.samples)
    errors: list[AppError] = []
    started = time.perf_counter()

    async def one(i: int, sample: Sample, advance: Callable[[int], None]) -> None:
        row = dataset.rows[i]
        if not sample.question:
            errors.append(AppError(row, sample.id, None, "MissingInput: the record has no question"))
            samples[i] = sample.model_copy(update={"metadata": {**sample.metadata, "app_error": errors[-1].error}})
            advance(1)
            return
        async with gate:
            t0 = time.perf_counter()
            try:
                call = _call(the_app, sample.question)
                value = await (asyncio.wait_for(call, timeout) if timeout else call)
                fields = read_output(value).as_fields()
                update: dict[str, Any] = {**fields}
                update["metadata"] = {**sample.metadata, "app_latency_s": round(time.perf_counter() - t0, 4)}
            except Exception as exc:  # noqa: BLE001 (recorded per question; the rest goes on)
                kind = "Timeout" if isinstance(exc, (asyncio.TimeoutError, TimeoutError)) else type(exc).__name__
                message = f"{kind}: {exc}" if str(exc) else kind
                errors.append(AppError(row, sample.id, sample.question, message))
                # no stale answer from the input survives a failed call
                update = {"answer": None, "contexts": None, "retrieved_context_ids": None,
                          "metadata": {**sample.metadata, "app_error": message}}
        samples[i] = Sample.model_validate({**sample.model_dump(), **update})
        advance(1)

    with progress_bar(len(samples), "running app", enabled=show_progress) as advance:
        await asyncio.gather(*(one(i, s, advance) for i, s in enumerate(list(samples))))
    errors.sort(key=lambda e: e.row)
    out = Dataset(samples, dataset.rows, dataset.errors, dataset.source)
    return RunResult(dataset=out, errors=errors, wall_s=time.perf_counter() - started)


def run_app(data: Any, app: App | str, *, concurrency: int = 8, timeout: float | None = None,
            show_progress: bool = True) -> RunResult:
    """Run ``app`` on every question of ``data`` (a test set path, ``Testset``, ``Dataset``,
    records, DataFrame); see the module docstring. ``app`` may be ``"module:function"``."""
    return run_sync(lambda: arun_app(data, app, concurrency=concurrency, timeout=timeout,
                                     show_progress=show_progress))
