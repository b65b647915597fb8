"""One key (and the words typed after it) from the person at the terminal.

Shared by ``ragmeter annotate`` and ``ragmeter review``: both ask a key per item and keep
what follows it as a note ("n the year is wrong"). Read through ``typer.prompt``, so it
works on a terminal and with piped stdin alike (the tests drive it with ``CliRunner``'s
input); the end of piped input, like Ctrl-C, raises ``typer.Abort``: review treats it as
quitting, annotate lets it end the command (its labels are on disk already).
"""

from __future__ import annotations

import typer


def read_key(prompt: str, default: str = "s") -> tuple[str, str]:
    """``(key, note)``: the first word of the reply, lower-cased, and the rest stripped.
    Enter alone gives ``default`` (skip, in both commands: nothing is decided by accident)."""
    reply = typer.prompt(prompt, default=default, show_default=False)
    key, _, note = reply.strip().partition(" ")
    return key.lower(), note.strip()


def read_line(prompt: str, default: str = "") -> str:
    """A line of text; Enter alone keeps ``default`` (shown in the prompt only when short)."""
    shown = len(default) <= 60
    reply = typer.prompt(prompt, default=default, show_default=shown and bool(default))
    return reply.strip() or default
