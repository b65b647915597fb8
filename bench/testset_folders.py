"""The two document folders the test-set benchmark generates from, assembled at bench time.

* ``halueval``: Wikipedia-style knowledge passages of HaluEval QA dev (MIT licence; the
  file ships in ../shared/datasets), ``passages_per_doc`` to a Markdown document. HaluEval
  glues two Wikipedia intros with no space after the full stop ("...The Oberoi
  Group.The Oberoi Group is..."); the generator's extraction clean-up splits them.
* ``docs``: this project's own documentation (docs/*.md and README.md) and the READMEs of
  25 MIT/BSD/Apache-licensed packages installed beside it (``READMES``): prose mixed with
  code blocks, tables, headings, badges and command lines, the text a generator must not
  make questions from.

Nothing is committed: the folders are written to a temporary directory each run.
"""

from __future__ import annotations

import json
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
           "attrs", "urllib3", "idna", "plotly", "pypdf", "msgpack")
"""Packages of the shared virtualenv whose README (their PyPI long description, MIT, BSD or
Apache licence) joins the documentation folder: prose about software, with the code
blocks, tables and badges a real docs folder has."""


def write_readmes(folder: Path) -> int:
    """The READMEs of ``READMES`` that are installed, one Markdown file each."""
    from importlib import metadata

    folder.mkdir(parents=True, exist_ok=True)
    chars = 0
    for name in READMES:
        try:
            body = metadata.metadata(name).get_payload() or ""
        except metadata.PackageNotFoundError:
            continue
        if len(body) > 500:
            (folder / f"readme_{name}.md").write_text(body, encoding="utf-8")
            chars += len(body)
    return chars
