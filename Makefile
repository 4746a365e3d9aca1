# Two commands: `make run` (set up and serve the app) and `make test` (set up and run every test).
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
FONTS  := build/out/fonts/.complete

.PHONY: run test bench browser pwa screenshots

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# The fallback fonts the local server serves (symbols, emoji, CJK...), from the pinned npm
# packages the PWA uses (fetched once into build/cache/). Without npm the app still runs;
# those characters then show as boxes, and the next `make run` tries again.
$(FONTS): $(STAMP) build/templates/fonts/package-lock.json
	$(PY) build/build_pwa.py --local-fonts build/out/fonts || echo "make: no fallback fonts (needs npm once): other scripts and emoji show as boxes"

run: $(STAMP) $(FONTS)
	$(PY) -m app $(ARGS)

# The three browser engines a phone or laptop has, from Debian's packages (no test tool ever
# downloads a browser here): Chromium (Playwright), WebKit (WebKitGTK's MiniBrowser driven by
# WebKitWebDriver under Xvfb: the engine inside Safari) and Firefox ESR (Puppeteer-core over
# WebDriver BiDi).
BROWSER_PACKAGES := chromium webkit2gtk-driver xvfb xauth firefox-esr
browser:
	@missing=""; for p in $(BROWSER_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else echo "Browser tests need:$$missing (sudo apt-get install$$missing)"; fi; fi

# The offline PWA: a static site in build/out/site/ (serve it with any static server).
pwa: $(STAMP)
	$(PY) build/build_pwa.py

test: $(STAMP) browser
	$(PY) -m mypy
	PYTHONUNBUFFERED=1 $(PY) -m pytest $(ARGS)

# The benchmarks (tests/bench/bench_*.py: pytest-benchmark tables and the side-by-side runs against the
# previous commit); reported, never asserted on time, and not part of `make test`.
bench: $(STAMP) browser
	$(PY) -m pytest -s $(wildcard tests/bench/bench_*.py) $(ARGS)

# The README's pictures, refreshed on purpose: `make test` writes its pictures to a temporary folder.
screenshots: $(STAMP) browser
	FARKLE_SCREENSHOTS=1 $(PY) -m pytest -m browser tests/browser/test_browser_journeys.py tests/browser/test_browser_organizer.py \
	  tests/browser/test_browser_table_layout.py tests/browser/test_browser_phones_event.py tests/browser/test_browser_seed_event.py \
	  tests/browser/test_browser_follow.py \
	  tests/browser/test_browser_points_only.py tests/browser/test_browser_printables.py tests/browser/test_i18n_browser.py
