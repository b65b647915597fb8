"""Embedders: a batch of texts -> unit vectors, behind one small async interface.

``get_embedder("local")`` is the bundled MiniLM (no key, no network); ``"openai:MODEL"`` and
``"openai:MODEL@URL"`` use any OpenAI-compatible endpoint; ``"st:NAME_OR_PATH"`` any
sentence-transformers model. By default a per-text disk cache sits in front.

Importing this package is cheap: torch, sentence-transformers and openai are imported on
first use, not here.
"""

from ragmeter.embedders.cached import CachedEmbedder
from ragmeter.embedders.openai_embedder import OpenAIEmbedder
from ragmeter.embedders.protocol import Embedder, normalise_rows
from ragmeter.embedders.sentence_transformer import SentenceTransformerEmbedder, load_model
from ragmeter.embedders.spec import SPEC_FORMS, get_embedder, parse_spec

__all__ = [
    "SPEC_FORMS",
    "CachedEmbedder",
    "Embedder",
    "OpenAIEmbedder",
    "SentenceTransformerEmbedder",
    "get_embedder",
    "load_model",
    "normalise_rows",
    "parse_spec",
]
