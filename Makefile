# Every target builds or refreshes .venv itself from nothing but python3.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test serve bench lint venv clean fuzz audit

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/speedway play

serve: $(STAMP)
	$(BIN)/speedway serve $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check core replays
	$(BIN)/mypy core replays net tui
	$(BIN)/lint-imports

test: lint
	$(BIN)/python -m pytest -n 2 -q $(PYTEST_ARGS)

# Long fuzzing, kept out of `make test`: the hypothesis properties with many more examples, then
# every atheris target for FUZZ_SECONDS each (seeded from tests/fuzz/corpus/). If atheris cannot
# be installed here, the hypothesis runs still happen and the atheris step says why it is skipped.
FUZZ_SECONDS ?= 60
FUZZ_EXAMPLES ?= 5000
fuzz: $(STAMP)
	SPEEDWAY_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) SPEEDWAY_MACHINE_EXAMPLES=300 $(BIN)/python -m pytest -q -s -p no:xdist \
		tests/test_decoders_fuzz.py tests/net/test_log_machine.py tests/replays/test_crash_safety.py
	@if $(BIN)/python -c "import atheris" 2>/dev/null || $(BIN)/python -m pip install --quiet -e '.[fuzz]'; then \
		$(BIN)/python -m tests.fuzz.targets --all $(FUZZ_SECONDS); \
	else echo "atheris could not be installed here: only the hypothesis long runs above were made"; fi

# Known vulnerabilities in every installed dependency (PyPI's advisory data, via pip-audit).
# --strict: a dependency the service cannot answer for fails the audit (never a silent pass).
# Not part of `make test`: it needs PyPI's per-release JSON API on the network.
audit: $(STAMP)
	$(BIN)/python -m pip install --quiet pip-audit
	$(BIN)/python -m pip_audit --strict --skip-editable --progress-spinner off

bench: $(STAMP)
	SPEEDWAY_BENCH_QUICK=$(QUICK) $(BIN)/python -m bench $(BENCH)

clean:
	rm -rf $(VENV) build *.egg-info
