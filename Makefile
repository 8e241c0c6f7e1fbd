# Two commands do everything on a fresh machine:
#   make run    - set up the virtualenv and run the bot (needs DISCORD_TOKEN)
#   make test   - set up the virtualenv and the system packages the suite uses (Chromium,
#                 PostgreSQL, when it may install them) and run the whole suite (ruff, mypy,
#                 pytest in parallel); see tools/test.sh
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv run test lint format typecheck pytest bench demo clean

venv: $(STAMP)

$(STAMP): requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python main.py run

demo: $(STAMP)
	$(BIN)/python main.py demo

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist loadfile

test: $(STAMP)
	bash tools/test.sh

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
