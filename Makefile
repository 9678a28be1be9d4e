# The two commands of the README:
#   make lesson   create the environment and open the lesson (the student edition) in JupyterLab
#   make test     create/update the environment and run the whole test suite
# And for instructors: make solutions opens the notebooks with their solutions, and make release
# writes what students are given (_release/monopoly-lesson.zip: no solution, no answer key).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8888
STUDENT ?= _student
# JupyterLab refuses to run as root unless told; containers and CI machines often are root.
# As root it is started with --allow-root, and says so.
AS_ROOT := $(filter 0,$(shell id -u))

.PHONY: lesson solutions release test notebooks handouts student lint bench compiled-coverage clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamps: re-install when pyproject.toml changes.
# nbgrader is installed only for its ClearSolutions step (the student edition): keep its
# menus out of the lesson.
define NBGRADER_OFF
	$(BIN)/jupyter labextension disable --level=sys_prefix @jupyter/nbgrader
	for m in formgrader validate_assignment assignment_list course_list; do \
		$(BIN)/jupyter server extension disable --sys-prefix nbgrader.server_extensions.$$m; done
endef

# No terminals: the login token opens the lesson, not a shell on this machine.
ROOT_NOTE := Running JupyterLab as root (with --allow-root), as in a container.
JUPYTER_LAB = $(if $(AS_ROOT),echo "$(ROOT_NOTE)" && )$(BIN)/jupyter lab \
	--ip=127.0.0.1 --port=$(PORT) --ServerApp.terminals_enabled=False \
	--LabApp.app_settings_dir=$(CURDIR)/jupyter/settings $(if $(AS_ROOT),--allow-root)

# The fast movement engine (chapters 1 to 8) is compiled at install, in seconds; the whole
# game (chapter 9 on, under a minute) in the background as JupyterLab opens, unless numba's
# cache holds it (a kernel that needs it sooner waits for it, saying so). numba keeps them
# in its cache, and recompiles by itself when their code changes.
COMPILE_WHOLE_GAME = $(BIN)/python -m monopoly_lesson compile game --background

$(VENV)/.lesson-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[lesson,student]"
	$(NBGRADER_OFF)
	$(BIN)/python -m monopoly_lesson compile movement
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[lesson,handouts,student,dev]"
	$(NBGRADER_OFF)
	$(BIN)/python -m monopoly_lesson compile
	$(BIN)/python tests/game_scenarios.py  # and the single turn the rule tests play again
	touch $@ $(VENV)/.lesson-installed

# The student's command: the student edition, written to _student/ the first time only, so
# that a student's own work there is never overwritten (make student rewrites it).
lesson: $(VENV)/.lesson-installed | $(STUDENT)
	$(COMPILE_WHOLE_GAME)
	$(JUPYTER_LAB) --ServerApp.root_dir=$(STUDENT)

# The instructor's command: the notebooks with their solutions and stored outputs.
solutions: $(VENV)/.lesson-installed
	$(COMPILE_WHOLE_GAME)
	$(JUPYTER_LAB) --ServerApp.root_dir=notebooks

# What an instructor hands out: the student edition, the package without its answer key (a
# wheel) and the student's own make lesson, in _release/monopoly-lesson/ and zipped beside it.
release: $(VENV)/.lesson-installed
	$(BIN)/python tools/release.py --out _release

$(STUDENT): | $(VENV)/.lesson-installed
	$(BIN)/python tools/student_edition.py --out $(STUDENT)

# The tests run in parallel, one pytest-xdist worker per processor thread (conftest.py shares
# them out: a module or a notebook whole to one worker, the longest first).
# ruff without its cache: a cached file's verdict misses a change elsewhere (a new
# first-party module changes how its imports sort).
test: $(VENV)/.dev-installed
	$(BIN)/ruff check --no-cache .
	$(BIN)/ruff format --no-cache --check .
	$(BIN)/python -m pytest --nbval -n logical

# For authors: re-execute every notebook top to bottom and store its outputs.
notebooks: $(VENV)/.dev-installed
	$(BIN)/python tools/execute_notebooks.py

# HTML pages and PDF handouts under _handouts/, without Quarto (pandoc + Typst, nbconvert).
handouts: $(VENV)/.dev-installed
	$(BIN)/python tools/handouts.py --out _handouts

# The student edition: solutions replaced by placeholders (nbgrader's ClearSolutions).
# Writes over _student/: for the instructor preparing a class, not for a student's copy.
student: $(VENV)/.lesson-installed
	$(BIN)/python tools/student_edition.py --out _student

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(VENV)/.lesson-installed
	$(BIN)/python benchmarks/bench_import.py
	$(BIN)/python benchmarks/bench_compile.py
	$(BIN)/python benchmarks/bench_simulation.py
	$(BIN)/python benchmarks/bench_engines.py
	$(BIN)/python benchmarks/bench_game.py
	$(BIN)/python benchmarks/bench_fast_game.py
	$(BIN)/python benchmarks/bench_coach.py
	$(BIN)/python benchmarks/bench_check_submissions.py

# Every line of the compiled money rules proven run: the equality games with numba's JIT
# off, under coverage; fails if the engines disagree or a line never ran (about 8 minutes).
compiled-coverage: $(VENV)/.dev-installed
	$(BIN)/python tools/compiled_coverage.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis *.egg-info _handouts _book _student _release
