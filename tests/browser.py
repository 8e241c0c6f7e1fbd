"""A headless Chromium for tests that must see a page as a reader does (the game archive).

:func:`launch` starts Debian's ``/usr/bin/chromium`` headless on a fresh profile, with the
DevTools port picked by Chromium (``--remote-debugging-port=0``, read back from the profile's
``DevToolsActivePort`` file), and talks the DevTools protocol over a websocket with aiohttp
(already installed: discord.py depends on it). A :class:`Page` opens a URL (a ``file://``
archive) and waits for its load event, then reads ``document.body.innerText``, evaluates
JavaScript, emulates ``prefers-color-scheme`` and saves full-page PNG screenshots.

Tests get one from the ``browser`` fixture (tests/conftest.py). Without Chromium the test
FAILS with the way to install it (``.ci/run`` installs it), unless ``MAFIA_SKIP_BROWSER=1``
says to skip browser tests on this machine.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import math
import os
import shutil
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Literal

import aiohttp
import pytest

#: Where Debian's ``chromium`` package puts the browser; ``MAFIA_CHROMIUM`` overrides it.
CHROMIUM = Path(os.environ.get("MAFIA_CHROMIUM", "/usr/bin/chromium"))
#: Seconds to wait for the browser to start, a page to load, or any reply.
TIMEOUT = 30.0
#: The window a page is laid out in (a screenshot is as wide, and as tall as the page).
VIEWPORT = (1000, 800)

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",  # containers often have a tiny /dev/shm
    "--hide-scrollbars",
    "--mute-audio",
    "--remote-debugging-port=0",
)


class BrowserError(Exception):
    """Chromium failed: it did not start, a command was refused, a page threw."""


def require_chromium() -> Path:
    """The browser, or a skip when ``MAFIA_SKIP_BROWSER=1``, else a clear failure."""
    if os.environ.get("MAFIA_SKIP_BROWSER") == "1":
        pytest.skip("MAFIA_SKIP_BROWSER=1: browser tests skipped")
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        pytest.fail(
            f"{CHROMIUM} is missing: the archive is checked in a real browser. Install "
            "Debian's chromium (`apt-get install -y --no-install-recommends chromium`; "
            ".ci/run does it), point MAFIA_CHROMIUM at a Chromium, or set MAFIA_SKIP_BROWSER=1 "
            "to skip these tests",
            pytrace=False,
        )
    return CHROMIUM


class _Connection:
    """One DevTools websocket: commands matched to their replies by id, events to waiters."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self._ws = ws
        self._next_id = 0
        self._replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._waiters: list[tuple[str, str | None, asyncio.Future[dict[str, Any]]]] = []
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        error: BaseException = BrowserError("the browser closed the DevTools connection")
        try:
            async for message in self._ws:
                if message.type is not aiohttp.WSMsgType.TEXT:
                    continue
                data = message.json()
                if "id" in data:
                    future = self._replies.pop(int(data["id"]), None)
                    if future is not None and not future.done():
                        future.set_result(data)
                    continue
                for waiter in list(self._waiters):
                    method, session, future = waiter
                    if data.get("method") == method and data.get("sessionId") == session:
                        self._waiters.remove(waiter)
                        if not future.done():
                            future.set_result(data.get("params", {}))
        except Exception as e:  # pragma: no cover - a broken socket
            error = e
        for future in [*self._replies.values(), *(w[2] for w in self._waiters)]:
            if not future.done():
                future.set_exception(error)

    def expect(self, method: str, session: str | None) -> asyncio.Future[dict[str, Any]]:
        """A future for the next event ``method`` of ``session``; ask before causing it."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiters.append((method, session, future))
        return future

    async def send(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None
    ) -> dict[str, Any]:
        """Run a command; its result, or :class:`BrowserError` with the browser's message."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[self._next_id] = future
        await self._ws.send_json(message)
        reply = await asyncio.wait_for(future, TIMEOUT)
        if "error" in reply:
            raise BrowserError(f"{method}: {reply['error'].get('message', reply['error'])}")
        result: dict[str, Any] = reply.get("result", {})
        return result

    async def close(self) -> None:
        await self._ws.close()
        with contextlib.suppress(Exception):
            await self._reader


