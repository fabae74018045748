# Two commands do everything on a fresh machine with Python 3, make and bash:
#   make lab    set up .venv and open the course in JupyterLab
#   make test   set up .venv and run the whole test suite (lint, unit, property,
#               notebook and browser tests); .ci/run runs exactly this
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

# JupyterLab's shipped defaults for this environment (no kernel dialog, no news toast,
# no update check): JupyterLab reads them from <prefix>/share/jupyter/lab/settings/.
OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.json

.PHONY: lab instructor test labs bench

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.lab-ready: binder/requirements.txt pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -r binder/requirements.txt
	$(BIN)/pip install -q --no-deps -e .
	$(BIN)/python -m gpusim.exercises.warm  # numba compiles now, not in a lab's first cell
	touch $@

$(OVERRIDES): binder/overrides.json | $(BIN)/python
	install -D -m 644 binder/overrides.json $@

$(VENV)/.test-ready: tests/requirements.txt $(VENV)/.lab-ready
	$(BIN)/pip install -q -r tests/requirements.txt
	touch $@

ROOT_FLAG = $$([ "$$(id -u)" = 0 ] && echo --allow-root)

# Students see labs/ only (its README.md is the syllabus); instructors see everything.
lab: $(VENV)/.lab-ready $(OVERRIDES)
	cd labs && ../$(BIN)/jupyter lab $(ROOT_FLAG) 00_tour.ipynb

instructor: $(VENV)/.lab-ready $(OVERRIDES)
	$(BIN)/jupyter lab $(ROOT_FLAG) solutions/00_tour.ipynb

# A stored output must not depend on the CPU: the solutions run again with numba
# compiling for a generic core and OpenBLAS taking an old core's kernels (other sums'
# orders), so a CPU-dependent output fails on every machine, not only on another one.
OTHER_CPU = NUMBA_CPU_NAME=generic OPENBLAS_CORETYPE=$$([ "$$(uname -m)" = x86_64 ] && echo Prescott || echo ARMV8)

test: $(VENV)/.test-ready $(OVERRIDES)
	bash tests/ensure_chromium.sh
	$(BIN)/ruff check .
	$(BIN)/python course/make_labs.py --check
	$(BIN)/python -m pytest --nbval solutions
	env $(OTHER_CPU) $(BIN)/python -m pytest --nbval solutions -p no:cacheprovider
	$(BIN)/python -m pytest tests --durations=10

# Regenerate the student labs from the instructor solutions.
labs: $(VENV)/.lab-ready
	$(BIN)/python course/make_labs.py

bench: $(VENV)/.test-ready
	$(BIN)/python benchmarks/run.py
