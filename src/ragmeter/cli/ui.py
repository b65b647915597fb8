"""``ragmeter ui``: browse the recorded runs in a local web app."""

from __future__ import annotations

from typing import Optional

import typer

from ragmeter.cli.console import app, err, setup_logging
from ragmeter.errors import UnsafeAccess


@app.command("ui")
def ui(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind. Anything but loopback needs --token."),
    port: int = typer.Option(8765, "--port", "-p", min=1, max=65535, help="Port to listen on."),
    token: Optional[str] = typer.Option(None, "--token", envvar="RAGMETER_UI_TOKEN", show_envvar=True,
                                        help="Access token required on every page and API call (open the page with ?token=...)."),
    store: Optional[str] = typer.Option(None, "--store", help="Run store: a path or SQLAlchemy URL (default $RAGMETER_RUNS, else .ragmeter/runs.db)."),
) -> None:
    """Serve the runs table, trend charts and compare view (JSON API under /api)."""
    from ragmeter.cli.runs import open_store
    from ragmeter.ui import required_token, serve

    setup_logging(False)
    try:
        required_token(host, token)
    except UnsafeAccess as exc:
        err.print(f"[red]error:[/red] {exc}", soft_wrap=True, highlight=False)  # one line, however narrow
        raise typer.Exit(2)
    the_store = open_store(store)
    url = f"http://{host}:{port}/" + ("?token=…" if token else "")
    err.print(f"ragmeter ui on {url} (store {the_store.display_url}); Ctrl+C stops it")
    serve(host, port, store=the_store, token=token)
