"""Exit codes and plain one-line errors for every command.

    0  the command did its work; with partly bad input, on the good part, each bad row, line
       or span named (evaluate, run, ingest, monitor)
    1  the work ran but failed: nothing could be scored or read (an empty file, every row or
       trace malformed, no traffic in monitor's window), a gate failed, every question
       failed, monitor saw a drop
    2  the command could not start: a configuration error (a missing key, a missing extra,
       an unknown metric, a missing file, a bad option)
  130  interrupted (Ctrl-C); journals keep what finished

A configuration error is one or two plain lines, never a traceback: a traceback of 60 lines
for an unset OPENAI_API_KEY hides the one line that says what to do.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from ragmeter.errors import EmbedderRejected, RagmeterError
from ragmeter.extras import check

EXIT_FAILED = 1
EXIT_CONFIG = 2
EXIT_INTERRUPTED = 130

CONFIG_ERRORS = (RagmeterError, ValueError, TypeError, FileNotFoundError, ImportError)
"""What a command raises before any work starts: wrong input or setup, not a bug in a run."""

_err = Console(stderr=True)


def print_error(message: str, label: str = "error", style: str = "red") -> None:
    """``label: message`` on stderr. The message is printed as plain text: rich markup would
    eat ``[local]`` in "pip install 'ragmeter[local]'"."""
    from ragmeter.calls.redact import mask_secrets

    # soft_wrap: the line is not broken at the terminal's width, so "pip install
    # 'ragmeter[local]'" stays whole for copy and paste (and for grep in a CI log).
    # Masked: a message may quote a judge spec or store URL as it was typed, password and all.
    _err.print(Text(f"{label}:", style=style), Text(mask_secrets(message)), highlight=False, soft_wrap=True)


def fail(message: str, code: int = EXIT_CONFIG) -> NoReturn:
    """Print ``error: message`` and exit with ``code``."""
    print_error(message)
    raise typer.Exit(code)


@contextmanager
def plain_errors(interrupted: str = "interrupted") -> Iterator[None]:
    """Turn configuration errors into one line and exit 2, Ctrl-C into ``interrupted`` and
    exit 130. Anything else is a bug and keeps its traceback."""
    try:
        yield
    except typer.Exit:
        raise
    except KeyboardInterrupt:
        print_error(interrupted, label="interrupted", style="yellow")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    except RagmeterError as exc:
        # one that stopped a run already under way (an unreachable judge) is a failed run;
        # the others stop a command before it starts
        fail(first_lines(str(exc)) or type(exc).__name__, exc.exit_code)
    except CONFIG_ERRORS as exc:
        fail(first_lines(str(exc)) or type(exc).__name__)


def first_lines(text: str, limit: int = 2) -> str:
    """At most ``limit`` lines of an error message (pydantic's run to dozens)."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return "\n".join(lines[:limit]) + (" ..." if len(lines) > limit else "")


def check_setup(judge: str | None, embedder: str | None, *, uses_judge: bool, uses_embedder: bool) -> None:
    """Check before a run that the extras its judge and embedder need are installed, and that
    an OpenAI embedder has its key (an LLM judge checks its own when it is built).

    Without this a core install would start the run and fail every row with the same error;
    with it the user reads one line naming what to install or set, and the run never starts."""
    judge_text = (judge or "").strip()
    if uses_judge and (judge_text == "local" or judge_text.startswith("local+")):
        check("local", "the local judge")
    embedder_text = (embedder or "").strip().lower()
    if uses_embedder and (embedder_text in ("local", "minilm") or embedder_text.startswith(("st:", "local:"))):
        check("local", "the local embedder")
    if uses_embedder and embedder_text.startswith("openai:"):
        from ragmeter.calls.openai_client import OpenAIConnection
        from ragmeter.calls.redact import mask_secrets

        base_url = (embedder or "").partition("@")[2].strip() or None
        if (problem := OpenAIConnection(base_url, "OPENAI_API_KEY").missing_key()) is not None:
            raise EmbedderRejected(mask_secrets(f"embedder {embedder}: {problem}"))


DRY_RUN_KEY = "unused-a-dry-run-sends-nothing"
KEY_VARIABLES = ("OPENAI_API_KEY", "AZURE_OPENAI_API_KEY")


@contextmanager
def keys_not_needed() -> Iterator[None]:
    """For ``--dry-run``: let an LLM judge be built without its key, since a dry run replaces
    it with a judge that sends nothing. Unset key variables hold a placeholder for the body
    only; a key the user set is left as it is."""
    import os

    unset = [name for name in KEY_VARIABLES if not os.environ.get(name)]
    for name in unset:
        os.environ[name] = DRY_RUN_KEY
    try:
        yield
    finally:
        for name in unset:
            os.environ.pop(name, None)
