# The two commands of the README: `make run` and `make test`. Each installs what is missing
# (Debian packages, the virtualenv, the package in editable mode) and is safe to repeat.
# `make run` installs only what serving needs (no Playwright, no psycopg: neither has wheels
# for 32-bit ARM, and a Raspberry Pi needs neither); `make test` adds the test, bench and
# PostgreSQL extras on top.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
STAMP := $(VENV)/.installed
RUN_PACKAGES := libhunspell-dev hunspell-hu python3-venv python3-dev gcc
# 32-bit ARM (Raspberry Pi OS armv7): Pillow has no wheel there and is built from its source
ifeq ($(shell uname -m),armv7l)
RUN_PACKAGES += libjpeg-dev zlib1g-dev
endif
# postgresql: the tests also run on a throwaway PostgreSQL cluster (tests/conftest.py); nginx:
# the tests run docs/deploying.md's proxy configuration in front of two servers (tests/test_proxy.py);
# libnss3-tools: a browser profile that trusts `companion cert`'s authority (test_local_ca_pwa.py);
# webkit2gtk-driver, xvfb, firefox-esr: the walks of test_engines_pwa.py in WebKit (MiniBrowser on a
# virtual display) and Gecko, besides Chromium (tests/browser/engines.py); poppler-utils: pdftotext
# reads back the league's pages printed to A4 (test_league_print_pwa.py), and pdftoppm rasterises
# the venue's printed tents for zbarimg to decode (test_venue_pwa.py)
TEST_PACKAGES := $(RUN_PACKAGES) chromium zbar-tools fonts-dejavu-core postgresql nginx libnss3-tools \
	webkit2gtk-driver xvfb firefox-esr poppler-utils
# hyphen-hu: the reference bench/blanko_hyphenation.py measures the tiles' reading against;
# nodejs: bench/timer_sync.py runs the page's clock estimator in Node; npm: bench/pageload.py
# installs its pinned Lighthouse with it (Debian packages it apart; NodeSource's nodejs brings
# its own, which Debian's npm package would conflict with)
BENCH_PACKAGES := $(TEST_PACKAGES) hyphen-hu nodejs $(if $(shell command -v npm),,npm)
# Every script of bench/ is a bench, run with its defaults, except the servers they start
BENCHES := $(filter-out bench/socketio_peer.py,$(wildcard bench/*.py))
# The suite runs in worker processes (pytest-xdist): most of a browser test's time is spent
# waiting for a page or a socket, so three workers keep two cores busy.
TEST_WORKERS ?= 3
HOST ?= 0.0.0.0
PORT ?= 8000

.PHONY: run test system-run system-test system-bench lint bench clean

run: system-run $(RUN_STAMP)
	$(BIN)/companion serve --host $(HOST) --port $(PORT) $(ARGS)

test: system-test $(STAMP)
	$(BIN)/ruff check companion tests bench
	$(BIN)/pytest -q -n $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

system-run:
	@scripts/system-packages.sh $(RUN_PACKAGES)

system-test:
	@scripts/system-packages.sh $(TEST_PACKAGES)

system-bench:
	@scripts/system-packages.sh $(BENCH_PACKAGES)

$(RUN_STAMP): pyproject.toml setup.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e .
	touch $(RUN_STAMP)

$(STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install -q -e '.[test,bench,postgres]'
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check companion tests bench

bench: system-bench $(STAMP)
	for b in $(BENCHES); do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build