class Page:
    """One tab, attached in flat mode (its commands carry its session id)."""

    def __init__(self, conn: _Connection, target_id: str, session: str) -> None:
        self._conn = conn
        self.target_id = target_id
        self.session = session

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Any DevTools command on this page."""
        return await self._conn.send(method, params, self.session)

    async def goto(self, url: str) -> None:
        """Open ``url`` (e.g. ``Path.as_uri()``) and wait for its load event."""
        loaded = self._conn.expect("Page.loadEventFired", self.session)
        result = await self.send("Page.navigate", {"url": url})
        if result.get("errorText"):
            loaded.cancel()
            raise BrowserError(f"cannot open {url}: {result['errorText']}")
        await asyncio.wait_for(loaded, TIMEOUT)

    async def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression (promises awaited), as JSON; a thrown error
        is a :class:`BrowserError`."""
        result = await self.send(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise BrowserError(f"{expression[:60]!r} threw: {text}")
        return result.get("result", {}).get("value")

    async def text(self) -> str:
        """What a reader sees: ``document.body.innerText`` (rendered text, no markup)."""
        return str(await self.evaluate("document.body.innerText"))

    async def color_scheme(self, scheme: Literal["light", "dark"]) -> None:
        """Emulate the reader's ``prefers-color-scheme``."""
        await self.send(
            "Emulation.setEmulatedMedia",
            {"features": [{"name": "prefers-color-scheme", "value": scheme}]},
        )

    async def screenshot(self, path: Path, *, full_page: bool = True) -> Path:
        """Save a PNG of the page: all of it (``full_page``), or the viewport."""
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            metrics = await self.send("Page.getLayoutMetrics")
            size = metrics.get("cssContentSize") or metrics["contentSize"]
            width, height = max(1, math.ceil(size["width"])), max(1, math.ceil(size["height"]))
            params["captureBeyondViewport"] = True
            params["clip"] = {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}
        result = await self.send("Page.captureScreenshot", params)
        path.write_bytes(base64.b64decode(result["data"]))
        return path

    async def close(self) -> None:
        await self._conn.send("Target.closeTarget", {"targetId": self.target_id})


class Browser:
    """A running headless Chromium and its DevTools connection. Use :func:`launch`."""

    def __init__(
        self,
        process: asyncio.subprocess.Process,
        http: aiohttp.ClientSession,
        conn: _Connection,
        profile: Path,
    ) -> None:
        self.process = process
        self._http = http
        self._conn = conn
        self.profile = profile

    async def new_page(self, viewport: tuple[int, int] = VIEWPORT) -> Page:
        """A new blank tab laid out at ``viewport`` (CSS pixels, scale 1)."""
        target = await self._conn.send("Target.createTarget", {"url": "about:blank"})
        attached = await self._conn.send(
            "Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}
        )
        page = Page(self._conn, target["targetId"], attached["sessionId"])
        await page.send("Page.enable")
        await page.send("Runtime.enable")
        width, height = viewport
        await page.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        return page

    async def open(self, url: str, viewport: tuple[int, int] = VIEWPORT) -> Page:
        """A new tab showing ``url``, loaded."""
        page = await self.new_page(viewport)
        await page.goto(url)
        return page

    async def close(self) -> None:
        """Ask the browser to quit, end the process it started if it does not, close the
        connection."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._conn.send("Browser.close"), 5)
        await self._conn.close()
        await self._http.close()
        await _stop(self.process)


async def _stop(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
        try:
            await asyncio.wait_for(process.wait(), 10)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()


async def _devtools_address(profile: Path, process: asyncio.subprocess.Process) -> str:
    """``ws://127.0.0.1:PORT/devtools/browser/ID`` from the profile's DevToolsActivePort
    (written once the port is open)."""
    marker = profile / "DevToolsActivePort"
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while loop.time() < deadline:
        if process.returncode is not None:
            raise BrowserError(f"chromium exited with status {process.returncode}")
        lines = marker.read_text().split("\n") if marker.exists() else []
        if len(lines) >= 2 and lines[0].strip().isdigit() and lines[1].strip():
            return f"ws://127.0.0.1:{lines[0].strip()}{lines[1].strip()}"
        await asyncio.sleep(0.05)
    raise BrowserError(f"chromium wrote no {marker.name} within {TIMEOUT:.0f} s")


@contextlib.asynccontextmanager
async def launch(executable: Path | None = None) -> AsyncIterator[Browser]:
    """Start Chromium headless on a fresh profile (removed afterwards) and connect to it."""
    exe = executable or require_chromium()
    profile = Path(tempfile.mkdtemp(prefix="mafia-chromium-"))
    log = (profile.parent / f"{profile.name}.log").open("wb")
    process = await asyncio.create_subprocess_exec(
        str(exe),
        *FLAGS,
        f"--user-data-dir={profile}",
        "about:blank",
        stdin=asyncio.subprocess.DEVNULL,
        stdout=log,
        stderr=log,
    )
    http: aiohttp.ClientSession | None = None
    browser: Browser | None = None
    try:
        try:
            address = await _devtools_address(profile, process)
        except BrowserError as e:
            log.flush()
            tail = Path(log.name).read_text(errors="replace")[-2000:]
            raise BrowserError(f"{e}; its output:\n{tail}") from e
        http = aiohttp.ClientSession()
        ws = await http.ws_connect(address, max_msg_size=0)  # screenshots are large
        browser = Browser(process, http, _Connection(ws), profile)
        yield browser
    finally:
        if browser is not None:
            await browser.close()
        else:
            if http is not None:
                await http.close()
            await _stop(process)
        log.close()
        Path(log.name).unlink(missing_ok=True)
        shutil.rmtree(profile, ignore_errors=True)
