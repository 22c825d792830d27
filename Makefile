# Every target builds or refreshes .venv itself from nothing but python3.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test serve bench lint venv clean

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
	$(BIN)/mypy core replays
	$(BIN)/lint-imports

test: lint
	$(BIN)/python -m pytest -n 2 -q $(PYTEST_ARGS)

bench: $(STAMP)
	SPEEDWAY_BENCH_QUICK=$(QUICK) $(BIN)/python -m bench $(BENCH)

clean:
	rm -rf $(VENV) build *.egg-info
