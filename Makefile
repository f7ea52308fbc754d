# Tabletop: `make run` sets up and serves; `make test` sets up and runs every test.
# Set-up is incremental: stamps record what was installed from which manifest.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
CHROMIUM ?= /usr/bin/chromium

.PHONY: install build run dev migrate test test-fast lint bench system-packages clean

install: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

dist/app.js: $(VENV)/.installed node_modules/.installed rollup.config.js static/index.html $(wildcard static/js/*.js static/js/*/*.js)
	npx rollup -c

# The Go player's compiled (numba) code, cached on disk so servers and tests start fast; the
# cache is keyed to these sources (app/engine/go/mcts/jit.py), so an edit compiles afresh.
$(VENV)/.compiled: $(VENV)/.installed $(wildcard app/engine/go/mcts/*.py) \
		app/engine/go/board.py app/engine/go/coords.py app/engine/go/playout.py
	$(PY) -c "from app.engine.go.mcts import warm_up; warm_up()"
	touch $@

build: dist/app.js $(VENV)/.compiled

run: build
	$(PY) -m app

# Brings the database (TABLETOP_DATABASE_URL, default the SQLite file of `make run`) to the
# newest schema; the server also does this at start-up, so this is for deploys that migrate
# before the new code serves.
migrate: install
	$(PY) -m app.migrations

# Rollup in watch mode (re-bundles JS, re-copies index.html) beside uvicorn --reload.
dev: install
	trap 'kill 0' EXIT; \
	npx rollup -c -w & \
	$(VENV)/bin/uvicorn app.main:serve --factory --reload \
		--reload-dir app --reload-dir templates --host $${HOST:-127.0.0.1} --port $${PORT:-8000}

# The browser tests drive Debian's Chromium, the GTP tests play GNU Go, the store's tests
# run on a throwaway PostgreSQL too and the balancer test puts nginx in front of two
# instances; install what is missing (needs root).
GNUGO ?= /usr/games/gnugo
NGINX ?= /usr/sbin/nginx
system-packages:
	@test -x $(CHROMIUM) -a -x $(GNUGO) -a -x $(NGINX) \
		-a -n "$$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null)" || (apt-get update && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y chromium gnugo postgresql nginx)

test: build system-packages
	$(PY) -m pytest

test-fast: build
	$(PY) -m pytest -m "not e2e and not slow"

lint: install
	$(VENV)/bin/ruff check app tests bench tools
	$(VENV)/bin/mypy

# The quick benchmarks, as docs/benchmarks.md lists them; each script runs as a module from the
# repository root (the matches and the rest run by hand, with the commands in that file).
bench: build system-packages
	$(PY) -m bench.tictactoe_reply
	$(PY) -m bench.http_moves
	$(PY) -m bench.first_load
	$(PY) -m bench.memory
	$(PY) -m bench.go_moves
	$(PY) -m bench.go_referee check
	$(PY) -m bench.hardening
	$(PY) -m bench.hostile_load

clean:
	rm -rf dist $(VENV) node_modules
