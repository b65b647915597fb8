"""Shared fixtures: the bundled MiniLM is loaded once per session; nothing reaches a hub."""

from __future__ import annotations

import os
import tempfile

import pytest

# Tests never reach a model hub.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
# Every evaluate records its run: into a temporary store, never a .ragmeter/ in the repository
# nor the store $RAGMETER_RUNS may name outside the tests.
os.environ["RAGMETER_RUNS"] = os.path.join(tempfile.mkdtemp(prefix="ragmeter-test-runs-"), "runs.db")


@pytest.fixture(scope="session")
def minilm():
    """The bundled MiniLM, loaded once per test session (about 7 s).

    Every ``SentenceTransformerEmbedder()`` built afterwards shares this loaded model.
    """
    from ragmeter.embedders.sentence_transformer import load_model

    return load_model()


@pytest.fixture(scope="session")
def postgres():
    """A throw-away PostgreSQL cluster for the session (tests/postgres.py): started on first
    use, stopped and removed at the end; skipped, saying why, where it cannot start."""
    from postgres import Unavailable, postgres_server, unavailable

    try:
        with postgres_server() as server:
            yield server
    except Unavailable as why:
        unavailable(str(why))


@pytest.fixture
def postgres_database(postgres):
    """The SQLAlchemy URL of a new, empty database on that cluster, dropped after the test."""
    with postgres.database() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path) -> str:
    """A new run store, once on each backend: an SQLite file, and a database of its own on the
    session's PostgreSQL server (skipped, saying why, where that cannot start)."""
    if request.param == "postgresql":
        return request.getfixturevalue("postgres_database")
    return str(tmp_path / "store" / "runs.db")
