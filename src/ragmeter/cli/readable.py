"""A table readable wherever it is printed: drawn on a wide enough terminal, turned on its
side on a narrow one, plain rows in a pipe.

Rich fits a table to the console's width, 80 columns when output goes to a pipe or a file,
and cuts what does not fit: ``ragmeter align``'s ten columns of intervals became "fait…",
"[0.7…". So:

- sent anywhere but a terminal, a table is a ``# title`` line, a tab-separated header and one
  tab-separated line per row, then a blank line; nothing cut or wrapped, ready for ``grep``,
  ``cut`` or a log;
- on a terminal too narrow for it, it is drawn turned: one line per column, one column per
  row (a handful of metrics or layouts fit where ten statistics did not).
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table


def _cell(value: object) -> str:
    return " ".join(str(value).split())  # a tab or newline inside a cell would break the row


def plain_rows(table: Table) -> list[str]:
    """The lines ``table`` prints as when piped (the blank line after it included)."""
    lines = [f"# {_cell(table.title)}"] if table.title else []
    lines.append("\t".join(_cell(column.header) for column in table.columns))
    lines += ["\t".join(_cell(cell) for cell in row) for row in zip(*(list(c.cells) for c in table.columns))]
    return lines + [""]


def turned(table: Table) -> Table:
    """``table`` on its side: its first column's cells become the headers, each other column
    a row."""
    first, *rest = table.columns
    side = Table(str(first.header), *(_cell(cell) for cell in first.cells), title=table.title)
    for column in rest:
        side.add_row(_cell(column.header), *(_cell(cell) for cell in column.cells))
    return side


def print_table(console: Console, table: Table) -> None:
    """``table`` on ``console``, readable there (see the module's docstring)."""
    if not console.is_terminal:
        for line in plain_rows(table):
            print_line(console, line)
    elif _natural_width(console, table) > console.width and len(table.columns) > 1:
        console.print(turned(table))
    else:
        console.print(table)


def _natural_width(console: Console, table: Table) -> int:
    """The width ``table`` takes with nothing cut (measured as if the console had no edge:
    a measure within the console's width never exceeds it)."""
    return console.measure(table, options=console.options.update_width(1_000_000)).maximum


def print_line(console: Console, line: str) -> None:
    """``line`` as it is, on the console's stream: rich would wrap it at the console's width
    and turn its tabs into spaces."""
    console.file.write(line + "\n")
    console.file.flush()
