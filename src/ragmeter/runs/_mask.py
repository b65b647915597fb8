"""Credentials never reach the run store: URLs lose their ``user:password@`` part and
secret-looking query parameters their values, and bare API keys are blanked.

A judge spec such as ``openai:gpt-4o@https://bob:hunter2@llm.internal/v1?api-key=XYZ`` is
kept as ``openai:gpt-4o@https://***@llm.internal/v1?api-key=***``: enough to tell runs apart,
nothing to log in with.
"""

from __future__ import annotations

import re
from typing import Any

MASK = "***"

_USERINFO = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)[^/@\s]+@")
_SECRET_PARAM = re.compile(
    r"(?P<name>[?&;](?:[A-Za-z0-9_.-]*(?:key|token|secret|password|passwd|pwd|signature|sig|auth|credential)"
    r"[A-Za-z0-9_.-]*))=(?P<value>[^&;#\s]*)",
    re.IGNORECASE,
)
_BARE_KEYS = re.compile(r"\b(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}|\bhf_[A-Za-z0-9]{20,}|\bBearer\s+[A-Za-z0-9._~+/=-]{12,}")


def mask_text(text: str) -> str:
    """``text`` with URL credentials, secret query values and bare API keys replaced by ``***``."""
    text = _USERINFO.sub(lambda m: f"{m['scheme']}{MASK}@", text)
    text = _SECRET_PARAM.sub(lambda m: f"{m['name']}={MASK}" if m["value"] else m[0], text)
    return _BARE_KEYS.sub(MASK, text)


def mask_secrets(value: Any) -> Any:
    """``value`` (JSON-like: dicts, lists, strings) with every string passed through ``mask_text``."""
    if isinstance(value, str):
        return mask_text(value)
    if isinstance(value, dict):
        return {k: mask_secrets(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [mask_secrets(v) for v in value]
    return value
