# One entry point per task. `make test` builds everything it needs from nothing.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: test conformance mutation venv harness go-test clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	@echo ">> creating virtual environment in $(VENV)"
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	@echo ">> installing kube-scheduler-conformance with its test dependencies"
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

## harness: build the real kube-scheduler runner, the probe kube-scheduler, kube-apiserver and etcd, and where
## Docker runs, the kind node image's binaries (kubelet, kubeadm, kubectl, kube-controller-manager, containerd,
## kind, pause) (incremental: a binary is rebuilt only when its stamp changed); without Go the tests that need them skip
harness:
	@if command -v go >/dev/null 2>&1; then \
		harness/build.sh --control-plane $$(docker info >/dev/null 2>&1 && echo --kind); \
	else echo ">> no Go toolchain: tests of the upstream and cluster backends will skip"; fi

## go-test: the harness's own Go tests (probe plugins, golden traces, runner)
go-test:
	@if command -v go >/dev/null 2>&1; then echo ">> go test ./... in harness"; cd harness && go test ./...; fi

## test: set up the virtual environment, build the harness, and run the project's own tests (Python, then Go)
## (its own --basetemp: pytest keeps only the 3 newest /tmp/pytest-of-USER dirs, so any other pytest session on
## the machine would otherwise delete this run's temporary files under it)
TEST_BASETEMP ?= $(CURDIR)/.pytest-tmp
test: $(STAMP) harness
	$(PY) -m pytest -q -p no:cacheprovider --durations=15 --basetemp=$(TEST_BASETEMP)
	@$(MAKE) --no-print-directory go-test

## conformance: set up and run the conformance suite (ci profile) against the embedded default backends:
## the reference always; the real kube-scheduler (upstream, on a virtual clock) and the differential
## upstream vs reference when Go is available to build it
conformance: $(STAMP)
	@if command -v go >/dev/null 2>&1; then harness/build.sh; else echo ">> no Go toolchain: the upstream backend is skipped"; fi
	@echo ">> conformance suite on the reference backend (ci profile)"
	$(VENV)/bin/sched-conformance run --backend reference --profile ci -- -v
	@if [ -x harness/bin/runner ]; then \
		echo ">> conformance suite on the upstream backend, and the differential upstream vs reference (ci profile)"; \
		$(VENV)/bin/sched-conformance run --backend upstream --compare reference --profile ci -- -v; fi

## mutation: mutation testing of the reference's framework, cycle, queue, cache, preemption and extender code,
## the property suite (mutation profile) as the test; a seeded sample of PER_MODULE mutants per module, resumable
PER_MODULE ?= 8
mutation: $(STAMP)
	nice -n 10 $(PY) benchmarks/mutation.py --per-module $(PER_MODULE)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
