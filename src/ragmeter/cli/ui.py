"""``ragmeter ui``: browse the recorded runs in a local web app."""

from __future__ import annotations

from typing import Optional

import typer

from ragmeter.cli.console import app, err, setup_logging
from ragmeter.cli.exits import plain_errors
from ragmeter.errors import UnsafeAccess
from ragmeter.extras import check

ENV_TOKEN = "RAGMETER_UI_TOKEN"  # ragmeter.ui.ENV_TOKEN, not imported: `ragmeter --help` must not need fastapi
MIN_TOKEN_LENGTH = 16  # ragmeter.ui.MIN_TOKEN_LENGTH


@app.command("ui")
def ui(
    ctx: typer.Context,
    host: str = typer.Option("127.0.0.1", "--host", help=f"Address to bind. Anything but loopback needs an access token: set ${ENV_TOKEN}."),
    port: int = typer.Option(8765, "--port", "-p", min=1, max=65535, help="Port to listen on."),
    token: Optional[str] = typer.Option(None, "--token", envvar=ENV_TOKEN, show_envvar=True,
                                        help=f"Access token (at least {MIN_TOKEN_LENGTH} characters) required on every page and API call (open the page with ?token=...). Prefer ${ENV_TOKEN}: a --token value is visible to every user of this machine (ps)."),
    store: Optional[str] = typer.Option(None, "--store", help="Run store: a path or SQLAlchemy URL (default $RAGMETER_RUNS, else .ragmeter/runs.db)."),
) -> None:
    """Serve the runs table, trend charts and compare view (JSON API under /api)."""
    with plain_errors():  # on a core install: one line naming [ui], exit 2, not a traceback
        check("ui", "ragmeter ui")
    from ragmeter.cli.runs import open_store
    from ragmeter.ui import required_token, serve

    setup_logging(False)
    try:
        required_token(host, token)
    except UnsafeAccess as exc:
        err.print(f"[red]error:[/red] {exc}", soft_wrap=True, highlight=False)  # one line, however narrow
        raise typer.Exit(2)
    source = ctx.get_parameter_source("token")  # typer's own click: compare by name
    if token and source is not None and source.name == "COMMANDLINE":
        err.print(f"[yellow]note:[/yellow] --token is visible to every user of this machine (ps); set ${ENV_TOKEN} "
                  "instead", soft_wrap=True, highlight=False)
    with open_store(store) as the_store:  # a damaged store: one line, exit 2, before serving
        url = f"http://{host}:{port}/" + ("?token=…" if token else "")
        err.print(f"ragmeter ui on {url} (store {the_store.display_url}); Ctrl+C stops it", soft_wrap=True)
        serve(host, port, store=the_store, token=token)
