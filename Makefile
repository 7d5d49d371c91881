# frontdesk: every target sets up .venv on first use, so `make demo` and `make test`
# work on a fresh machine with nothing but python3.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench screenshots lint typecheck serve clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/frontdesk demo

serve: $(STAMP)
	$(BIN)/frontdesk sandbox serve

# The gates first (seconds when their caches are warm), then the suite.
test: lint
	$(BIN)/python -m pytest -n 2 -q

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports --cache-dir $(VENV)/import_linter_cache

bench: $(STAMP)
	$(BIN)/python -m bench

screenshots: $(STAMP)
	$(BIN)/python -m frontdesk.tui.screenshots screenshots

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
