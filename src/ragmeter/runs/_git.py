"""Where the code being evaluated stands: the git commit and branch of the working folder."""

from __future__ import annotations

import subprocess
from pathlib import Path


def _git(args: list[str], cwd: Path) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):  # no git on the machine, or it hung
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


def git_state(cwd: str | Path | None = None) -> tuple[str | None, str | None]:
    """``(commit, branch)`` of the repository holding ``cwd`` (default the current folder);
    ``(None, None)`` outside a repository. A detached HEAD has no branch."""
    folder = Path(cwd) if cwd is not None else Path.cwd()
    commit = _git(["rev-parse", "HEAD"], folder)
    if commit is None:
        return None, None
    branch = _git(["rev-parse", "--abbrev-ref", "HEAD"], folder)
    return commit, None if branch == "HEAD" else branch
