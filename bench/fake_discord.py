"""Discord's REST API as the delivery benchmark needs it: a local aiohttp server for the few routes
delivery uses, with Discord's global limit (50 requests per second per bot) and the 5 messages per
5 s of a channel, answering 429 with Discord's headers over a limit (``bench/delivery_bench.py``
says how it is used)."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import attrs
from aiohttp import web

GLOBAL_LIMIT = 50  # requests per second
CHANNEL_LIMIT, CHANNEL_PERIOD = 5, 5.0  # messages per channel
BOT_ID = 10**17
API = "/api/v10"


@attrs.define
class Window:
    """A fixed window, as Discord counts: ``limit`` requests from its first one for ``per`` s."""

    limit: int
    per: float
    used: int = 0
    resets: float = 0.0

    def take(self, now: float) -> float:
        """0 when a request may pass now (it is counted), else the wait until the reset."""
        if now >= self.resets:
            self.used, self.resets = 0, now + self.per
        if self.used >= self.limit:
            return self.resets - now
        self.used += 1
        return 0.0


class FakeDiscord:
    """The REST routes delivery uses, with latency and Discord's limits; records messages."""

    def __init__(self, latency: float) -> None:
        self.latency = latency
        self.global_window = Window(GLOBAL_LIMIT, 1.0)
        self.channels: dict[int, Window] = defaultdict(
            lambda: Window(CHANNEL_LIMIT, CHANNEL_PERIOD)
        )
        self.ids = itertools.count(2 * 10**17)
        self.dms: dict[int, int] = {}  # user -> DM channel
        #: (time, channel, nonce) of every message created, in order.
        self.messages: list[tuple[float, int, str]] = []
        self.requests = 0
        self.routes: dict[str, int] = defaultdict(int)
        self.rejected = 0  # 429 answers
        self.global_rejected = 0
        #: Requests per channel (any route naming it), and the DM channels opened (a request
        #: each, even for a channel opened before: a bot that forgot its id asks again).
        self.by_channel: dict[int, int] = defaultdict(int)
        self.dm_opens = 0
        #: The mafia rooms' members (thread -> users), and the reads of a room's member list
        #: (thread -> count): the server watch's, none of them the work of a deadline.
        self.room_members: dict[int, set[int]] = defaultdict(set)
        self.member_reads: dict[int, int] = defaultdict(int)

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self.limits])
        app.router.add_get(f"{API}/users/@me", self.me)
        app.router.add_get(f"{API}/oauth2/applications/@me", self.application)
        app.router.add_post(f"{API}/channels/{{cid}}/messages", self.create_message)
        app.router.add_get(f"{API}/channels/{{cid}}/messages", self.history)
        app.router.add_post(f"{API}/users/@me/channels", self.open_dm)
        app.router.add_route("*", f"{API}/channels/{{cid}}/thread-members/{{uid}}", self.member)
        app.router.add_get(f"{API}/channels/{{cid}}/thread-members", self.members)
        app.router.add_patch(f"{API}/channels/{{cid}}", self.edit_channel)
        return app

    @web.middleware
    async def limits(self, request: web.Request, handler: Callable[..., Any]) -> web.StreamResponse:
        await asyncio.sleep(self.latency / 2)  # on the way there
        self.requests += 1
        resource = request.match_info.route.resource
        self.routes[f"{request.method} {resource.canonical if resource else request.path}"] += 1
        if request.match_info.get("cid"):
            self.by_channel[int(request.match_info["cid"])] += 1
        elif request.path.endswith("/users/@me/channels"):
            self.dm_opens += 1
        now = time.monotonic()
        wait = self.global_window.take(now)
        if wait:
            self.rejected += 1
            self.global_rejected += 1
            response = self.too_many(wait, scope="global", is_global=True)
        else:
            channel = request.match_info.get("cid")
            bucket = self.channels[int(channel)] if channel and request.method == "POST" else None
            wait = bucket.take(now) if bucket is not None and "messages" in request.path else 0.0
            if wait:
                self.rejected += 1
                response = self.too_many(wait, scope="user", is_global=False)
            else:
                response = await handler(request)
            if bucket is not None and "messages" in request.path:
                remaining = max(0, bucket.limit - bucket.used)
                reset_after = max(0.0, bucket.resets - now)
                name = "create-message"
            else:  # a route without a limit of its own here (Discord documents none)
                remaining, reset_after, name = 1000, 1.0, f"{request.method}-other"
            response.headers.update(
                {
                    "X-RateLimit-Limit": str(bucket.limit if bucket is not None else 1000),
                    "X-RateLimit-Remaining": str(remaining),
                    "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                    "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                    "X-RateLimit-Bucket": name,
                }
            )
        await asyncio.sleep(self.latency / 2)  # and back
        return response

    @staticmethod
    def too_many(wait: float, *, scope: str, is_global: bool) -> web.Response:
        body = {"message": "You are being rate limited.", "retry_after": round(wait, 3)}
        body["global"] = is_global
        headers = {
            "Retry-After": str(max(1, round(wait))),
            "X-RateLimit-Scope": scope,
            "Via": "1.1 google",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        return json_response(body, status=429, headers=headers)

    async def me(self, request: web.Request) -> web.Response:
        return json_response(user(BOT_ID, "bench-bot", bot=True))

    async def application(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "id": str(BOT_ID),
                "name": "bench",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": user(1, "owner"),
            }
        )

    async def create_message(self, request: web.Request) -> web.Response:
        cid = int(request.match_info["cid"])
        body = await request.json() if request.content_type == "application/json" else {}
        nonce = str(body.get("nonce") or "")
        self.messages.append((time.monotonic(), cid, nonce))
        return json_response(
            {
                "id": str(next(self.ids)),
                "channel_id": str(cid),
                "author": user(BOT_ID, "bench-bot", bot=True),
                "content": body.get("content") or "",
                "timestamp": datetime.now(UTC).isoformat(),
                "edited_timestamp": None,
                "tts": False,
                "mention_everyone": False,
                "mentions": [],
                "mention_roles": [],
                "attachments": [],
                "embeds": body.get("embeds") or [],
                "pinned": False,
                "type": 0,
                "nonce": nonce,
            }
        )

    async def history(self, request: web.Request) -> web.Response:
        return json_response([])

    async def open_dm(self, request: web.Request) -> web.Response:
        user_id = int((await request.json())["recipient_id"])
        channel = self.dms.setdefault(user_id, next(self.ids))
        return json_response(
            {"id": str(channel), "type": 1, "recipients": [user(user_id, f"u{user_id}")]}
        )

    async def member(self, request: web.Request) -> web.Response:
        """A thread member added (PUT) or taken out (DELETE)."""
        cid, uid = int(request.match_info["cid"]), int(request.match_info["uid"])
        if request.method == "PUT":
            self.room_members[cid].add(uid)
        elif request.method == "DELETE":
            self.room_members[cid].discard(uid)
        return web.Response(status=204)

    async def members(self, request: web.Request) -> web.Response:
        cid = int(request.match_info["cid"])
        self.member_reads[cid] += 1
        stamp = datetime.now(UTC).isoformat()
        return json_response(
            [
                {"id": str(cid), "user_id": str(uid), "join_timestamp": stamp, "flags": 0}
                for uid in sorted(self.room_members[cid])
            ]
        )

    async def edit_channel(self, request: web.Request) -> web.Response:
        body = await request.json()
        cid = int(request.match_info["cid"])
        return json_response(thread(cid, 0, "room", **body))


def json_response(
    data: Any, *, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON as Discord sends it: ``Content-Type: application/json`` exactly (discord.py reads
    anything else as text)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def user(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "discriminator": "0", "avatar": None, "bot": bot}


def thread(cid: int, parent: int, name: str, **meta: Any) -> dict[str, Any]:
    return {
        "id": str(cid),
        "type": 12,
        "name": name,
        "parent_id": str(parent),
        "owner_id": str(BOT_ID),
        "message_count": 0,
        "member_count": 4,
        "thread_metadata": {
            "archived": bool(meta.get("archived", False)),
            "locked": bool(meta.get("locked", False)),
            "auto_archive_duration": 10080,
            "archive_timestamp": datetime.now(UTC).isoformat(),
        },
    }
