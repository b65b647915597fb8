# Two commands do all the set-up on a fresh machine: `make demo` and `make test`.
# Each creates .venv (once) and installs what it needs into it: ragmeter with every extra
# (`.[test]` pulls [all]: local models, document ingestion, LangChain, LlamaIndex, Ray).
#
# torch goes in first, pinned, and as its CPU build: on Linux a bare `torch` from PyPI is the
# CUDA build (nvidia-* and triton wheels, several GB) that ragmeter never uses. In order:
#   1. $(TORCH)+cpu from the sources pip is configured with (a local wheel, a mirror);
#   2. $(TORCH)+cpu from the PyTorch CPU index (TORCH_INDEX), the ordinary Linux case;
#   3. plain $(TORCH): macOS and Windows, where PyPI's build is the CPU one.
# A user installing by hand does the same: see "Install" in README.md.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
TORCH  ?= torch==2.13.0
TORCH_INDEX ?= https://download.pytorch.org/whl/cpu

.PHONY: demo test test-quick typecheck venv clean

$(BIN)/ragmeter: pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q "$(TORCH)+cpu" 2>/dev/null \
		|| $(BIN)/pip install -q "$(TORCH)+cpu" --extra-index-url $(TORCH_INDEX) \
		|| $(BIN)/pip install -q "$(TORCH)"
	$(BIN)/pip install -q -e ".[test]"
	touch $(BIN)/ragmeter

venv: $(BIN)/ragmeter

demo: venv
	HF_HUB_OFFLINE=1 $(BIN)/ragmeter demo

# Everything, including the test that pip-installs the light core into a fresh venv.
test: venv
	HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -q $(PYTEST_ARGS)

# The same without the fresh-venv install test (about a minute less).
test-quick: venv
	HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -q -m "not install" $(PYTEST_ARGS)

# mypy (pydantic plugin) over src/ and testset_gen/; settings in pyproject.toml
typecheck: venv
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache
