"""Tables for a person, rows for a program: what ``ragmeter runs`` prints.

On a terminal a rich table (boxes, widths fitted to the window). Anywhere else (a pipe, a file,
a CI log) plain tab-separated rows under a header row: a rich table there is drawn 80 columns
wide, with box characters and cells cut short with "…", so ``runs list | grep`` missed the id
it was looking for and ``cut -f`` had nothing to cut on. ``--json`` is for programs that want
every field.
"""

from __future__ import annotations

import json
from typing import Any, Sequence

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text


def _cell(value: object) -> str:
    """A cell on one line: tabs and newlines inside would break the row."""
    return str(value).replace("\t", " ").replace("\r", " ").replace("\n", " ")


def print_rows(console: Console, columns: Sequence[str], rows: Sequence[Sequence[object]], *,
               keep_whole: Sequence[str] = ()) -> None:
    """``rows`` under ``columns``: a rich table on a terminal (``keep_whole`` columns never
    cut: the ids to type next), plain tab-separated lines otherwise."""
    if console.is_terminal:
        table = Table()
        for name in columns:
            if name in keep_whole:
                table.add_column(name, no_wrap=True, min_width=12)
            else:
                table.add_column(name)
        for row in rows:
            table.add_row(*(Text(str(cell)) for cell in row))  # text, not markup: a tag "[x]" stays
        console.print(table)
        return
    lines = ["\t".join(_cell(c) for c in columns), *("\t".join(_cell(c) for c in row) for row in rows)]
    typer.echo("\n".join(lines))


def print_line(console: Console, text: str) -> None:
    """One line of text, never wrapped nor styled off a terminal."""
    if console.is_terminal:
        console.print(text, markup=False, highlight=False, soft_wrap=True)
    else:
        typer.echo(text)


def print_json(data: Any) -> None:
    """``data`` as indented JSON on stdout, nothing else."""
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
