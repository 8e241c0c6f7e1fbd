# Two commands do everything on a fresh machine:
#   make run    - set up the virtualenv and run the bot (needs DISCORD_TOKEN)
#   make test   - set up the virtualenv and run the whole suite (ruff, mypy, pytest)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv run test lint typecheck pytest bench demo clean

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

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/python -m pytest -q

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
