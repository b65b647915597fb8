"""A throw-away PostgreSQL server for the run-store tests: Debian's ``postgresql`` package,
one cluster per test session in a temporary folder, reached only through a Unix socket in
that folder (no TCP port is opened), stopped and removed at the end of the session.

PostgreSQL refuses to run as root, so under root (CI) the cluster is created and run as the
``postgres`` system user the Debian package adds (``nobody`` where there is none), with the
folder handed to that user. Each test gets a database of its own (``database``), dropped
after it.

Where the server cannot start (no ``initdb``/``pg_ctl``, no psycopg, initdb or the start
failing), the tests that need it are skipped with the reason; under CI (``$CI`` set) they
fail instead, since .ci/run installs Debian's ``postgresql`` and a skip would hide it.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import pytest

INSTALL = "apt-get install postgresql"
SUPERUSER = "ragmeter"  # the cluster's own superuser (initdb -U): trusted on the socket, no password
SETTINGS = {
    "listen_addresses": "''",  # no TCP at all: the socket in the cluster's folder only
    "max_connections": "200",
    # a throw-away cluster: nothing needs to survive a crash of the machine
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "shared_buffers": "32MB",
}


class Unavailable(Exception):
    """Why the server could not be had (said in the skip)."""


def unavailable(reason: str) -> None:
    """Skip with ``reason``; fail under CI, where PostgreSQL must run."""
    message = f"PostgreSQL not available: {reason}"
    if os.environ.get("CI"):
        pytest.fail(message + " (CI installs Debian's postgresql in .ci/run: it must run there)", pytrace=False)
    pytest.skip(message)


def binaries() -> Path:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``: PATH first, then Debian's
    ``/usr/lib/postgresql/N/bin`` (newest N), which the package does not put on PATH."""
    on_path = [shutil.which(name) for name in ("initdb", "pg_ctl", "postgres")]
    if all(on_path):
        return Path(os.path.realpath(on_path[0] or "")).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2])
                         if p.split("/")[-2].isdigit() else 0, reverse=True):
        if all((Path(folder) / name).is_file() for name in ("initdb", "pg_ctl", "postgres")):
            return Path(folder)
    missing = ", ".join(name for name, found in zip(("initdb", "pg_ctl", "postgres"), on_path) if not found)
    raise Unavailable(f"{missing} not found on PATH nor in /usr/lib/postgresql/*/bin ({INSTALL})")


def server_user() -> pwd.struct_passwd | None:
    """The user to run the server as: None (oneself) unless root, which PostgreSQL refuses."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise Unavailable("running as root, and there is neither a 'postgres' nor a 'nobody' user to run the server as")


@dataclass
class Server:
    """A running cluster: ``url(db)`` is the SQLAlchemy URL of one of its databases."""

    folder: Path
    data: Path

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{SUPERUSER}@/{database}?host={self.folder}"

    @contextmanager
    def database(self) -> Iterator[str]:
        """A new, empty database for one test, dropped after it (with whatever still holds a
        connection to it: a store a test did not close)."""
        import sqlalchemy as sa

        name = "t_" + uuid.uuid4().hex[:12]
        admin = sa.create_engine(self.url(), isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
        try:
            with admin.connect() as conn:
                conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
            yield self.url(name)
            with admin.connect() as conn:
                conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        finally:
            admin.dispose()


def _run(command: list[str], user: pwd.struct_passwd | None, cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    extra: dict[str, Any] = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []} if user else {}
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    try:
        return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, **extra)
    except subprocess.TimeoutExpired:
        raise Unavailable(f"{Path(command[0]).name} took over {timeout:.0f} s") from None
    except OSError as exc:  # cannot be run, or not as that user (no right to change user here)
        who = f" as {user.pw_name}" if user else ""
        raise Unavailable(f"cannot run {Path(command[0]).name}{who}: {exc}") from None


def _tail(text: str, lines: int = 5) -> str:
    return " | ".join(line.strip() for line in text.strip().splitlines()[-lines:] if line.strip())


@contextmanager
def postgres_server() -> Iterator[Server]:
    """Create, start, yield, then stop and remove a cluster; ``Unavailable`` saying why not."""
    try:
        import psycopg  # noqa: F401  (the driver the URLs name)
    except ImportError:
        raise Unavailable("the psycopg driver is not installed (pip install 'psycopg[binary]')") from None
    bin_dir = binaries()
    user = server_user()
    folder = Path(tempfile.mkdtemp(prefix="ragmeter-pg-"))
    data = folder / "data"
    log = folder / "server.log"
    started = False
    try:
        if user is not None:
            os.chown(folder, user.pw_uid, user.pw_gid)
        init = _run([str(bin_dir / "initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8",
                     "--locale=C", "--no-sync"], user, folder, timeout=120)
        if init.returncode != 0:
            raise Unavailable(f"initdb failed (exit {init.returncode}): {_tail(init.stderr or init.stdout)}")
        with open(data / "postgresql.conf", "a", encoding="utf-8") as conf:
            conf.write(f"\nunix_socket_directories = '{folder}'\n")
            conf.writelines(f"{key} = {value}\n" for key, value in SETTINGS.items())
        start = _run([str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t", "60", "start"],
                     user, folder, timeout=90)
        started = True  # pg_ctl may have left a server behind even when it reports failure
        if start.returncode != 0:
            server_log = log.read_text(errors="replace") if log.exists() else ""
            raise Unavailable(f"pg_ctl start failed (exit {start.returncode}): {_tail(server_log or start.stderr)}")
        yield Server(folder=folder, data=data)
    finally:
        if started:
            _run([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "-t", "60", "stop"], user, folder,
                 timeout=90)
        shutil.rmtree(folder, ignore_errors=True)
