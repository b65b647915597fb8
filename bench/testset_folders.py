"""The two document folders the test-set benchmark generates from, assembled at bench time.

* ``halueval``: Wikipedia-style knowledge passages of HaluEval QA dev (MIT licence; the
  file ships in ../shared/datasets), ``passages_per_doc`` to a Markdown document. HaluEval
  glues two Wikipedia intros with no space after the full stop ("...The Oberoi
  Group.The Oberoi Group is..."); the generator's extraction clean-up splits them.
* ``docs``: this project's own documentation (docs/*.md and README.md) and the READMEs of
  102 packages installed beside it under MIT, BSD, Apache-2.0, ISC or PSF licences, each
  checked against the package's metadata at bench time: 67 in Markdown (``READMES``), 35
  in reStructuredText turned into HTML by docutils (``RST_READMES``). Prose mixed with code
  blocks, tables, headings, badges and command lines, the text a generator must not make
  questions from.

Nothing is committed: the folders are written to a temporary directory each run.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
HALUEVAL = ROOT.parent / "shared" / "datasets" / "halueval_qa_dev.jsonl"
if not HALUEVAL.exists():  # a worktree sits one level deeper than the main checkout
    HALUEVAL = Path("/work/shared/datasets/halueval_qa_dev.jsonl")


def write_halueval(folder: Path, documents: int = 20, passages_per_doc: int = 6,
                   offset: int = 0) -> int:
    """``documents`` Markdown files of HaluEval passages; returns the characters written."""
    rows = [json.loads(line) for line in HALUEVAL.open(encoding="utf-8")]
    passages = list(dict.fromkeys(r["contexts"][0] for r in rows))[offset:]
    folder.mkdir(parents=True, exist_ok=True)
    chars = 0
    for d in range(documents):
        body = passages[d * passages_per_doc: (d + 1) * passages_per_doc]
        text = f"# Notes {d + 1}\n\n" + "\n\n".join(body) + "\n"
        (folder / f"doc_{d + 1:03d}.md").write_text(text, encoding="utf-8")
        chars += len(text)
    return chars


def write_docs(folder: Path) -> int:
    """This project's documentation pages and README, copied as they are, and ``READMES``."""
    folder.mkdir(parents=True, exist_ok=True)
    chars = 0
    for page in sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]:
        target = folder / page.name
        shutil.copyfile(page, target)
        chars += len(page.read_text(encoding="utf-8"))
    return chars + write_readmes(folder)


READMES = ("pydantic", "charset-normalizer", "openai", "langsmith", "transformers", "unstructured",
           "threadpoolctl", "spacy", "fastapi", "datasets", "sentence-transformers", "rich",
           "pandas", "typer", "huggingface-hub", "narwhals", "sympy", "rapidfuzz", "fsspec",
           "attrs", "urllib3", "idna", "plotly", "pypdf", "msgpack",
           # the second set (2026-11-24): 25 pages gave 24 records of 60 asked on seed 53
           "wasabi", "httpcore", "dataclasses-json", "tinytag", "smart-open", "srsly",
           "confection", "catalogue", "thinc", "cymem", "cloudpathlib", "annotated-types",
           "python-iso639", "pysocks", "banks", "griffe", "olefile", "httpx",
           "openinference-instrumentation", "blis", "cloudpickle", "distro", "aiofiles",
           "markdown-it-py", "starlette", "uvicorn", "python-magic", "tiktoken", "platformdirs",
           "llama-index-workflows", "truststore", "pdfminer.six", "weasel", "websocket-client",
           "spacy-loggers", "preshed", "annotated-doc", "pydantic-core", "jiter",
           "trio-websocket", "aiohappyeyeballs", "uuid-utils")
"""Packages of the shared virtualenv whose README (their PyPI long description) joins the
documentation folder: prose about software, with the code blocks, tables and badges a real
docs folder has. Only Markdown descriptions under a permissive licence are written
(``permissive``, ``markdown``): the generator reads no reStructuredText, so the READMEs of
scikit-learn, SQLAlchemy, pytest or requests-toolbelt (reST) are not in the folder."""

