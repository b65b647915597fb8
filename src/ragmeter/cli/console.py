"""What every ``ragmeter`` command shares: the typer app they register on, the two consoles
(tables to stdout; progress, logs and errors to stderr, so ``ragmeter evaluate ... >
table.txt`` captures only the results), logging set-up and ``--price`` parsing.
"""

from __future__ import annotations

import logging

import typer
from rich.console import Console
from rich.logging import RichHandler

app = typer.Typer(
    name="ragmeter",
    help="Score RAG pipelines metric by metric, with an LLM judge or with no key at all.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True)


def setup_logging(verbose: bool) -> None:
    from ragmeter.calls.redact import MaskingFilter

    handler = RichHandler(console=err, show_path=False, show_time=False)
    handler.addFilter(MaskingFilter())  # no URL credentials in any log line, whoever logs it
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(message)s",
        handlers=[handler],
        force=True,
    )
    for noisy in ("httpx", "httpx2", "httpcore", "openai", "sentence_transformers", "urllib3"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def parse_prices(values: list[str]) -> dict[str, tuple[float, float]]:
    prices: dict[str, tuple[float, float]] = {}
    for value in values:
        try:
            model, _, pair = value.partition("=")
            prompt, _, completion = pair.partition(",")
            prices[model] = (float(prompt), float(completion or 0))
        except ValueError:
            raise typer.BadParameter(f"--price takes MODEL=PROMPT_USD_PER_M,COMPLETION_USD_PER_M, not {value!r}")
    return prices
