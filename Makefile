# Two commands do all the set-up on a fresh machine: `make demo` and `make test`.
# Each creates .venv (once) and installs what it needs into it.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# torch first and pinned to the CPU build: a bare `torch` pulls a multi-GB CUDA build.
TORCH  ?= torch==2.13.0

.PHONY: demo test typecheck venv clean

$(BIN)/ragmeter: pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q $(TORCH)
	$(BIN)/pip install -q -e ".[test]"
	touch $(BIN)/ragmeter

venv: $(BIN)/ragmeter

demo: venv
	HF_HUB_OFFLINE=1 $(BIN)/ragmeter demo

test: venv
	HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -q $(PYTEST_ARGS)

# mypy (pydantic plugin) over src/ and testset_gen/; settings in pyproject.toml
typecheck: venv
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache
