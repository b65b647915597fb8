"""A run's metric set as a file in the repository (YAML or TOML), so CI and laptops agree.

    metrics:                      # built-in metrics, by name or with their options
      - faithfulness
      - {name: answer_similarity, threshold: 0.8}
    critiques:                    # yes/no aspect critiques: name -> criterion
      polite: Is the answer polite?
    rubrics:                      # graded: criterion and one description per level
      tone: {criterion: Does the answer follow our tone guide?, levels: {1: rude, 3: neutral, 5: warm}}
    g_eval:                       # G-Eval: criterion, optional scale and steps
      helpful: {criterion: Does the answer help the user?, scale: [1, 5]}
    python:                       # Python metrics: "module:attribute" (the file's folder is importable)
      - team_metrics:cites_source

Every problem is one ``InvalidMetricsFile`` naming the file and the entry.
"""

from __future__ import annotations

import importlib
import sys
import tomllib
from pathlib import Path
from typing import Any, Callable, Mapping

from ragmeter.errors import InvalidMetricsFile, InvalidOption, InvalidOptionType, UnknownMetric
from ragmeter.metrics.aspect_critique import AspectCritique
from ragmeter.metrics.base import Metric, get_metric
from ragmeter.metrics.g_eval import GEval
from ragmeter.metrics.rubric import Rubric

SECTIONS = ("metrics", "critiques", "rubrics", "g_eval", "python")


def read_metrics_file(path: str | Path) -> dict[str, Any]:
    """The file's mapping: ``.toml`` by ``tomllib``, ``.yaml``/``.yml`` by PyYAML."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidMetricsFile(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        if path.suffix.lower() == ".toml":
            data = tomllib.loads(text)
        elif path.suffix.lower() in (".yaml", ".yml"):
            import yaml

            data = yaml.safe_load(text) or {}
        else:
            raise InvalidMetricsFile(f"{path}: a metrics file is .yaml, .yml or .toml, not {path.suffix or 'no extension'!r}")
    except (tomllib.TOMLDecodeError, ValueError) as exc:
        raise InvalidMetricsFile(f"{path}: not valid {path.suffix.lstrip('.').upper()}: {exc}") from None
    except Exception as exc:  # yaml.YAMLError, whose module may be absent on import
        raise InvalidMetricsFile(f"{path}: not valid YAML: {exc}") from None
    if not isinstance(data, Mapping):
        raise InvalidMetricsFile(f"{path}: expected a mapping with some of {', '.join(SECTIONS)}")
    unknown = [k for k in data if k not in SECTIONS]
    if unknown:
        raise InvalidMetricsFile(f"{path}: unknown section(s) {', '.join(map(repr, unknown))}; known: {', '.join(SECTIONS)}")
    return dict(data)


def load_metrics_file(path: str | Path) -> list[Metric]:
    """The metrics the file declares, in section order; names must be unique."""
    path = Path(path)
    data = read_metrics_file(path)
    chosen: list[Metric] = []
    for section in SECTIONS:
        entries = data.get(section) or ([] if section in ("metrics", "python") else {})
        if section in ("metrics", "python"):
            if not isinstance(entries, list):
                raise InvalidMetricsFile(f"{path}: {section!r} must be a list")
            items: list[tuple[str, Any]] = [(f"{section}[{i}]", e) for i, e in enumerate(entries)]
        else:
            if not isinstance(entries, Mapping):
                raise InvalidMetricsFile(f"{path}: {section!r} must map names to their settings")
            items = [(f"{section}.{name}", (name, e)) for name, e in entries.items()]
        for where, entry in items:
            try:
                chosen.append(_BUILDERS[section](entry, path))
            except InvalidMetricsFile:
                raise
            except (ValueError, TypeError, KeyError, ImportError, AttributeError, UnknownMetric) as exc:
                raise InvalidMetricsFile(f"{path}: {where}: {exc}") from None
    names = [m.name for m in chosen]
    if twice := sorted({n for n in names if names.count(n) > 1}):
        raise InvalidMetricsFile(f"{path}: metric(s) named twice: {', '.join(twice)}")
    return chosen


def _builtin(entry: Any, path: Path) -> Metric:
    if isinstance(entry, str):
        return get_metric(entry)
    if not isinstance(entry, Mapping) or "name" not in entry:
        raise InvalidOption("write a metric name, or a mapping with 'name' and its options")
    options = {k: v for k, v in entry.items() if k != "name"}
    cls = type(get_metric(str(entry["name"])))
    return cls(**options)


def _critique(entry: tuple[str, Any], path: Path) -> Metric:
    name, value = entry
    if isinstance(value, str):
        return AspectCritique(name, value)
    return AspectCritique(name, **_options(value, ("criterion", "strictness")))


def _rubric(entry: tuple[str, Any], path: Path) -> Metric:
    name, value = entry
    if isinstance(value, str):
        return Rubric(name, value)
    return Rubric(name, **_options(value, ("criterion", "levels")))


def _g_eval(entry: tuple[str, Any], path: Path) -> Metric:
    name, value = entry
    if isinstance(value, str):
        return GEval(name, value)
    return GEval(name, **_options(value, ("criterion", "scale", "steps")))


def _python(entry: Any, path: Path) -> Metric:
    """``module:attribute`` naming a metric (a ``@ragmeter.metric`` function, a ``Metric``
    instance or class); the metrics file's folder is importable, like a script's."""
    module_name, sep, attribute = str(entry).partition(":")
    if not sep or not module_name or not attribute:
        raise InvalidOption(f"write 'module:attribute', not {entry!r}")
    folder = str(path.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    found = getattr(importlib.import_module(module_name), attribute)
    if isinstance(found, type) and issubclass(found, Metric):
        found = found()
    if not isinstance(found, Metric):
        raise InvalidOptionType(f"{entry!r} is a {type(found).__name__}, not a metric (decorate it with @ragmeter.metric)")
    return found


def _options(value: Any, allowed: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidOption(f"expected a criterion or a mapping of {', '.join(allowed)}")
    unknown = [k for k in value if k not in allowed]
    if unknown:
        raise InvalidOption(f"unknown option(s) {', '.join(map(repr, unknown))}; known: {', '.join(allowed)}")
    if "criterion" not in value:
        raise InvalidOption("a criterion is required")
    return dict(value)


_BUILDERS: dict[str, Callable[[Any, Path], Metric]] = {
    "metrics": _builtin, "critiques": _critique, "rubrics": _rubric, "g_eval": _g_eval, "python": _python,
}


def describe(metrics: list[Metric]) -> list[tuple[str, str, str]]:
    """(name, kind, settings) per metric: what ``ragmeter metrics --file`` prints."""
    rows = []
    for metric in metrics:
        kind = type(metric).__name__.split("_")[0]
        settings = ", ".join(f"{k}={v!r}" for k, v in metric.config().items())
        rows.append((metric.name, kind, settings))
    return rows
