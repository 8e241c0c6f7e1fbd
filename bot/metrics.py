"""Prometheus metrics of a running bot (opt-in: ``MAFIA_METRICS_PORT``), for a server admin's
monitor. What each metric means, and two example alerts: docs/OPERATIONS.md.

One :class:`Metrics` per bot, on its own registry (tests start several bots in one process),
served by prometheus-client's HTTP server in its own thread, on 127.0.0.1 unless
``MAFIA_METRICS_HOST`` says otherwise (the numbers name no member, but a monitor is not the
world). What is counted is told by the parts that know it, each through one narrow call:

- the command tree (``bot/tree.py``): each command's outcome and latency (:meth:`interaction`);
- the delivery (``bot/delivery/``): each outbox row's outcome by kind (:meth:`delivery`);
- the HTTP trace of ``bot/delivery/sender.global_rate_trace``: Discord's answers, 429s apart
  (:meth:`response`);
- the game clock (``bot/clock.py``): the time from a deadline to its results handed to
  Discord (:meth:`results_lag`);
- the store (:attr:`db.tx.Engine.observer`): each operation's latency.

What is a state, not an event (the gateway, the running games, the outbox's backlog) is read
when the monitor scrapes (:class:`_StateCollector`); the backlog asks the store on the bot's
event loop, waiting at most :data:`SCRAPE_STORE_SECONDS` (a busy loop shows the last value).
"""

from __future__ import annotations

import asyncio
import logging
import math
import threading
from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Final, Protocol
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, Counter, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from core.service import GameService
from db.interface import GameStore

log = logging.getLogger(__name__)

#: A scrape waits this long at most for the store's count of the outbox.
SCRAPE_STORE_SECONDS: Final[float] = 2.0

#: Interactions answer within Discord's 3 s; the buckets resolve the fast path too.
INTERACTION_BUCKETS: Final[tuple[float, ...]] = (
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.0,
    3.0,
    5.0,
    10.0,
)
#: A deadline's results go out in seconds; a stuck delivery takes minutes.
LAG_BUCKETS: Final[tuple[float, ...]] = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 900.0)
STORE_BUCKETS: Final[tuple[float, ...]] = (
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    1.0,
    5.0,
)

#: The outcomes of a command: done, refused with a reason (a player's mistake or a rule),
#: failed (the bot's error: logged).
OUTCOMES: Final[tuple[str, ...]] = ("accepted", "refused", "failed")


class Observed(Protocol):
    """What the metrics read of the bot (``bot.client.MafiaBot``)."""

    @property
    def gateway_up(self) -> bool: ...

    @property
    def latency(self) -> float: ...

    @property
    def store(self) -> GameStore: ...

    @property
    def service(self) -> GameService: ...


