# unokit: the two commands are `make run` and `make test`; both set everything up first.
# Nothing is installed into the system Python: uv (pinned) lives in a private virtual environment
# in .tools/, and the locked project environment (uv.lock) in .venv/.
PYTHON ?= python3
UV_VERSION := 0.13.9
TOOLS := .tools
UV := $(TOOLS)/bin/uv
export UV_PYTHON_DOWNLOADS := never
VARIANT ?= flip
PLAYERS ?= 4
SEED ?= 1
ARGS ?=

.PHONY: setup run demo test test-all lint typecheck dist dist-check bench golden postgres catalogs

# Installs uv (pinned) when missing, then the locked environment in .venv.
$(UV):
	@$(PYTHON) -m venv $(TOOLS)
	@$(TOOLS)/bin/python -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

setup: $(UV)
	@$(UV) sync --quiet --frozen --all-extras --python $(PYTHON)

# Play in the terminal: you against bots (UNO Flip, 4 players by default).
run: setup
	@$(UV) run --frozen unokit play --variant $(VARIANT) --players $(PLAYERS) $(ARGS)

# Print a game between random players, turn by turn.
demo: setup
	@$(UV) run --frozen unokit demo --variant $(VARIANT) --players $(PLAYERS) --seed $(SEED)

lint: setup
	$(UV) run --frozen ruff check src tests scripts examples
	$(UV) run --frozen ruff format --check src tests scripts examples

typecheck: setup
	$(UV) run --frozen mypy

# The server's tests start a throwaway PostgreSQL cluster: Debian's package is installed when missing.
postgres:
	@ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || { \
		echo "installing Debian's postgresql package for the server tests"; \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq postgresql >/dev/null; }


# The browser tests drive Debian's Chromium through Playwright (Playwright's own browser
# download is never used); installed here when missing.
CHROMIUM := /usr/bin/chromium
$(CHROMIUM):
	@echo "installing Debian's chromium package for the browser tests"
	@SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null

test: lint typecheck dist-check postgres $(CHROMIUM)
	$(UV) run --frozen pytest

# The exhaustive matrices on top of make test (a whole browser game in Russian for every
# variant, ...): UNOKIT_TEST_ALL=1 turns them on.
test-all: lint typecheck dist-check postgres $(CHROMIUM)
	UNOKIT_TEST_ALL=1 $(UV) run --frozen pytest

# The wheel and the source distribution, built from the sources into dist/.
dist: $(UV)
	@$(UV) build --quiet --clear --out-dir dist --python $(PYTHON)

# The wheel installs into a throwaway environment with no extras: the command starts, the
# engine plays (its data files are inside), and a command whose extra is missing says which.
DIST_VENV := build/dist-check
dist-check: dist
	@rm -rf $(DIST_VENV)
	@$(UV) venv --quiet --python $(PYTHON) $(DIST_VENV)
	@$(UV) pip install --quiet --python $(DIST_VENV)/bin/python dist/unokit-*.whl
	@$(DIST_VENV)/bin/unokit --help >/dev/null
	@$(DIST_VENV)/bin/python -c "import unokit; g = unokit.new_game('flip', players=3, seed=1); assert g.legal_actions()"
	@$(DIST_VENV)/bin/unokit demo --variant flip_attack --players 3 >/dev/null
	@$(DIST_VENV)/bin/unokit sim --bots random,random --games 1 2>&1 | grep -q "needs the optional 'sim' extra"
	@$(DIST_VENV)/bin/unokit serve 2>&1 | grep -q "needs the optional 'server' extra"
	@rm -rf $(DIST_VENV)
	@echo "dist: the wheel in dist/ installs and runs"

bench: setup
	$(UV) run --frozen python scripts/bench_engine.py
	$(UV) run --frozen python scripts/bench_envs.py
	$(UV) run --frozen python scripts/bench_fast.py

# The message catalogues (docs/i18n.md): Babel extracts every key, updates each language's
# catalogue (src/unokit/locale/<lang>/LC_MESSAGES/unokit.po) and compiles it to the .mo file
# and the browser's JSON (both committed).
catalogs: setup
	$(UV) run --frozen python scripts/catalogs.py

golden: setup
	$(UV) run --frozen python scripts/make_golden.py
