# One entry point per task. `make test` builds everything it needs from nothing.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: test venv clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	@echo ">> creating virtual environment in $(VENV)"
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	@echo ">> installing kube-scheduler-conformance with its test dependencies"
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

## test: set up the virtual environment and run the project's own tests
test: $(STAMP)
	$(PY) -m pytest -q -p no:cacheprovider

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
