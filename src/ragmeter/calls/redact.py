"""Credentials masked wherever a spec, URL or message is shown or stored.

Endpoints are sometimes given with their credentials inside the URL: user-info
(``http://user:SECRET@host/v1``, ``postgresql+psycopg://alice:SECRET@db/runs``) or a query
parameter (``?api-key=SECRET``, ``?pass=...``, ``?sig=...`` on a signed URL). The URL itself
must reach the HTTP client or the database driver unchanged, but every copy of it that a
person or a file can see (the run info and its run id, the run store, error messages, the
journal, the report header, log lines, ``ragmeter runs`` and ``ragmeter ui``) goes through
``mask_secrets`` first. It is the only masking function: one list of what counts as secret,
so a name added here is masked on the screen and on the disk alike.

What counts as secret:

* the whole user-info of any URL (user name too: ``https://TOKEN@host`` is a common form);
* the value of every parameter (``?``, ``&``, ``;``, ``#`` or a blank before it) whose name,
  case-insensitively and percent-decoded, contains one of ``SECRET_WORDS``: ``x-api-key``,
  ``X-Amz-Signature``, ``client_secret`` and ``PW`` all do; ``api-version`` does not;
* bare API keys (``sk-...``, ``hf_...``, ``Bearer ...``).

Masking more than needed costs a less readable URL; masking less leaks a credential. Where
the two conflict (a word such as ``key`` inside ``monkey``) this module masks.
"""

from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import unquote

MASK = "***"
SECRET_WORDS = (
    "pass",  # pass, password, passwd, passphrase
    "pw",  # pw, pwd
    "secret",  # secret, client_secret
    "token",  # token, access_token, X-Amz-Security-Token
    "key",  # key, api_key, apikey, x-api-key, subscription-key
    "auth",  # auth, authorization, oauth
    "sig",  # sig, signature, X-Goog-Signature
    "credential",  # credential(s), X-Amz-Credential
    "session",
    "cookie",
    "jwt",
)

# The characters that end a URL inside a message: blanks, quotes and brackets of markup.
_STOP = r"\s'\"<>`"
# scheme://, then the user-info. Either what urlsplit takes (up to the authority's last @), or
# a password holding an unencoded / ? or # (SQLAlchemy reads a password up to the @): a user,
# a colon not followed by a port, and everything to the next @.
_USERINFO = re.compile(
    rf"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)"
    rf"(?P<userinfo>(?:[^{_STOP}/?#@]*@)+"
    rf"|[^{_STOP}/?#@:]*:(?!\d*(?:[/?#{_STOP}]|$))[^{_STOP}@]*@)"
)
# name=value after ? & ; # (a URL), or a word=value at the start or after a blank (a libpq
# connection string); not a path's ``data/key=1.jsonl``
_PARAM = re.compile(
    rf"(?P<lead>[?&;#]|^|(?<=\s))(?P<name>(?<=[?&;#])[^={_STOP}?&;#]+|[\w.-]+)=(?P<value>[^{_STOP}&;#]*)"
)
_BARE_KEYS = re.compile(r"\b(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}|\bhf_[A-Za-z0-9]{20,}|\bBearer\s+[A-Za-z0-9._~+/=-]{12,}")


def secret_param(name: str) -> bool:
    """Whether a parameter called ``name`` holds a credential."""
    lowered = unquote(name).lower()
    return any(word in lowered for word in SECRET_WORDS)


def mask_secrets(text: str) -> str:
    """``text`` (a URL, a spec, an error message, a log line) with every credential in it
    replaced by ``***``.

    >>> mask_secrets("openai:m@http://bob:pw@host:8000/v1?pass=abc&api-version=1")
    'openai:m@http://***@host:8000/v1?pass=***&api-version=1'
    """
    text = _USERINFO.sub(lambda m: f"{m['scheme']}{MASK}@", text)
    text = _PARAM.sub(_mask_param, text)
    return _BARE_KEYS.sub(MASK, text)


def _mask_param(match: re.Match[str]) -> str:
    lead, name, value = match["lead"], match["name"], match["value"]
    if value and value != MASK and secret_param(name):
        return f"{lead}{name}={MASK}"
    # a readable value may hold a URL of its own (``?redirect=http://h/cb?token=...``), whose
    # parameters this match has consumed: mask them too
    return f"{lead}{name}={_PARAM.sub(_mask_param, value)}" if "=" in value else match[0]


def mask_data(value: Any) -> Any:
    """``value`` (JSON-like: dicts, lists, strings) with every string passed through
    ``mask_secrets``; keys stay as they are, tuples become lists (as JSON has them)."""
    if isinstance(value, str):
        return mask_secrets(value)
    if isinstance(value, dict):
        return {k: mask_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [mask_data(v) for v in value]
    return value


class MaskingFilter(logging.Filter):
    """A logging filter that masks credentials in a record's message (the HTTP clients log
    every request's URL at INFO: ``HTTP Request: POST http://user:pw@host/v1?key=...``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 (a malformed record is logging's problem, not ours)
            return True
        masked = mask_secrets(message)
        if masked != message:
            record.msg, record.args = masked, None
        return True


HTTP_LOGGERS = ("httpx", "httpx2", "httpcore", "openai", "openai._base_client")
_FILTER = MaskingFilter()


def mask_http_logs() -> None:
    """Put the masking filter on the loggers of the HTTP stack (idempotent). A logger's own
    filters see the records logged on it, whichever handler prints them in the end."""
    for name in HTTP_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