class Metrics:
    """The bot's metrics; every method is cheap and never raises into its caller."""

    def __init__(self, bot: Observed) -> None:
        self.bot = bot
        self.registry = CollectorRegistry(auto_describe=True)
        self.interactions = Counter(
            "mafia_interactions",
            "Slash and context-menu commands answered, by command and outcome "
            "(accepted, refused, failed).",
            ["command", "outcome"],
            registry=self.registry,
        )
        self.interaction_seconds = Histogram(
            "mafia_interaction_seconds",
            "Time from a command's arrival to its end, by command.",
            ["command"],
            buckets=INTERACTION_BUCKETS,
            registry=self.registry,
        )
        self.deliveries = Counter(
            "mafia_deliveries",
            "Outbox rows handled, by kind and outcome (sent; blocked: a permission or "
            "channel missing, the hosts told; failed: will be retried).",
            ["kind", "outcome"],
            registry=self.registry,
        )
        self.responses = Counter(
            "mafia_discord_responses",
            "Discord's answers to the bot's REST requests, by status class (2xx, 3xx, 4xx, "
            "429, 5xx).",
            ["status"],
            registry=self.registry,
        )
        self.rate_limited = Counter(
            "mafia_discord_429",
            "Requests Discord answered 429 (rate limited), by scope (user, global, shared).",
            ["scope"],
            registry=self.registry,
        )
        self.lag = Histogram(
            "mafia_results_lag_seconds",
            "Time from a turn's deadline to its results handed to Discord (or to the hosts' "
            "review), on the game clock.",
            buckets=LAG_BUCKETS,
            registry=self.registry,
        )
        self.store_seconds = Histogram(
            "mafia_store_operation_seconds",
            "Store operations' latency, by operation.",
            ["operation"],
            buckets=STORE_BUCKETS,
            registry=self.registry,
        )
        self.registry.register(_StateCollector(self))
        self._backlog: tuple[int, float | None] = (0, None)
        self._server: WSGIServer | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._store_observed: object | None = None

    # --- what the parts tell -----------------------------------------------------------------

    def interaction(self, command: str, outcome: str, seconds: float | None) -> None:
        self.interactions.labels(command, outcome).inc()
        if seconds is not None and seconds >= 0:
            self.interaction_seconds.labels(command).observe(seconds)

    def delivery(self, kind: str, outcome: str, count: int = 1) -> None:
        self.deliveries.labels(kind, outcome).inc(count)

    def response(self, status: int, headers: Mapping[str, str]) -> None:
        if status == 429:
            self.responses.labels("429").inc()
            if headers.get("X-RateLimit-Global", "").lower() == "true":
                scope = "global"
            else:
                scope = headers.get("X-RateLimit-Scope", "user").lower()
            self.rate_limited.labels(
                scope if scope in ("user", "global", "shared") else "user"
            ).inc()
        else:
            self.responses.labels(f"{status // 100}xx").inc()

    def results_lag(self, seconds: float) -> None:
        self.lag.observe(max(0.0, seconds))

    def store_operation(self, operation: str, seconds: float) -> None:
        self.store_seconds.labels(operation).observe(seconds)

    # --- serving -----------------------------------------------------------------------------

    def serve(self, host: str, port: int) -> None:
        """Listen on ``host:port`` (``/metrics``) and time the store's operations."""
        self._loop = asyncio.get_running_loop()
        store = self.bot.store
        store.observer = self.store_operation
        self._store_observed = store
        self._server, self._thread = start_http_server(port, host, registry=self.registry)
        log.info("metrics on http://%s:%d/metrics", host, self.port)

    @property
    def port(self) -> int:
        """The port listened on (the one asked for, or the one given for port 0)."""
        if self._server is None:
            raise RuntimeError("the metrics are not served")
        return int(self._server.server_port)

    def stop(self) -> None:
        if self._store_observed is not None:
            self._store_observed.observer = None  # type: ignore[attr-defined]
            self._store_observed = None
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()

    # --- read at a scrape --------------------------------------------------------------------

    def backlog(self) -> tuple[int, float | None]:
        """The outbox's pending rows and the oldest one's age (seconds), asked of the store on
        the bot's loop from the scraping thread; the last known values if it takes too long."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return self._backlog
        try:
            future = asyncio.run_coroutine_threadsafe(self._read_backlog(), loop)
            self._backlog = future.result(timeout=SCRAPE_STORE_SECONDS)
        except Exception:  # a closed store, a busy loop: the last values
            log.debug("could not read the outbox's backlog", exc_info=True)
        return self._backlog

    async def _read_backlog(self) -> tuple[int, float | None]:
        count, oldest = await self.bot.store.outbox_backlog()
        if oldest is None:
            return count, None
        now: datetime = self.bot.service.clock()
        return count, max(0.0, (now - oldest).total_seconds())


class _StateCollector(Collector):
    """What is read when the monitor scrapes."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def describe(self) -> Iterator[Metric]:
        return iter(())  # the families below are built at each scrape

    def collect(self) -> Iterator[Metric]:
        bot = self.metrics.bot
        yield GaugeMetricFamily(
            "mafia_gateway_connected",
            "1 while Discord's gateway is connected (the heartbeat beats), else 0.",
            value=1.0 if bot.gateway_up else 0.0,
        )
        latency = bot.latency
        if bot.gateway_up and math.isfinite(latency):
            yield GaugeMetricFamily(
                "mafia_gateway_latency_seconds",
                "The gateway's heartbeat latency, as discord.py measures it.",
                value=latency,
            )
        try:
            running = len(bot.service.live)
        except RuntimeError:  # not started yet
            running = 0
        yield GaugeMetricFamily(
            "mafia_running_games", "Games running in this process.", value=running
        )
        count, age = self.metrics.backlog()
        yield GaugeMetricFamily(
            "mafia_outbox_pending",
            "Announcements waiting to be sent (every game's in the store).",
            value=count,
        )
        yield GaugeMetricFamily(
            "mafia_outbox_oldest_age_seconds",
            "Age of the oldest announcement waiting to be sent (0 when none waits).",
            value=0.0 if age is None else age,
        )
