"""Deprecated name of ``ragmeter.traces`` (production traces into evaluation samples), kept
because earlier docs told users to ``from ragmeter.ingest import langchain_handler``.

``ragmeter.traces`` is the home; ``testset_gen``'s document ingestion is another concept."""

import warnings

from ragmeter.traces import *  # noqa: F401,F403
from ragmeter.traces import __all__  # noqa: F401

warnings.warn("ragmeter.ingest is now ragmeter.traces; import from there", DeprecationWarning, stacklevel=2)