RST_READMES = ("regex", "psutil", "xxhash", "colorama", "html5lib", "requests-toolbelt",
               "sortedcontainers", "pycparser", "dill", "scikit-learn", "h11", "mpmath", "trio",
               "selenium", "wrapt", "python-dateutil", "sqlalchemy", "aiohttp", "pytest",
               "marshmallow", "websockets", "jsonschema", "multidict", "joblib", "emoji",
               "wsproto", "deprecated", "pluggy", "anyio", "networkx", "aiosqlite", "sniffio",
               "pytest-asyncio", "frozenlist", "opentelemetry-instrumentation")
"""Packages whose README is reStructuredText (declared ``text/x-rst``, or undeclared and not
Markdown), under the same licences: converted to HTML by docutils (``rst_to_html``), which
the generator reads like any HTML page. The Markdown READMEs alone (67) gave 34 records of
60 asked on seed 53: the documentation prose that passes the filter ran out."""

PERMISSIVE = re.compile(r"\b(?:MIT|BSD|Apache|ISC|PSF|Python Software Foundation)\b", re.I)
COPYLEFT = re.compile(r"\b(?:MPL|Mozilla|GPL|LGPL|AGPL|EUPL|CC-BY-SA|Proprietary)\b", re.I)


def permissive(meta) -> bool:
    """The package's licence, as its metadata states it (``License-Expression``, else the first
    line of ``License``, else the ``License ::`` classifiers), is MIT, BSD, Apache-2.0, ISC or
    PSF, with no copyleft or unknown licence beside it ("MPL-2.0 AND MIT": no)."""
    lines = (meta.get("License") or "").strip().splitlines()
    stated = meta.get("License-Expression") or (lines[0] if lines else "")
    classifiers = [c.split("::")[-1].strip() for c in meta.get_all("Classifier") or []
                   if c.startswith("License ::")]
    said = [stated] if stated else classifiers
    return bool(said) and all(PERMISSIVE.search(s) and not COPYLEFT.search(s) for s in said)


def markdown(meta) -> bool:
    """The long description is Markdown (declared so, or undeclared but opening with a "#" title)."""
    kind = (meta.get("Description-Content-Type") or "").lower()
    body = (meta.get_payload() or "").lstrip()
    return kind.startswith("text/markdown") or (not kind and body.startswith("# "))


def rst_to_html(text: str) -> str:
    """A reStructuredText README as an HTML page (docutils; directives it does not know, such
    as Sphinx's, are left out silently rather than reported inside the page)."""
    from docutils.core import publish_string

    settings = {"report_level": 5, "halt_level": 5, "raw_enabled": False,
                "file_insertion_enabled": False, "output_encoding": "unicode"}
    return publish_string(text, writer_name="html5", settings_overrides=settings)


def write_readmes(folder: Path) -> int:
    """The READMEs of ``READMES`` (Markdown, one ``.md`` file each) and ``RST_READMES``
    (reStructuredText, one ``.html`` file each) that are installed and permissively
    licensed; returns the characters of the READMEs as their packages ship them."""
    from importlib import metadata

    folder.mkdir(parents=True, exist_ok=True)
    chars = 0
    for name, rst in [(n, False) for n in READMES] + [(n, True) for n in RST_READMES]:
        try:
            meta = metadata.metadata(name)
        except metadata.PackageNotFoundError:
            continue
        body = meta.get_payload() or ""
        if len(body) <= 500 or not permissive(meta) or markdown(meta) == rst:
            continue
        if rst:
            (folder / f"readme_{name}.html").write_text(rst_to_html(body), encoding="utf-8")
        else:
            (folder / f"readme_{name}.md").write_text(body, encoding="utf-8")
        chars += len(body)
    return chars
