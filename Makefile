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

.PHONY: setup venv checks setup-play setup-serve run serve demo test test-all lint lint-js typecheck dist dist-check bench bench-bots golden postgres catalogs

# Installs uv (pinned) when missing.
$(UV):
	@echo "installing uv $(UV_VERSION), the package manager, into $(TOOLS)/ (once)"
	@$(PYTHON) -m venv $(TOOLS)
	@$(TOOLS)/bin/python -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

# The whole locked environment in .venv: every extra, for the tests and every command.
setup: venv
	@$(MAKE) --no-print-directory $(COMPILED)

# The locked environment alone, without compiling the kernels (the checks need no more).
venv: $(UV)
	@$(UV) sync --quiet --frozen --all-extras --python $(PYTHON)
	@touch $(PLAY_READY) $(SERVE_READY)

# The fast engine's searches compiled into numba's on-disk cache (`unokit compile`), once after
# an install or an upgrade and again when the kernels change, so that no bot move, hint, review
# or test compiles them on first use (docs/fast.md#compiling-ahead).
COMPILED := .venv/.unokit-compiled
$(COMPILED): uv.lock $(wildcard src/unokit/fast/*.py) src/unokit/review/warm.py
	@echo "compiling the fast engine's searches into numba's cache (once; minutes on a small machine)"
	@.venv/bin/unokit compile
	@touch $@

# What `make run` and `make demo` need: unokit with the `play` extra (Textual and Rich), added to
# .venv without removing anything `make setup` installed (--inexact); again when uv.lock changes.
PLAY_READY := .venv/.unokit-play
$(PLAY_READY): uv.lock pyproject.toml | $(UV)
	@echo "installing unokit and what the terminal game needs (Textual, Rich: about 15 MB) into .venv;" \
		"the first time they are downloaded, which takes a moment"
	@$(UV) sync --quiet --frozen --inexact --extra play --python $(PYTHON)
	@touch $@

setup-play: $(PLAY_READY)

# Play in the terminal: you against bots (UNO Flip, 4 players by default).
run: $(PLAY_READY)
	@.venv/bin/unokit play --variant $(VARIANT) --players $(PLAYERS) $(ARGS)

# What `make serve` needs: unokit with the `server` extra (Starlette, uvicorn, SQLAlchemy, ...:
# about 50 MB), added to .venv like the `play` extra; again when uv.lock changes.
SERVE_READY := .venv/.unokit-server
$(SERVE_READY): uv.lock pyproject.toml | $(UV)
	@echo "installing unokit and what the server needs (Starlette, uvicorn, SQLAlchemy: about 50 MB)" \
		"into .venv; the first time they are downloaded, which takes a moment"
	@$(UV) sync --quiet --frozen --inexact --extra server --python $(PYTHON)
	@touch $@

setup-serve: $(SERVE_READY)

# Play in the browser: the game server on this machine, with its rooms in a SQLite file
# (~/.local/share/unokit/server.db); it prints the address to open. HOST=0.0.0.0 lets the other
# devices of the network in (their players open http://THIS-MACHINE:PORT/).
HOST ?= 127.0.0.1
PORT ?= 8000
serve: $(SERVE_READY)
	@.venv/bin/unokit serve --host $(HOST) --port $(PORT) --log-level warning $(ARGS)

# Print a game between random players, turn by turn.
demo: $(PLAY_READY)
	@.venv/bin/unokit demo --variant $(VARIANT) --players $(PLAYERS) --seed $(SEED)

lint: venv lint-js
	$(UV) run --frozen ruff check src tests scripts examples
	$(UV) run --frozen ruff format --check src tests scripts examples

# The browser client (src/unokit/server/static/js, sw.js) is checked by ESLint (eslint.config.mjs:
# the recommended rules and lines of at most 140 characters) and static/js by TypeScript's checker
# reading its JSDoc types (tsconfig.json: strict, noImplicitAny included). Both are npm packages
# pinned in package.json and package-lock.json, installed into node_modules/ by `npm ci` (again
# when the lock file changes); Node.js and npm come from Debian's packages when the machine has none.
# (Debian's own eslint, 6.4, does not start under a Node.js other than Debian's, and its
# TypeScript is 4.8: docs/web.md#checking-the-clients-code.)
JS_READY := node_modules/.unokit-ready
$(JS_READY): package.json package-lock.json
	@command -v npm >/dev/null || { echo "installing Debian's nodejs and npm for the browser client's checks"; \
		$(call APT_INSTALL,nodejs npm); }
	@echo "installing the browser client's checkers (TypeScript, ESLint) into node_modules/ with npm ci"
	@npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	@touch $@

lint-js: $(JS_READY)
	node_modules/.bin/eslint --max-warnings 0 src/unokit/server/static/js src/unokit/server/static/sw.js
	node_modules/.bin/tsc --project tsconfig.json

typecheck: venv
	$(UV) run --frozen mypy

# $(call APT_INSTALL,PACKAGE): install Debian's PACKAGE with apt-get (through sudo unless root),
# for the tests that need a system program.
APT_INSTALL = SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	$$SUDO apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(1) >/dev/null

# The server's tests start a throwaway PostgreSQL cluster: Debian's package is installed when missing.
postgres:
	@ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || { \
		echo "installing Debian's postgresql package for the server tests"; \
		$(call APT_INSTALL,postgresql); }


# The browser tests drive Debian's Chromium through Playwright (Playwright's own browser
# download is never used); installed here when missing.
CHROMIUM := /usr/bin/chromium
$(CHROMIUM):
	@echo "installing Debian's chromium package for the browser tests"
	@$(call APT_INSTALL,chromium)

# The browser's Chinese font is cut from Debian's Noto Sans CJK (scripts/cjk_font.py, make
# catalogs), and the browser tests draw Chinese pages with it: Debian's fonts-noto-cjk, installed
# when missing.
CJK_FONT := /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
$(CJK_FONT):
	@echo "installing Debian's fonts-noto-cjk package for the Chinese font and the browser tests"
	@$(call APT_INSTALL,fonts-noto-cjk)

# The deployment test runs Caddy (TLS in front of two servers, deploy/Caddyfile): Debian's
# caddy package, installed when missing.
CADDY := /usr/bin/caddy
$(CADDY):
	@echo "installing Debian's caddy package for the deployment test"
	@$(call APT_INSTALL,caddy)

# The suite runs in TEST_WORKERS processes (pytest-xdist), a test file to each at a time: most
# of its time is spent waiting on servers, browsers and subprocesses, so three processes keep two
# cores busy (36 minutes in one process, 19 in three, on a loaded 2-core machine; 10 in three
# when it was quiet). TEST_WORKERS=0 runs it in this process.
TEST_WORKERS ?= 3
PYTEST := $(UV) run --frozen pytest -n $(TEST_WORKERS) --dist loadfile

test: checks postgres $(CHROMIUM) $(CJK_FONT) $(CADDY)
	$(PYTEST)

# The checks before the tests, two at a time (each uses one core; the type check and compiling
# the kernels take the longest, about half a minute each on a 2-core machine), each one's output
# shown whole when it ends.
checks: venv
	@$(MAKE) --no-print-directory -j2 --output-sync=target lint typecheck dist-check $(COMPILED)

# The exhaustive matrices on top of make test: UNOKIT_TEST_ALL=1 turns on a whole browser game
# in Russian for every variant and the full sizes of the tests that run a share in make test
# (tests/helpers.py: sized); -m "" the tests marked "matrix" (every variant played in
# the browser on every screen size).
test-all: checks postgres $(CHROMIUM) $(CJK_FONT) $(CADDY)
	UNOKIT_TEST_ALL=1 $(PYTEST) -m ""

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
	$(UV) run --frozen python scripts/bench_review.py

# The bots' ladder and the expert's head-to-head figures (docs/bots.md#the-ladder-measured): the
# tournament of the five levels in five settings, then the expert (ismcts_belief) against
# ismcts_fast and against heuristic over 6,000 paired hands each (2-player Classic, seats swapped),
# with times per decision. Roughly 20 hours at the defaults on 2 cores (the expert's search is the cost);
# a quick look with LADDER_GAMES=10 H2H_GAMES=200.
LADDER_GAMES ?= 200
H2H_GAMES ?= 6000
bench-bots: setup
	$(UV) run --frozen python scripts/bench_ladder.py --games $(LADDER_GAMES)
	$(UV) run --frozen python scripts/bench_ismcts.py --bot ismcts_belief --opponent ismcts_fast --games $(H2H_GAMES) --first-deal 10000
	$(UV) run --frozen python scripts/bench_ismcts.py --bot ismcts_belief --opponent heuristic --games $(H2H_GAMES) --first-deal 10000

# The message catalogues (docs/i18n.md): Babel extracts every key, updates each language's
# catalogue (src/unokit/locale/<lang>/LC_MESSAGES/unokit.po) and compiles it to the .mo file
# and the browser's JSON (both committed).
catalogs: setup $(CJK_FONT)
	$(UV) run --frozen python scripts/catalogs.py
	$(UV) run --frozen python scripts/cjk_font.py

golden: setup
	$(UV) run --frozen python scripts/make_golden.py
