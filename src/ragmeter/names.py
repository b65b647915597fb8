"""Matching a name someone typed against the names that exist: a metric in ``evaluate -m``,
a metric of ``ragmeter runs compare``.

Why one place: both accept the same spellings (``Token-F1`` is ``token_f1``) and, for a name
that matches none, suggest the closest ("did you mean"), since the usual cause is a typo;
two copies had already drifted (only the run comparison suggested anything).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def name_key(name: str) -> str:
    """``name`` as compared: case, surrounding blanks and ``-`` for ``_`` do not count."""
    return name.strip().lower().replace("-", "_")


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``"did you mean 'X'? "`` for the known name closest to ``name``, or ``""`` if none is
    close (difflib's ratio of at least 0.6 between the keys)."""
    by_key = {name_key(k): k for k in known}
    close = difflib.get_close_matches(name_key(name), list(by_key), n=1, cutoff=0.6)
    return f"did you mean {by_key[close[0]]!r}? " if close else ""
