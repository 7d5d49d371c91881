# frontdesk: every target sets up .venv on first use, so `make demo` and `make test`
# work on a fresh machine with nothing but python3.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The versions the tests passed with, with their hashes (`make lock` refreshes them).
LOCK := requirements-dev.lock
UV_VERSION := 0.13.9
# uv: the one on PATH, else one the registry gives pip into a bootstrap folder shared by every
# clone on this machine (so a fresh clone finds it there).
UV_BOOT := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/frontdesk/uv-$(UV_VERSION)
UV := $(or $(shell command -v uv 2>/dev/null),$(UV_BOOT)/bin/uv)

.PHONY: demo test bench screenshots snapshots lint typecheck serve clean lock

# uv installs the lock in seconds (the venv is made without pip, which alone takes longer);
# where uv cannot be had or fails, pip installs the same lock. The project goes in editable,
# without dependencies, and pip beside it for whoever wants it in the venv.
$(STAMP): pyproject.toml $(LOCK)
	test -x $(BIN)/python || $(PYTHON) -m venv --without-pip $(VENV)
	test -x $(UV) || $(PYTHON) -m pip install --quiet --disable-pip-version-check \
		--target $(UV_BOOT) uv==$(UV_VERSION) >/dev/null 2>&1 || true
	if test -x $(UV) \
		&& $(UV) pip install --quiet --python $(BIN)/python --require-hashes -r $(LOCK) \
		&& $(UV) pip install --quiet --python $(BIN)/python --no-deps -e . pip; then :; \
	else \
		echo "uv unavailable: installing with pip"; \
		{ $(BIN)/python -m pip --version >/dev/null 2>&1 \
			|| $(BIN)/python -m ensurepip --upgrade --default-pip >/dev/null; } \
		&& $(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK) \
		&& $(BIN)/python -m pip install --quiet --no-deps -e . ; \
	fi
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/frontdesk demo

serve: $(STAMP)
	$(BIN)/frontdesk sandbox serve

# The browser test's Chromium and its driver: Debian's packages, installed when missing (as
# root, or through sudo without a password); `make test` then requires them.
BROWSER := /usr/bin/chromium /usr/bin/chromedriver
$(BROWSER) &:
	@echo "installing Debian's chromium and chromium-driver for the browser test"
	@sudo=$$(test "$$(id -u)" = 0 || echo "sudo -n"); \
	$$sudo apt-get install -y -q chromium chromium-driver >/dev/null 2>&1 \
		|| { $$sudo apt-get update -q >/dev/null 2>&1 \
			&& $$sudo apt-get install -y -q chromium chromium-driver >/dev/null 2>&1; } \
		|| echo "could not install chromium: the browser test will fail" >&2

# The gates (ruff, mypy --strict, the layer contracts: seconds when their caches are warm, some
# 20 s on a fresh clone) run beside the suite rather than before it, so that their CPU is spent
# while the suite starts up instead of ahead of it; their report is printed when the suite ends.
# A gate that fails stops the suite at once and fails `make test`. The suite runs on four
# workers that take work from each other when one runs dry (the long tests go first, see
# tests/conftest.py): on two cores, because most of a console test's time is spent waiting on
# the sandbox, a child process or the console settling (beside a CPU-bound process a fresh
# clone's `make test` took 378 s on three workers, 313 s on four). Bytecode is written even where the environment says not to: otherwise
# every worker and every console or sandbox the tests start as a process compiles the same
# modules again. On a fresh clone nothing is compiled yet (the venv is installed without
# bytecode): one collection first compiles every module the suite imports, and rewrites the
# test modules' asserts, once (some 10 s of CPU, beside the gates) instead of once per worker.
test: $(STAMP) $(BROWSER)
	@run=$$(mktemp -d); trap 'rm -rf "$$run"' EXIT; \
	{ $(BIN)/ruff check src tests bench && $(BIN)/mypy \
		&& $(BIN)/lint-imports --cache-dir $(VENV)/import_linter_cache; } >"$$run/gates" 2>&1 \
		|| { touch "$$run/failed"; test -s "$$run/suite" && kill -INT "$$(cat "$$run/suite")"; } & \
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest --collect-only -q >/dev/null 2>&1; \
	env -u PYTHONDONTWRITEBYTECODE FRONTDESK_BROWSER_TEST=required sh -c \
		'test -e "$$1/failed" && exit 1; echo $$$$ >"$$1/suite"; shift; exec "$$@"' sh "$$run" \
		$(BIN)/python -m pytest -n 4 --dist worksteal -q; suite=$$?; \
	wait; cat "$$run/gates"; \
	if test -e "$$run/failed"; then echo "make test: a gate failed (its report is above)" >&2; exit 1; fi; \
	exit $$suite

# The same gates alone.
lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports --cache-dir $(VENV)/import_linter_cache

bench: $(STAMP)
	$(BIN)/python -m bench

screenshots: $(STAMP)
	$(BIN)/python -m frontdesk.screenshots screenshots

# Every snapshot test's pictures taken again (80x24, 100x30, 160x45): look before committing.
SNAPSHOT_TESTS = $(wildcard tests/tui/test_*snapshots.py) tests/tui/test_stats.py \
	tests/tui/test_admin_webhooks.py
snapshots: $(STAMP)
	$(BIN)/python -m pytest $(SNAPSHOT_TESTS) -n 2 -q --snapshot-update

# Resolve pyproject.toml's ranges again to the newest releases, with hashes.
lock: $(STAMP)
	$(UV) pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes \
		--quiet -o requirements.lock
	$(UV) pip compile pyproject.toml --extra dev --universal --python-version 3.11 \
		--generate-hashes --quiet -o $(LOCK)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
