"""``ragmeter ui``: a local web app over the run store (runs table, trends, compare view).

    from ragmeter.ui import create_app, serve
    serve(host="127.0.0.1", port=8765)              # the default store
    app = create_app("runs.db", token=os.environ["RAGMETER_UI_TOKEN"])  # an ASGI app (tests, another server)

Bound to anything but loopback, it needs an access token of at least 16 characters
(``$RAGMETER_UI_TOKEN``; ``--token`` too, but others see a command line in ``ps``), checked on
every page and API call. It answers only requests addressed to a loopback name or the name it
is bound to (``ragmeter.ui._hosts``).
"""

from __future__ import annotations

from ragmeter.extras import require

require("ui", "fastapi", "ragmeter ui")  # before the app's own imports: one line naming the extra

from ragmeter.runs import RunStore  # noqa: E402
from ragmeter.ui._app import create_app  # noqa: E402
from ragmeter.ui._auth import ENV_TOKEN, MIN_TOKEN_LENGTH, is_loopback, required_token  # noqa: E402


def serve(host: str = "127.0.0.1", port: int = 8765, *, store: RunStore | str | None = None,
          token: str | None = None) -> None:
    """Serve the UI with uvicorn until interrupted; ``UnsafeAccess`` (a ``ValueError``) when
    ``host`` is not loopback and no token is given, or the token is short."""
    import uvicorn

    uvicorn.run(create_app(store, token=token, host=host), host=host, port=port, log_level="warning")


__all__ = ["ENV_TOKEN", "MIN_TOKEN_LENGTH", "create_app", "is_loopback", "required_token", "serve"]
