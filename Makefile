# The two README commands: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit bench bench-docs bench-sweep bench-scaling bench-understanding bench-continuation fixtures clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade "pip>=24"

$(STAMP): $(BIN)/python pyproject.toml constraints.txt
	$(BIN)/pip install --quiet -c constraints.txt -e '.[dev,client,bench,ray]'
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples

typecheck: $(STAMP)
	$(BIN)/mypy

test: lint typecheck docs-check
	$(BIN)/pytest -q

unit: $(STAMP)
	$(BIN)/pytest -q -m "not slow"

demo: $(STAMP)
	$(BIN)/python -m vac.demo

# `make bench` writes to bench-results/ (git-ignored); `make bench-docs`
# refreshes the committed figures in docs/bench/.
bench: $(STAMP)
	$(BIN)/pip install --quiet -c constraints.txt -e '.[dev,bench]'
	$(BIN)/vac bench --out bench-results

bench-docs: $(STAMP)
	$(BIN)/pip install --quiet -c constraints.txt -e '.[dev,bench]'
	$(BIN)/vac bench --out docs/bench

# The concurrency sweep (docs/latency.md, "Many sessions"): ~20 minutes here.
bench-sweep: $(STAMP)
	$(BIN)/pip install --quiet -c constraints.txt -e '.[dev,bench]'
	$(BIN)/vac bench --sessions 1,2,4,8 --arrival together --turns 4 --out docs/bench/sweep-together
	$(BIN)/vac bench --sessions 1,2,4,8 --arrival staggered --turns 4 --rate 4 \
		--out docs/bench/sweep-staggered

# Local inference against Ray Serve on a local cluster, same machine, same
# run (docs/scaling.md): ~10 minutes here. Stops any Ray on this host first.
bench-scaling: $(STAMP)
	-$(BIN)/ray stop --force
	$(BIN)/vac bench --sessions 1,4 --arrival together --turns 8 --out docs/bench/scaling-local
	RAY_worker_niceness=0 $(BIN)/ray start --head --num-cpus 2 --port 6390 \
		--include-dashboard=false --disable-usage-stats
	$(BIN)/vac bench --sessions 1,4 --arrival together --turns 8 \
		--config docs/bench/scaling-ray.toml --out docs/bench/scaling-ray
	$(BIN)/ray stop --force
	$(BIN)/python -m benchmarks.compare_sweeps docs/bench/scaling-local docs/bench/scaling-ray \
		--md docs/bench/scaling-compare.md

# The understanding benchmark (docs/understanding.md): the corpus spoken in
# five voices through a real daemon; refreshes docs/bench/understanding.*.
bench-continuation: $(STAMP)
	$(BIN)/python -m benchmarks.continuation --limit 24

bench-understanding: $(STAMP)
	$(BIN)/python -m benchmarks.understanding --split both \
		--out docs/bench/understanding.json --md docs/bench/understanding.md \
		--png docs/bench/understanding.png
	# With the user's natural pause (real time + 300 ms): a held-out subset.
	$(BIN)/python -m benchmarks.understanding --split heldout --limit 24 \
		--voices joe,espeak-en-us --realtime --no-typed \
		--out docs/bench/understanding-realtime.json \
		--md docs/bench/understanding-realtime.md \
		--png docs/bench/understanding-realtime.png

fixtures: $(STAMP)
	$(BIN)/python fixtures/generate.py

.PHONY: docs docs-check

# docs/config.md is generated from the config types (src/vac/daemon/config_doc.py).
docs: $(STAMP)
	$(BIN)/python -m vac.daemon.config_doc > docs/config.md.tmp
	mv docs/config.md.tmp docs/config.md

docs-check: $(STAMP)
	@$(BIN)/python -m vac.daemon.config_doc > $(VENV)/config.md.generated
	@diff -u docs/config.md $(VENV)/config.md.generated \
		|| { echo "docs/config.md is stale — run make docs" >&2; exit 1; }

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
