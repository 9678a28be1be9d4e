# The two commands of the README:
#   make lesson   create the environment and open the lesson in JupyterLab
#   make test     create/update the environment and run the whole test suite
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8888
# JupyterLab refuses to run as root unless told; containers and CI machines often are root.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: lesson test notebooks handouts student lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamps: re-install when pyproject.toml changes.
$(VENV)/.lesson-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[lesson]"
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[lesson,handouts,student,dev]"
	# nbgrader is here only for its ClearSolutions step: keep its menus out of the lesson.
	$(BIN)/jupyter labextension disable --level=sys_prefix @jupyter/nbgrader
	for m in formgrader validate_assignment assignment_list course_list; do \
		$(BIN)/jupyter server extension disable --sys-prefix nbgrader.server_extensions.$$m; done
	touch $@ $(VENV)/.lesson-installed

lesson: $(VENV)/.lesson-installed
	$(BIN)/jupyter lab --ip=127.0.0.1 --port=$(PORT) --ServerApp.root_dir=notebooks \
		--LabApp.app_settings_dir=$(CURDIR)/jupyter/settings $(ALLOW_ROOT)

test: $(VENV)/.dev-installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest --nbval

# For authors: re-execute every notebook top to bottom and store its outputs.
notebooks: $(VENV)/.dev-installed
	$(BIN)/python tools/execute_notebooks.py

# HTML pages and PDF handouts under _handouts/, without Quarto (pandoc + Typst, nbconvert).
handouts: $(VENV)/.dev-installed
	$(BIN)/python tools/handouts.py --out _handouts

# The student edition: solutions replaced by placeholders (nbgrader's ClearSolutions).
student: $(VENV)/.dev-installed
	$(BIN)/python tools/student_edition.py --out _student

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(VENV)/.lesson-installed
	$(BIN)/python benchmarks/bench_simulation.py
	$(BIN)/python benchmarks/bench_engines.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis *.egg-info _handouts _book _student
