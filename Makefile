# clue-stats: `make demo` sets up and shows the sample games; `make test` sets up and runs the tests.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
DB     ?= clue.duckdb
SIMULATED := build/simulated
# Python's bytecode caches stay on for everything make runs: a shell that sets PYTHONDONTWRITEBYTECODE
# (this machine's does) recompiles every module at every start and has pytest rewrite every test file
# at every run (make test-fast: 31 s with it, 26 s without)
unexport PYTHONDONTWRITEBYTECODE

.PHONY: install demo test test-fast check typecheck wheel-check bench bench-scale fuzz dashboard clean catalogues

# uv (from PyPI, into the environment) installs in seconds; pip is the fallback where uv cannot be had.
# The install builds the compiled core of the counting programs (setup.py: engine/_kernels.pyx, with
# Cython from the build requirements and the machine's C compiler), again when its source changes,
# and writes the bytecode of the libraries and of the program, so that the first command does not
# compile them (the first ingest of the samples took 1.6 times the second)
$(STAMP): pyproject.toml setup.py engine/_kernels.pyx
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet uv 2>/dev/null || echo "uv cannot be had here: installing with pip"
	if [ -x $(BIN)/uv ]; then $(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -e '.[test]'; \
	else $(BIN)/pip install --quiet --upgrade pip && $(BIN)/pip install --quiet -e '.[test]'; fi
	$(BIN)/python -m compileall -q -j 0 engine ingest analysis dashboard clue_stats
	touch $(STAMP)

install: $(STAMP)

# every game is stored with the whole review (ingest's default); `analyse` then confirms that every
# stored game is reviewed (and completes any an older version left), and the time is said
demo: install
	@start=$$(date +%s); \
	( $(BIN)/clue-stats ingest data/samples --db $(DB) || test $$? -eq 3 ) && \
	( test -d $(SIMULATED) || $(BIN)/clue-stats simulate --games 300 --players 4 --strategies notebook,random,bluffer --seed 1 --out $(SIMULATED) ) && \
	( $(BIN)/clue-stats ingest $(SIMULATED) --db $(DB) || test $$? -eq 3 ) && \
	$(BIN)/clue-stats games --db $(DB) --limit 12 && \
	$(BIN)/clue-stats analyse --db $(DB) && \
	echo "make demo: every game stored and reviewed in $$(( $$(date +%s) - start )) s"
	$(BIN)/clue-stats dashboard --db $(DB) --open

# the dashboard on $(DB) (or: make dashboard DB=path/to/file.duckdb PORT=8502)
dashboard: install
	$(BIN)/clue-stats dashboard --db $(DB) --port $(or $(PORT),8501) --open

test: check
	$(BIN)/python -m pytest

# the fast tier while working, under a minute: every test but those marked slow (about a second or more:
# browser, Dask, property tests, AppTest pages, processes; tests/conftest.py), without the static checks
test-fast: install
	$(BIN)/python -m pytest -m "not slow" -q

# the static checks `make test` runs first: lint and format (ruff), types (mypy)
check: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(MAKE) --no-print-directory typecheck

# mypy, strict on every package (pyproject.toml; the two modules around the compiled core read its plan untyped). mypy reads the package as it
# is installed, clue_stats.engine being engine/ and so on, from a tree of links in build/typecheck
# (it does not follow setuptools' editable finder); it reports files as clue_stats/engine/x.py.
TYPECHECK := build/typecheck
typecheck: install
	rm -rf $(TYPECHECK)/clue_stats && mkdir -p $(TYPECHECK)/clue_stats
	ln -s $(CURDIR)/clue_stats/* $(TYPECHECK)/clue_stats/
	for part in engine ingest analysis dashboard data; do ln -s $(CURDIR)/$$part $(TYPECHECK)/clue_stats/$$part; done
	cd $(TYPECHECK) && $(CURDIR)/$(BIN)/mypy --config-file $(CURDIR)/pyproject.toml -p clue_stats

# the wheel as a user gets it: built, installed into a fresh virtual environment outside the clone and
# run from an empty temporary folder (samples, ingest, games, report, board, the dashboard); CI runs it
wheel-check: install
	PYTHON=$(PYTHON) $(BIN)/python .ci/wheel_check.py

# the benchmarks, one after another (figures, not pass/fail; see docs/performance.md)
bench: install
	$(BIN)/python benchmarks/startup.py
	$(BIN)/python benchmarks/ingest.py
	$(BIN)/python benchmarks/simulate.py
	$(BIN)/python benchmarks/deduction.py
	$(BIN)/python benchmarks/best_gain.py
	$(BIN)/python benchmarks/notation.py
	$(BIN)/python benchmarks/review_cost.py
	$(BIN)/python benchmarks/ingest_analysis.py
	$(BIN)/python benchmarks/dashboard_speed.py

# the fuzzing tests with 200 times their examples (about 5 minutes): random bytes, random JSON,
# valid logs mutated record by record, every reader on random and mutated text, refused values
# (huge integers, lone surrogates, NaN, duplicate keys) and markup/escape sequences in every field
fuzz: install
	CLUE_STATS_FUZZ=200 $(BIN)/python -m pytest tests/test_reliability.py -k "never_escape or survives"

# the long one: 100,000 generated games, a 10,000-game slice analysed, 1,000 on Dask (about 15
# minutes on 2 cores)
bench-scale: install
	$(BIN)/python benchmarks/scale.py

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis $(DB) $(DB).wal

# the languages' catalogues (docs/translating.md): every message of the code and every --help text
# (clue_stats/help_screens.py, printed by clue_stats/help_texts.py) into each .po (new ones untranslated, gone ones dropped), then each .po
# compiled to the .mo the program reads; the same for the translated topics of docs/ (the docs
# catalogue: a block of a topic is a message, analysis/words/topics.py); then the catalogue check: no term
# the glossary forbids (analysis/locale/<lang>/forbidden-terms.txt), no count written by hand ('Zeile(n)')
LOCALES = analysis/locale
catalogues: install
	mkdir -p build
	$(BIN)/python -m clue_stats.help_texts > build/help_texts.py
	$(BIN)/pybabel extract -k N_ -k T_ -k n_:2,3 -k nT_:2,3 --no-location --sort-output --project clue-stats \
	  -o build/clue_stats.pot analysis clue_stats dashboard ingest engine build/help_texts.py
	$(BIN)/pybabel update -i build/clue_stats.pot -d $(LOCALES) -D clue_stats --ignore-obsolete \
	  --no-fuzzy-matching -w 100
	$(BIN)/pybabel compile -d $(LOCALES) -D clue_stats --statistics
	printf '[clue_stats_docs: **.md]\n' > build/docs.cfg
	$(BIN)/pybabel extract -F build/docs.cfg --no-location --sort-output --project clue-stats -o build/docs.pot docs
	for lang in $$(ls $(LOCALES)); do test -f $(LOCALES)/$$lang/LC_MESSAGES/docs.po || \
	  $(BIN)/pybabel init -i build/docs.pot -d $(LOCALES) -D docs -l $$lang -w 100; done
	$(BIN)/pybabel update -i build/docs.pot -d $(LOCALES) -D docs --ignore-obsolete --no-fuzzy-matching -w 100
	$(BIN)/pybabel compile -d $(LOCALES) -D docs --statistics
	$(BIN)/python -m clue_stats.catalogue_check  # the players' words (glossary) and no count written by hand
