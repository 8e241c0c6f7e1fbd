"""Setting up and signing up: a new game, join, wish, leave, a member leaving the server, the
role list, and the start (R13, R44, R58). Part of :class:`core.service.GameService`.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable

from core.ghosts import ghost_params
from core.live import LiveGame, schedule_of
from core.review import MAX_REVIEW_MINUTES, until_of
from core.service_base import ServiceBase, ServiceError, items, setup_refusal
from core.substitute_service import barred_refusal
from db.errors import NotFound, OpenGameExists, SignupFull
from db.models import GameRecord, PlayerSpec
from rules.announce import Announcement, turn_open_announcement
from rules.engine import rebuild
from rules.schedule import first_deadline, forum_hours
from rules.setup import MAX_PLAYERS, SetupError, assign_nicknames, deal, parse_role_list, preset
from rules.setup import validate_setup as validate_role_list
from rules.wishes import is_wishable, roles_from_wishes, wish_tally

log = logging.getLogger(__name__)


def table_seed(game_seed: int, table_id: int, guild_id: int) -> int:
    """The seed of a new game when the bot has a fixed one (demos): the server's first table
    plays it, any other table a seed of its own derived from it, so two tables do not deal
    alike."""
    return game_seed if table_id == guild_id else (game_seed ^ table_id) % 2**62


class LobbyService(ServiceBase):
    """The lobby's use cases, under the table's lock (``table_lock``)."""

    async def new_game(
        self,
        table_id: int,
        host_user_id: int,
        schedule_kind: str = "forum",
        timezone: str = "Europe/Moscow",
        *,
        turn_minutes: int = 10,
        roles: str | None = None,
        activity_rules: bool = True,
        reveal: bool = True,
        seed: int | None = None,
        wishes: bool = False,
        review: int = 0,
        deadline: str | None = None,
        hunts_from: str | None = None,
        turn_days: int | None = None,
        days_off: str | None = None,
        ghost_room: bool = False,
        spectators: bool = False,
    ) -> GameRecord:
        """``deadline``, ``hunts_from``, ``turn_days``, ``days_off``: the forum schedule's hours
        as the host typed them (R61, :func:`rules.schedule.forum_hours`; left out: the
        original's)."""
        try:
            schedule = forum_hours(
                schedule_kind,
                timezone,
                turn_minutes=turn_minutes,
                deadline=deadline,
                hunts_from=hunts_from,
                turn_days=turn_days,
                days_off=days_off,
            )
        except ValueError as exc:
            raise ServiceError(f"error.{getattr(exc, 'code', 'bad_schedule')}") from None
        if not 0 <= review <= MAX_REVIEW_MINUTES:
            raise ServiceError("error.bad_review", maximum=MAX_REVIEW_MINUTES)
        if spectators and not ghost_room:  # R62: they watch the ghosts' room
            raise ServiceError("error.spectators_need_ghost_room")
        params = schedule.to_dict()
        if review:
            params["review"] = review  # core/review.py
        params.update(ghost_params(ghost_room, spectators))  # core/ghosts.py, R62
        role_list = self._parse_roles(roles) if roles else None
        async with self.table_lock(table_id):
            if await self.store.open_game(table_id) is not None:
                raise ServiceError("error.game_exists")
            await self._no_end_in_review(table_id)
            table = await self.store.get_table(table_id)
            if seed is None and self.game_seed is not None:
                guild = table.guild_id if table is not None else table_id
                seed = table_seed(self.game_seed, table_id, guild)
            try:
                return await self.store.create_game(
                    table.guild_id if table is not None else table_id,
                    table_id=table_id,
                    seed=seed if seed is not None else random.SystemRandom().randrange(2**31),
                    schedule_kind=schedule.kind,
                    timezone=schedule.tz,
                    schedule_params=params,
                    activity_rules=activity_rules,
                    roles=role_list,
                    host_user_id=host_user_id,
                    reveal=reveal,
                    wishes=wishes,
                )
            except OpenGameExists:  # another process opened one meanwhile
                raise ServiceError("error.game_exists") from None

    async def _no_end_in_review(self, table_id: int) -> None:
        """A table holds one open or running game: one whose end still waits for the host's
        review (core/review.py) runs for its players until that end is published, so no new
        sign-up opens before it."""
        for review in list(self.reviews.values()):
            if review.game_id in self.live:
                continue
            rec = await self.store.get_game(review.game_id)
            if rec is not None and rec.table_id == table_id:
                until = int(until_of(review).timestamp())
                raise ServiceError("error.end_in_review", game=rec.id, until=until)

    @staticmethod
    def _parse_roles(text: str) -> list[str]:
        try:
            roles = parse_role_list(text)
            validate_role_list(roles)
        except SetupError as exc:
            raise setup_refusal(exc) from None
        return roles

    async def _lobby(self, table_id: int) -> GameRecord:
        rec = await self.store.open_game(table_id)
        if rec is None or rec.status != "lobby":
            raise ServiceError("error.no_signup")
        return rec

    async def join(self, table_id: int, user_id: int) -> int:
        """Sign up; refused to a member barred at the server (R63), and past the most members a
        game seats (the store decides, so of two members racing for the last place, in one
        process or two, one gets it)."""
        async with self.table_lock(table_id):
            rec = await self._lobby(table_id)
            bar = await self.store.bar_of(rec.guild_id, user_id, self.clock())  # R63
            if bar is not None:
                raise barred_refusal(bar)
            try:
                added = await self.store.add_signup(rec.id, user_id, limit=MAX_PLAYERS)
            except SignupFull:
                raise ServiceError("error.signup_full", maximum=MAX_PLAYERS) from None
            if not added:
                raise ServiceError("error.already_joined")
            return len(await self.store.signups(rec.id))

    async def wish(self, table_id: int, user_id: int, role: str | None) -> GameRecord:
        """R58: a signed-up member's role wish (None withdraws it), while sign-up is open in
        a game with wishes. Refused, changing nothing: no sign-up, no wishes in this game, a
        role nobody may wish for, not signed up."""
        async with self.table_lock(table_id):
            rec = await self._lobby(table_id)
            if not rec.wishes:
                raise ServiceError("error.no_wishes")
            if role is not None and not is_wishable(role):
                raise ServiceError("error.unknown_wish", role=role)
            if not await self.store.set_wish(rec.id, user_id, role):
                raise ServiceError("error.not_joined")
            return rec

    async def signed_up(self, table_id: int, user_id: int) -> tuple[GameRecord, str | None] | None:
        """The open sign-up ``user_id`` is in, with his own wish (R58), or None."""
        rec = await self.store.open_game(table_id)
        if rec is None or rec.status != "lobby":
            return None
        if user_id not in await self.store.signups(rec.id):
            return None
        return rec, (await self.store.wishes(rec.id)).get(user_id)

    async def wish_tally(self, game_id: int) -> dict[str, int]:
        """R58: the sign-up post's tally, counts by role only."""
        return wish_tally(await self.store.wishes(game_id))

    async def leave(self, table_id: int, user_id: int) -> int:
        async with self.table_lock(table_id):
            rec = await self._lobby(table_id)
            if not await self.store.remove_signup(rec.id, user_id):
                raise ServiceError("error.not_joined")
            return len(await self.store.signups(rec.id))

    async def member_left(self, table_id: int, user_id: int) -> tuple[str, int | str] | None:
        """A member left the server: out of the open sign-up (``("signup", count)``), or, in
        a running game, ``("player", nick)`` for the hosts to replace him; else None."""
        async with self.table_lock(table_id):
            game = self.game_in(table_id)
            if game is not None:
                await self.store.stand_down(game.id, user_id)  # R60: no longer a substitute
                nick = game.nick_of(user_id)
                if nick is None or nick not in game.engine.state.players:
                    return None
                if not game.engine.state.players[nick].alive:
                    return None
                return ("player", nick)
            rec = await self.store.open_game(table_id)
            if rec is None or rec.status != "lobby":
                return None
            if not await self.store.remove_signup(rec.id, user_id):
                return None
            return ("signup", len(await self.store.signups(rec.id)))

    async def set_roles(
        self,
        table_id: int,
        roles: str | None,
        preset_for: int | None,
        *,
        from_wishes: bool = False,
    ) -> list[str]:
        """The role list: written out, adopted from the wishes' tally (R58: Villagers for the
        members who wished for nothing, checked as any setup, R43), or a preset."""
        async with self.table_lock(table_id):
            rec = await self._lobby(table_id)
            if roles:
                role_list = self._parse_roles(roles)
            elif from_wishes:
                if not rec.wishes:
                    raise ServiceError("error.no_wishes")
                members = await self.store.signups(rec.id)
                role_list = roles_from_wishes(members, await self.store.wishes(rec.id))
                try:
                    validate_role_list(role_list)
                except SetupError as exc:
                    raise setup_refusal(exc) from None
            else:
                count = preset_for or len(await self.store.signups(rec.id))
                try:
                    role_list = preset(count)
                except SetupError as exc:
                    raise setup_refusal(exc) from None
            try:
                await self.store.update_lobby(rec.id, roles=role_list)
            except NotFound:
                raise ServiceError("error.no_signup") from None
            return role_list

    async def start(
        self,
        table_id: int,
        theme: str = "en",
        *,
        is_member: Callable[[int], bool] | None = None,
    ) -> LiveGame:
        """Roles at random from the stored seed (R13), nicknames (R44), turn 1 opens.

        ``is_member`` (the bot's member cache): sign-ups of members who left the server while
        the bot could not see it are dropped first."""
        async with self.table_lock(table_id):
            return await self._start(table_id, theme, is_member)

    async def _start(
        self, table_id: int, theme: str, is_member: Callable[[int], bool] | None
    ) -> LiveGame:
        # A retry after a start whose commit went through but whose reply failed finishes
        # that start (the live game, the role cards) instead of refusing.
        rec = await self.store.open_game(table_id)
        if rec is not None and rec.status == "running" and rec.id not in self.live:
            return await self._open(rec)
        rec = await self._lobby(table_id)
        members = await self.store.signups(rec.id)
        if is_member is not None:
            for gone in [uid for uid in members if not is_member(uid)]:
                log.info("game %s: dropping the sign-up of %s, who left the server", rec.id, gone)
                await self.store.remove_signup(rec.id, gone)
                members.remove(gone)
        roles: list[str] = list(rec.roles) if rec.roles else []
        if not roles:
            try:
                roles = preset(len(members))
            except SetupError as exc:
                raise setup_refusal(exc) from None
        # R13, R58: the seats from the seed (never the sign-up order), the wishes granted first.
        wishes = await self.store.wishes(rec.id) if rec.wishes else None
        try:
            dealt = deal(members, roles, rec.seed, wishes)
        except SetupError as exc:
            raise setup_refusal(exc) from None
        nicks = assign_nicknames(len(dealt), rec.seed, theme)
        specs = [
            PlayerSpec(user_id=uid, nick=nick, role=role)
            for (uid, role), nick in zip(dealt, nicks, strict=True)
        ]
        schedule = schedule_of(rec)
        now = self.clock()
        deadline = first_deadline(schedule, now)
        # The role cards and turn 1's opening commit with the seats (one transaction).
        first = rebuild([(s.nick, s.role) for s in specs], rec.seed, rec.activity_rules, [], ())
        cards = [Announcement("role_card", s.nick, {"turn": 1}) for s in specs]
        opening = turn_open_announcement(first.state, 1, deadline.isoformat())
        try:
            rec = await self.store.start_game(
                rec.id,
                specs,
                deadline=deadline,
                phase="open",
                started_at=now,
                outbox_items=items([*cards, opening]),
            )
        except NotFound:  # started or ended by another process meanwhile
            raise ServiceError("error.no_signup") from None
        return await self._open(rec)

    async def _open(self, rec: GameRecord) -> LiveGame:
        """A started game goes live; its role cards and turn 1's opening are queued once."""
        live = await self._rebuild(rec)
        await self._deal_cards_once(live)
        self.live[rec.id] = live  # last: until then a retry of the start finishes it
        return live

    async def set_signup_message(self, game_id: int, message_id: int) -> None:
        """The sign-up's message in #game (its Join and Leave buttons), kept with the game so
        that its count can be edited and the message closed at the start."""
        await self.store.update_lobby(game_id, signup_message_id=message_id)

    async def signups_of(self, table_id: int) -> tuple[GameRecord, list[int]] | None:
        """The table's open game (in sign-up; or running, its start retried) and the members
        who signed up for it, in sign-up order; None if the table has no open game."""
        rec = await self.store.open_game(table_id)
        if rec is None:
            return None
        return rec, await self.store.signups(rec.id)

    async def signup_open(self, table_id: int) -> tuple[GameRecord, list[int]] | None:
        """:meth:`signups_of` while the sign-up is open (the game not started yet)."""
        signup = await self.signups_of(table_id)
        return signup if signup is not None and signup[0].status == "lobby" else None
