"""Printing the warnings a command caught while it ran: each once, as ``warning: ...``.

Shared by the commands that build test sets (``generate``, ``generate --conversations``,
``graph build``) so a warning reads the same whichever printed it, and so a run that fails
still shows the warnings it caught before the error (they often say why it failed).
"""

from __future__ import annotations

import warnings

from ragmeter.cli.exits import print_error


def print_warnings(caught: list[warnings.WarningMessage], skip_files: bool = False) -> None:
    """Each warning once; with ``skip_files`` the per-file skip, language and shortfall
    warnings are left to the report printed after the run (a file is named once, not twice)."""
    from testset_gen.generator import LanguageWarning
    from testset_gen.documents.ingest import IngestWarning
    from testset_gen.offline.generator import ShortfallWarning

    seen: set[str] = set()
    for w in caught:
        if issubclass(w.category, IngestWarning) and not skip_files:
            continue  # a skipped file is already logged once, as it is skipped
        if skip_files and issubclass(w.category, (IngestWarning, LanguageWarning, ShortfallWarning)):
            continue
        text = str(w.message)
        if text not in seen:
            seen.add(text)
            print_error(text, label="warning", style="yellow")
