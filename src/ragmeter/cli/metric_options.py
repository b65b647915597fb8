"""The options that add metrics people write to ``ragmeter evaluate`` (and ``align``):
``--rubric``, ``--g-eval`` and ``--metrics-file``; and ``ragmeter metrics --file``'s check.

Kept apart from the commands so that each command adds these with a few lines.

    --rubric "tone=Does the answer follow our tone guide?; 1: rude; 3: neutral; 5: warm"
    --rubric "tone=@rubrics/tone.txt"        (the same text in a file; lines or ';' separate)
    --g-eval "helpful=Does the answer help the user?"
    --metrics-file metrics.yaml              (or .toml; see ragmeter.metrics.metrics_file)
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from ragmeter.names import name_key

if TYPE_CHECKING:  # the metrics load when a command runs, not when the CLI starts
    from ragmeter.metrics.base import Metric

RUBRIC_HELP = ("A graded rubric: NAME=CRITERION; LEVEL: DESCRIPTION; ... (default levels 1-5), or NAME=@FILE "
               "holding that text; repeatable.")
G_EVAL_HELP = "A G-Eval criterion: NAME=CRITERION (steps written once by the judge, level weighted by log-probabilities); repeatable."
METRICS_FILE_HELP = "YAML or TOML file of metrics: built-ins with options, critiques, rubrics, G-Eval criteria, Python metrics."


def rubric_option() -> Any:
    return typer.Option([], "--rubric", help=RUBRIC_HELP)


def g_eval_option() -> Any:
    return typer.Option([], "--g-eval", help=G_EVAL_HELP)


def metrics_file_option() -> Any:
    return typer.Option(None, "--metrics-file", help=METRICS_FILE_HELP, exists=True, dir_okay=False)


def _name_and_text(option: str, spec: str) -> tuple[str, str]:
    name, sep, text = spec.partition("=")
    if not sep or not name.strip() or not text.strip():
        raise typer.BadParameter(f"{option} takes NAME=CRITERION, not {spec!r}")
    text = text.strip()
    if text.startswith("@"):
        path = Path(text[1:])
        try:
            text = path.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise typer.BadParameter(f"{option} {name.strip()}: cannot read {path} ({exc.strerror or exc})") from None
    return name.strip(), text


def parse_rubric(spec: str) -> Metric:
    """``NAME=CRITERION; 1: ...; 5: ...``: the parts after the criterion are levels."""
    from ragmeter.metrics import Rubric

    name, text = _name_and_text("--rubric", spec)
    parts = [p.strip() for p in re.split(r"[;\n]", text) if p.strip()]
    levels: dict[str, str] = {}
    for part in parts[1:]:
        level, sep, description = part.partition(":")
        if not sep or not re.fullmatch(r"-?\d+", level.strip()):
            raise typer.BadParameter(f"--rubric {name}: each level is 'LEVEL: DESCRIPTION', not {part!r}")
        levels[level.strip()] = description.strip()
    try:
        return Rubric(name, parts[0], levels or None)
    except ValueError as exc:
        raise typer.BadParameter(f"--rubric {name}: {exc}") from None


def parse_g_eval(spec: str) -> Metric:
    from ragmeter.metrics import GEval

    name, text = _name_and_text("--g-eval", spec)
    return GEval(name, text)


def written_metrics(rubrics: list[str], g_evals: list[str], metrics_file: Optional[Path]) -> list[Metric]:
    """The metrics the three options add, file first."""
    from ragmeter.metrics.metrics_file import load_metrics_file

    chosen = load_metrics_file(metrics_file) if metrics_file is not None else []
    return chosen + [parse_rubric(s) for s in rubrics] + [parse_g_eval(s) for s in g_evals]


def with_written(listed: list[Any], default: str, given: str, rubrics: list[str], g_evals: list[str],
                 metrics_file: Optional[Path]) -> list[Any]:
    """``--metrics`` plus the written metrics; with a metrics file and ``--metrics`` left at
    its default, the file is the metric set (the default pair is not added to it). A listed
    name that a written metric holds (``-m tone --rubric tone=...``) means that metric."""
    written = written_metrics(rubrics, g_evals, metrics_file)
    if metrics_file is not None and given == default:
        listed = [m for m in listed if not isinstance(m, str)]  # keep --critique's, drop the default names
    names = {m.name for m in written}
    return [m for m in listed if not (isinstance(m, str) and name_key(m) in names)] + written


def with_metric_objects(names: Optional[list[str]], rubrics: list[str], g_evals: list[str],
                        metrics_file: Optional[Path]) -> Optional[list[Any]]:
    """``ragmeter align``: each listed name that a written metric holds becomes that metric
    (the rest stay names); with none listed, the written metrics themselves."""
    written = {m.name: m for m in written_metrics(rubrics, g_evals, metrics_file)}
    if not written:
        return names
    return [written.get(n, n) for n in names] if names else list(written.values())


def print_metrics_file(path: Path) -> None:
    """``ragmeter metrics --file``: the file's metrics as a table (exit 0), or the one error
    that names the file and the entry (exit 2)."""
    from rich.table import Table

    from ragmeter.cli.console import out
    from ragmeter.cli.exits import plain_errors
    from ragmeter.metrics.metrics_file import describe, load_metrics_file

    with plain_errors():
        rows = describe(load_metrics_file(path))
    table = Table("metric", "kind", "settings", title=f"{path}: {len(rows)} metric(s), all valid")
    for row in rows:
        table.add_row(*row)
    out.print(table)


def load_written(g_evals: list[str], metrics_file: Optional[Path]) -> list[Metric]:
    """``ragmeter prompts``: the written metrics (one line and exit 2 on a bad one)."""
    from ragmeter.cli.exits import plain_errors

    with plain_errors():
        return written_metrics([], g_evals, metrics_file)


def all_prompts() -> Any:
    """Every prompt a run can send: the defaults and those of registered ``JudgedMetric``s."""
    from ragmeter.judgements.tasks import all_prompts as every_prompt

    return every_prompt()


def print_g_eval_steps(metrics: list[Metric], judge: Optional[str]) -> None:
    """The evaluation steps each G-Eval metric's judge writes (the same cached call a run
    makes), so a team can read them before a run; without ``--judge``, a hint."""
    from ragmeter.cli.console import err, out
    from ragmeter.cli.exits import plain_errors
    from ragmeter.engine.core import close_models
    from ragmeter.runtime.loop import run_sync
    from ragmeter.judgements import DEFAULT_PROMPTS
    from ragmeter.judges.spec import get_judge

    steps = [m for m in metrics if "steps" in m.config()]
    if not steps:
        return
    if judge is None:
        err.print("G-Eval steps are written by the judge: add --judge to see them", highlight=False)
        return

    async def write() -> None:
        the_judge = get_judge(judge)
        try:
            for metric in steps:
                await metric.prepare(the_judge, DEFAULT_PROMPTS)
        finally:
            await close_models(the_judge)

    with plain_errors():
        run_sync(write)
    for metric in steps:
        out.rule(f"g_eval {metric.name}: evaluation steps ({judge})")
        for i, step in enumerate(metric.config()["steps"], start=1):
            out.print(f"{i}. {step}", markup=False, highlight=False)
