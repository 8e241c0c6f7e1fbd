# The bot's image: `docker compose up -d` (compose.yaml, with PostgreSQL), or alone with a
# SQLite store in the /data volume:
#   docker build -t forum-mafia .
#   docker run -d --name mafia -v mafia-data:/data -e DISCORD_TOKEN=... forum-mafia
# docs/OPERATIONS.md says the rest (secrets, backups, metrics, restoring).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# pg_dump for `main.py backup` of a PostgreSQL store (PostgreSQL 15's client, as in compose.yaml).
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client-15 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# The pinned runtime requirements first: a change of code does not reinstall them.
COPY requirements.txt ./
RUN pip install -r requirements.txt
COPY . .

# A user of its own, no root; the store (SQLite), backups and anything else written in /data.
RUN useradd --system --uid 10001 --user-group --home-dir /data --no-create-home mafia \
    && mkdir -p /data \
    && chown mafia:mafia /data
USER mafia
VOLUME ["/data"]
ENV MAFIA_DB=/data/mafia.db \
    MAFIA_LOG_DIR=- \
    MAFIA_METRICS_HOST=0.0.0.0

# Healthy while the bot beats in its store (main.py health: by the pace of its games, R59).
HEALTHCHECK --interval=30s --timeout=15s --start-period=90s --retries=3 \
    CMD ["python", "main.py", "health"]

# SIGTERM stops the bot as Ctrl-C does: the message being sent finishes (5 s at most), the
# store closes; Docker waits 10 s (compose.yaml gives 30) before it kills.
STOPSIGNAL SIGTERM
CMD ["python", "main.py", "run"]
