"""The offline generator (``judge="local"``): questions written by rules, no LLM.

``generator`` runs it; ``recipes`` hold the question recipes, one per file;
``record_filter`` is the check every candidate passes.
"""

from __future__ import annotations

from typing import Any

_EXPORTS = {
    "generate_offline": "testset_gen.offline.generator",
    "OfflineResult": "testset_gen.offline.generator",
    "ShortfallWarning": "testset_gen.offline.generator",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    # lazy, as the top-level package: importing the package loads no parser or model
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_EXPORTS[name]), name)
