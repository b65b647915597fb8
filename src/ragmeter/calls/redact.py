"""Credentials masked wherever a spec, URL or message is shown or stored.

Endpoints are sometimes given with their credentials inside the URL: user-info
(``http://user:SECRET@host/v1``) or a query parameter (``?api-key=SECRET``, ``?sig=...`` on
a signed URL). The URL itself must reach the HTTP client unchanged, but every copy of it
that a person or a file can see (the run info and its run id, error messages, the journal,
the report header, log lines) goes through ``mask_secrets`` first.

What counts as secret: the whole user-info, and the value of every query parameter whose
name contains one of ``SECRET_NAMES`` (case-insensitive). Other parameters (``api-version``)
stay readable.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import urlsplit, urlunsplit

MASK = "***"
SECRET_NAMES = ("key", "token", "secret", "password", "passwd", "pwd", "sig", "auth", "credential", "session")

_URL = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*://[^\s'\"<>`]+")
_PARAM = re.compile(r"([?&;])([^=&;#\s]+)=([^&;#\s'\"<>`]*)")


def secret_param(name: str) -> bool:
    """Whether a query parameter called ``name`` holds a credential."""
    lowered = name.lower()
    return any(word in lowered for word in SECRET_NAMES)


def mask_url(url: str) -> str:
    """``url`` with its user-info and secret query values replaced by ``***``.

    >>> mask_url("http://bob:pw@host:8000/v1?api-key=abc&api-version=1")
    'http://***@host:8000/v1?api-key=***&api-version=1'
    """
    try:
        parts = urlsplit(url)
    except ValueError:  # not parseable as a URL: mask what looks like parameters
        return _mask_params(url)
    netloc = parts.netloc
    if "@" in netloc:
        netloc = f"{MASK}@{netloc.rsplit('@', 1)[1]}"
    query = _mask_params("?" + parts.query)[1:] if parts.query else ""
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def _mask_params(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        sep, name, value = match.groups()
        return f"{sep}{name}={MASK}" if secret_param(name) and value else match.group(0)

    return _PARAM.sub(one, text)


def mask_secrets(text: str) -> str:
    """Every URL inside ``text`` (a spec, an error message, a log line) masked by ``mask_url``."""
    if "://" not in text:
        return text
    return _URL.sub(lambda m: mask_url(m.group(0)), text)


class MaskingFilter(logging.Filter):
    """A logging filter that masks URLs in a record's message (the HTTP clients log every
    request's URL at INFO: ``HTTP Request: POST http://user:pw@host/v1?key=...``)."""

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
