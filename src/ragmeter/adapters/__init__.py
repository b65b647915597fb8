"""Adapters: run the user's RAG app over a test set and read what it returns.

``run_app`` works with any callable; ``ragmeter.adapters.langchain`` and
``ragmeter.adapters.llamaindex`` (optional extras, imported only when used) turn a LangChain
runnable or a LlamaIndex query engine into such a callable and back ragmeter's judge and
embedder with their models.
"""

from ragmeter.adapters.output import AppOutput, AppOutputError, read_output
from ragmeter.adapters.run import AppError, RunResult, arun_app, load_app, run_app

__all__ = ["AppError", "AppOutput", "AppOutputError", "RunResult", "arun_app", "load_app", "read_output", "run_app"]
