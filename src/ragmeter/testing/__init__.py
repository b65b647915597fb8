"""Test helpers that sit at the network edge: a local OpenAI-compatible server."""

from ragmeter.testing.openai_server import OpenAIMockServer, Reply

__all__ = ["OpenAIMockServer", "Reply"]
