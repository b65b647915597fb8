"""`pip install ragmeter` with no extras: light, torch-free, and it scores.

Builds a fresh virtualenv, installs this checkout with no extras (pip may answer from its
wheel cache; about 35 s on a network, a few seconds from the cache), and checks what a user
of an LLM judge gets: no torch, spaCy, sentence-transformers or unstructured; site-packages
under 700 MB; every ragmeter module importable; `ragmeter evaluate` scoring judge-free
metrics; and a command that needs the [local] extra saying so in one line, exit code 2.

Marked ``install`` so a quick local run can skip it (``-m "not install"``); ``make test``
and CI run it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

pytestmark = pytest.mark.install

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "src" / "ragmeter" / "sample_data" / "rag_sample.jsonl"
CORE_LIMIT_MB = 700
HEAVY = ("torch", "spacy", "sentence_transformers", "unstructured", "transformers")

IMPORT_EVERY_MODULE = """
import importlib, pkgutil, sys
import ragmeter, testset_gen
failed = []
for package in (ragmeter, testset_gen):
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if info.name == "ragmeter.pytest_plugin":
            continue  # imports pytest, which a user's environment has when it runs it
        try:
            importlib.import_module(info.name)
        except Exception as exc:
            # the faces of an extra may refuse to load without it, in one line naming it
            extra = next((e for prefix, e in EXTRA_MODULES.items() if info.name.startswith(prefix)), None)
            if extra and type(exc).__name__ == "MissingExtra" and f"ragmeter[{extra}]" in str(exc):
                continue
            failed.append(f"{info.name}: {type(exc).__name__}: {exc}")
print("\\n".join(failed))
print("HEAVY", sorted(m for m in %r if m in sys.modules))
""" % (HEAVY,)
IMPORT_EVERY_MODULE = IMPORT_EVERY_MODULE.replace(
    "failed = []", "failed = []\nEXTRA_MODULES = %r" % ({
        "ragmeter.ui": "ui", "ragmeter.traces._langchain": "langchain", "ragmeter.traces._llamaindex": "llamaindex",
    },))


def _size_mb(folder: Path) -> float:
    total = 0
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            total += path.stat().st_size
    return total / 1e6


@pytest.fixture(scope="module")
def core_venv(tmp_path_factory) -> Path:
    """A virtualenv holding `pip install .` of this checkout, with no extras."""
    work = tmp_path_factory.mktemp("core")
    # Install from a copy: building in the checkout would leave build/ and *.egg-info in it.
    source = work / "src-copy"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("src", "testset_gen"):
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    env_dir = work / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    python = env_dir / "bin" / "python"
    done = subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(source)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return env_dir


def _site_packages(env_dir: Path) -> Path:
    found = list((env_dir / "lib").glob("python3*/site-packages"))
    assert len(found) == 1, found
    return found[0]


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "OPENAI_API_KEY")}
    env.update(HF_HUB_OFFLINE="1", RAGMETER_CACHE_DIR=str(tmp_path / "cache"), COLUMNS="200")
    return env


def test_core_install_has_no_heavy_packages_and_is_small(core_venv, tmp_path):
    python = core_venv / "bin" / "python"
    for module in HEAVY:
        probe = subprocess.run([str(python), "-c", f"import {module}"], capture_output=True, text=True,
                               env=_env(tmp_path), cwd=tmp_path)
        assert probe.returncode != 0, f"{module} is importable in the core install"
        assert "ModuleNotFoundError" in probe.stderr
    size = _size_mb(_site_packages(core_venv))
    print(f"\ncore install: site-packages {size:.0f} MB (limit {CORE_LIMIT_MB} MB)")
    assert size < CORE_LIMIT_MB


def test_every_module_imports_without_the_extras(core_venv, tmp_path):
    done = subprocess.run([str(core_venv / "bin" / "python"), "-c", IMPORT_EVERY_MODULE], capture_output=True,
                          text=True, env=_env(tmp_path), cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    assert lines == ["HEAVY []"], lines


def test_core_install_scores_judge_free_metrics(core_venv, tmp_path):
    out = tmp_path / "result.json"
    done = subprocess.run(
        [str(core_venv / "bin" / "ragmeter"), "evaluate", str(SAMPLE), "-m", "bleu,rouge_l,token_f1,exact_match",
         "--quiet", "--no-cache", "--out", str(out)],
        capture_output=True, text=True, env=_env(tmp_path), cwd=tmp_path, timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "ragmeter: 16 samples" in done.stdout
    for metric in ("bleu", "rouge_l", "token_f1", "exact_match"):
        assert metric in done.stdout
    import json

    saved = json.loads(out.read_text(encoding="utf-8"))
    assert len(saved["samples"]) == 16
    assert all(s["scores"]["token_f1"]["value"] is not None for s in saved["samples"])


def test_core_install_names_the_missing_extra_in_one_line(core_venv, tmp_path):
    """The default judge is local: on a core install that is a configuration error (exit 2)
    in one line naming the extra, not 16 rows of failures and exit 0."""
    done = subprocess.run(
        [str(core_venv / "bin" / "ragmeter"), "evaluate", str(SAMPLE), "--quiet", "--no-cache"],
        capture_output=True, text=True, env=_env(tmp_path), cwd=tmp_path, timeout=300,
    )
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.strip().splitlines() == [
        "error: the local judge needs torch, which is not installed: pip install 'ragmeter[local]'"]
    assert done.stdout == ""


@pytest.mark.parametrize(("command", "line"), [
    (["align", "--benchmark", "halueval", "--judge", "local"],
     "error: the local judge needs torch, which is not installed: pip install 'ragmeter[local]'"),
    (["align", "--benchmark", "halueval", "--judge", "openai:gpt-4o-mini"],
     "error: ragmeter align's agreement statistics needs scipy, which is not installed: "
     "pip install 'ragmeter[align]'"),
    (["ui"], "error: ragmeter ui needs fastapi, which is not installed: pip install 'ragmeter[ui]'"),
    (["generate", str(ROOT / "src" / "ragmeter" / "sample_data" / "docs"), "--size", "2"],
     "error: the test-set generator needs torch, which is not installed: "
     "pip install 'ragmeter[local,docs]'"),
])
def test_the_first_hour_names_every_missing_extra_in_one_line(core_venv, tmp_path, command, line):
    """What a new user runs first on a core install: one line naming the extra(s), exit 2,
    never a traceback, a table of n/a with exit 0, or one extra at a time."""
    done = subprocess.run([str(core_venv / "bin" / "ragmeter"), *command], capture_output=True, text=True,
                          env={**_env(tmp_path), "OPENAI_API_KEY": "sk-not-used"}, cwd=tmp_path, timeout=300)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.strip().splitlines() == [line]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q", "-s"]))
