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
#
# Every other package is installed at the version in requirements/lock.txt (pip -c): the local
# judge's scores depend on transformers, sentence-transformers, spaCy and numpy, and every figure
# in bench/figures.json was measured on exactly these. pyproject's ranges stay loose for people
# who install ragmeter into their own environment. `make lock` refreshes the lock.
PYTHON ?= python3
LOCK   := requirements/lock.txt
VENV   := .venv
BIN    := $(VENV)/bin
TORCH  ?= torch==2.13.0
TORCH_INDEX ?= https://download.pytorch.org/whl/cpu

.PHONY: demo test test-quick typecheck venv clean lock figures figures-check

# $(call install_into,VENV_DIR,CONSTRAINTS): torch first (CPU build), then ragmeter with every extra.
define install_into
	test -d $(1) || $(PYTHON) -m venv $(1)
	$(1)/bin/pip install -q --upgrade pip
	$(1)/bin/pip install -q "$(TORCH)+cpu" 2>/dev/null \
		|| $(1)/bin/pip install -q "$(TORCH)+cpu" --extra-index-url $(TORCH_INDEX) \
		|| $(1)/bin/pip install -q "$(TORCH)"
	$(1)/bin/pip install -q $(2) -e ".[test]"
endef

$(BIN)/ragmeter: pyproject.toml $(LOCK)
	$(call install_into,$(VENV),-c $(LOCK))
	touch $(BIN)/ragmeter

venv: $(BIN)/ragmeter

demo: venv
	HF_HUB_OFFLINE=1 $(BIN)/ragmeter demo

# Two pytest-xdist workers: serial, the suite keeps about one of the two cores busy (servers,
# subprocesses, a pip install wait on I/O) and took 17 minutes on 2 cores; with two workers it
# took 12. Each worker loads the local models once. TEST_WORKERS=0 runs it serially.
TEST_WORKERS ?= 2

# Everything, including the test that pip-installs the light core into a fresh venv.
test: venv
	HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -q -n $(TEST_WORKERS) $(PYTEST_ARGS)

# The same without the fresh-venv install test (about a minute less).
test-quick: venv
	HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -q -n $(TEST_WORKERS) -m "not install" $(PYTEST_ARGS)

# mypy (pydantic plugin) over src/ and testset_gen/; settings in pyproject.toml
typecheck: venv
	$(BIN)/mypy

# Every published figure, measured on the locked install, into bench/figures.json (about 7
# minutes on 2 cores; Ragas, for the calls compared with it, in its own bench/.venv-ragas);
# README and docs quote only that file. `figures-check` compares a fresh
# measurement with the committed file and exits 1 on any difference over 0.005.
figures: venv
	bash bench/make_ragas_venv.sh || echo "bench/.venv-ragas not built: the vs_ragas figures are kept as they were"
	HF_HUB_OFFLINE=1 $(BIN)/python bench/figures.py

figures-check: venv
	HF_HUB_OFFLINE=1 $(BIN)/python bench/figures.py --check

# A fresh virtualenv with the newest versions pyproject allows, frozen into the lock (torch,
# pinned above, left out). Then `make figures`: a new lock means new figures.
lock:
	rm -rf .venv-lock
	$(call install_into,.venv-lock,)
	{ sed -n '/^#/p' $(LOCK); .venv-lock/bin/pip freeze --exclude-editable | grep -v -i '^torch=='; } > $(LOCK).new
	mv $(LOCK).new $(LOCK)
	rm -rf .venv-lock
	@echo "$(LOCK) refreshed: run 'make figures' and commit both"

clean:
	rm -rf $(VENV) .pytest_cache
