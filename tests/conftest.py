"""Shared fixtures: the bundled MiniLM is loaded once per session; nothing reaches a hub."""

from __future__ import annotations

import os

import pytest

# Tests never reach a model hub.
os.environ.setdefault("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="session")
def minilm():
    """The bundled MiniLM, loaded once per test session (about 7 s).

    Every ``SentenceTransformerEmbedder()`` built afterwards shares this loaded model.
    """
    from ragmeter.embedders.sentence_transformer import load_model

    return load_model()
