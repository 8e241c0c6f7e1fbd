#!/usr/bin/env bash
# `make test`: the whole suite on this machine, with everything it can set up itself.
#
# 1. System packages the suite uses: Chromium (the archive is checked in a real browser, with a
#    Cyrillic font for its screenshots) and PostgreSQL (the store's suites run on both engines).
#    Installed with apt-get when missing and allowed (root, or sudo without a password).
# 2. ruff (lint and format check), mypy, then pytest in parallel (pytest-xdist, one worker per
#    core; each worker starts its own PostgreSQL server, temporary files and browser).
#
# Where a package cannot be installed, the tests that need it are skipped and the run ends with
# one line naming what was skipped and the command that installs it. In CI (CI=true, or
# MAFIA_REQUIRE_SYSTEM=1) nothing is skipped: a missing package is a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin

strict=0
if [ "${CI:-}" = "true" ] || [ "${MAFIA_REQUIRE_SYSTEM:-0}" = "1" ]; then
    strict=1
fi

have_browser() { [ -x /usr/bin/chromium ] || command -v chromium >/dev/null 2>&1; }
have_pg() {
    [ -n "${MAFIA_TEST_PG:-}" ] && return 0
    ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1
}

packages=()
have_browser || packages+=(chromium fonts-dejavu-core)
have_pg || packages+=(postgresql)

if [ "${#packages[@]}" -gt 0 ]; then
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            sudo=(sudo -n)
        else
            sudo=(none)
        fi
    fi
    if [ "${sudo[0]:-}" != "none" ] && command -v apt-get >/dev/null 2>&1; then
        echo "make test: installing ${packages[*]} (apt-get)"
        "${sudo[@]}" apt-get update -qq \
            && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
                apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null \
            || echo "make test: apt-get could not install ${packages[*]}"
    fi
fi

skipped=()
missing=()
if ! have_browser; then
    skipped+=("the browser tests (Chromium)")
    missing+=(chromium fonts-dejavu-core)
    [ "$strict" = 1 ] || export MAFIA_SKIP_BROWSER=1
fi
if ! have_pg; then
    skipped+=("the PostgreSQL tests")
    missing+=(postgresql)
fi
if [ "$strict" = 1 ]; then
    export MAFIA_REQUIRE_PG=1
fi

status=0
"$BIN/ruff" check . || status=1
"$BIN/ruff" format --check --quiet . || { echo "ruff format would change the files above"; status=1; }
"$BIN/mypy" || status=1
workers="${MAFIA_TEST_WORKERS:-auto}"
"$BIN/python" -m pytest -q -n "$workers" --dist loadfile || status=1

if [ "${#skipped[@]}" -gt 0 ] && [ "$strict" = 0 ]; then
    joined=$(printf '%s, ' "${skipped[@]}")
    echo "make test: skipped ${joined%, }: install them with" \
        "'sudo apt-get install ${missing[*]}' and run make test again"
fi
exit "$status"
