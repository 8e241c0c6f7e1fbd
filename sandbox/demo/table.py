"""One table of the demo (:class:`Demo`): its server and members, the host's commands, the
players' commands (as their plans say, :mod:`sandbox.demo.players`), and what it takes to
pick a stored game up again."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from random import Random
from typing import Any, TextIO

import attrs
import discord
from simcord import ChannelHandle, Env, GuildHandle, InteractionResult, MemberActor
from simcord.results import to_discord_message

from bot.client import MafiaBot
from bot.embeds import embed_text
from bot.render import render_posts
from bot.signup import JOIN_ID, WISH_ID
from core.i18n import Lang, t
from core.live import LiveGame
from core.refusal import Refusal
from core.review import until_of
from core.service import table_seed
from db.models import TableSettings
from rules.model import Phase
from rules.schedule import hunt_opens_at
from rules.setup import preset
from rules.wishes import is_wishable
from sandbox.demo.options import (
    AUTOCOMPLETE_LIMIT,
    BOT_NAME_KEY,
    TABLE_NAMES,
    DemoError,
    DemoOptions,
)
from sandbox.demo.players import View, ghost_line, photo, plan_shot, plan_story, plan_turn
from sandbox.demo.reader import Reader, reply_text
from sandbox.demo.transcript import Transcript, render_embed

#: The message command "Quote" by its base name (as the demo calls every command).
QUOTE_COMMAND = t("en", "cmd.quote.name")


#: What the demo's player who asks to be replaced writes (``--substitute``, R60).
REPLACEME_REASON: dict[Lang, str] = {
    "en": "I am travelling for work from tomorrow, sorry.",
    "ru": "С завтрашнего дня в командировке, простите.",
}


@attrs.define
class Seat:
    """A member actor and what he learnt about himself (re-learnt after a restart)."""

    index: int
    actor: MemberActor
    nick: str | None = None


class Demo:
    """One table's game: its host commands, its players and its channels. With ``--tables N``
    the first table's Demo builds the server and every member; the others share them
    (:meth:`adopt`), each with its own members and its own game."""

    def __init__(
        self,
        env: Env,
        bot: MafiaBot,
        options: DemoOptions,
        out: TextIO,
        *,
        index: int = 0,
        transcript: Transcript | None = None,
    ) -> None:
        self.env = env
        self.bot = bot
        self.options = options
        self.index = index
        self.lang: Lang = options.lang
        self.reader = Reader(options.lang)
        self.transcript = transcript or Transcript(
            env,
            out,
            host_view=options.host_view,
            lang=options.lang,
            labelled=options.tables > 1 or options.ghost_room,
        )
        self.unexpected: list[BaseException] = []
        self.guild: GuildHandle
        self.lobby: ChannelHandle
        self.host: MemberActor
        self.seats: list[Seat] = []
        self._game_channel: ChannelHandle | None = None
        self.table: TableSettings | None = None
        self.capped = False  # the turn cap stopped the game
        self.standbys: list[MemberActor] = []  # --substitute: one per table

    @property
    def table_name(self) -> str | None:
        """The table's name when the demo plays several, else None (the server's only table)."""
        if self.options.tables <= 1:
            return None
        return TABLE_NAMES[self.lang][self.index]

    @property
    def table_key(self) -> int:
        return self.table.table_id if self.table is not None else self.options.guild_id

    def _label(self, slot: str) -> str:
        channel = "#" + t(self.lang, f"channel.{slot}")
        return channel if self.table_name is None else f"{self.table_name} {channel}"

    # -- the world ---------------------------------------------------------------------------
    def build_world(self) -> None:
        """The guild, the host and the members: created first and in the same order on every
        run, so their ids are the same after a restart."""
        env = self.env
        # the application's name (not public API)
        env.backend.edit_bot_profile(t(self.lang, BOT_NAME_KEY))
        self.guild = env.create_guild(
            "Forum Mafia Club",
            id=self.options.guild_id,
            preferred_locale="ru" if self.lang == "ru" else None,
        )
        moderators = self.guild.create_role(
            "Moderators", permissions=discord.Permissions(manage_guild=True)
        )
        self.host = self.guild.add_member(env.create_user("club_admin"), roles=[moderators])
        self.members = [
            self.guild.add_member(env.create_user(f"member_{i:02d}"))
            for i in range(1, self.options.players * max(1, self.options.tables) + 1)
        ]
        self.seats = self._seats(self.members)
        # R60 (--substitute): one member per table who does not play, created after the
        # players so that every id stays the same on a restart.
        self.standbys = [
            self.guild.add_member(env.create_user(f"standby_{i:02d}"))
            for i in range(1, max(1, self.options.tables) + 1)
            if self.options.substitute
        ]
        self.lobby = self.guild.create_text_channel("general")
        self.transcript.watch(self.lobby, "#general")

    def _seats(self, members: Sequence[MemberActor]) -> list[Seat]:
        first = self.index * self.options.players
        return [Seat(i, members[first + i - 1]) for i in range(1, self.options.players + 1)]

    def adopt(self, first: Demo) -> None:
        """Another table of the first table's server: the same host, its own members."""
        self.guild, self.host, self.lobby = first.guild, first.host, first.lobby
        self.members = first.members
        self.seats = self._seats(first.members)
        self.standbys = first.standbys

    @property
    def game_channel(self) -> ChannelHandle:
        if self._game_channel is None:
            raise DemoError("the game channels are not set up")
        return self._game_channel

    def _slot(self, slot: str) -> ChannelHandle:
        """One of the table's channels (``/mafia setup`` stored their ids)."""
        channel_id = getattr(self.table, f"{slot}_channel_id", None)
        channel = self.env.backend.channels.get(channel_id) if channel_id is not None else None
        if channel is None:
            raise DemoError(f"/mafia setup made no #{t(self.lang, f'channel.{slot}')}")
        return ChannelHandle(self.env, self.guild, channel)

    @property
    def host_place(self) -> ChannelHandle:
        """Where the host types his commands: #general on a server of one table (any channel
        will do), the table's own #game when there are several (a command finds its table by
        its channel)."""
        return self.lobby if self.table_name is None else self.game_channel

    # -- acting as a user --------------------------------------------------------------------
    async def _observe(self, action: Any) -> Any:
        """Run one user action; refusals are fine (a user reads them), anything else the bot
        raised is a bug the demo reports."""
        cursor = self.env.error_cursor
        result = await action
        for error in self.env.errors_since(cursor):
            original = getattr(error, "original", error)
            if not isinstance(original, Refusal):
                self.unexpected.append(error)
        return result

    async def slash(
        self,
        actor: MemberActor,
        command: str,
        *,
        where: ChannelHandle | None = None,
        flush: bool = True,
        **options: Any,
    ) -> InteractionResult:
        result: InteractionResult = await self._observe(
            actor.slash(where or self.game_channel, command, **options)
        )
        if flush:
            self.transcript.flush()
        return result

    async def look(self, actor: MemberActor, command: str) -> str:
        """A command whose private answer the player reads for himself (not printed)."""
        result: InteractionResult = await self._observe(actor.slash(self.game_channel, command))
        self.transcript.hide_new_replies()
        self.transcript.flush()
        return reply_text(result)

    async def advance_to(self, moment: datetime) -> None:
        delta = (moment - self.env.now()).total_seconds()
        if delta > 0:
            await self._observe(self.env.advance_time(delta))
        self.transcript.flush()

    # -- the host ----------------------------------------------------------------------------
    async def setup(self) -> None:
        named: dict[str, Any] = {} if self.table_name is None else {"table": self.table_name}
        await self.slash(self.host, "mafia setup", where=self.lobby, language=self.lang, **named)
        tables = await self.bot.store.tables(self.guild.id)
        wanted = (self.table_name or "").casefold()
        self.table = next((tb for tb in tables if tb.name.casefold() == wanted), None)
        if self.table is None:
            raise DemoError(f"/mafia setup made no table {self.table_name or ''}".rstrip())
        self._game_channel = self._slot("game")
        self.transcript.watch(self.game_channel, self._label("game"))
        if self.options.host_view:
            for slot in ("discussion", "host"):
                self.transcript.watch(self._slot(slot), self._label(slot))
            self.transcript.watch_threads(self._slot("mafia"), self._label("mafia"))
        self.transcript.flush()

    async def open_signup(self) -> None:
        options: dict[str, Any] = {"schedule": self.options.schedule}
        if self.options.schedule == "fast":
            options["timezone"] = "UTC"
        if self.options.wishes:
            options["wishes"] = True
        if self.options.review:
            options["review"] = self.options.review
        if self.options.ghost_room:
            options["ghost_room"] = True
        await self.slash(self.host, "mafia new", where=self.host_place, **options)

    def _signup_message(self) -> Any:
        """The sign-up post in #game (the latest message with the Join button), or None."""
        return next(
            (
                m
                for m in reversed(self.game_channel.history())
                if any(
                    getattr(item, "custom_id", None) == JOIN_ID
                    for row in m.components
                    for item in getattr(row, "children", ())
                )
            ),
            None,
        )

    async def wish(self, *, resumed: bool) -> None:
        """R58: members wish for the preset's roles other than Villager (one each, drawn with
        the seed; the rest wish for nothing), half in the sign-up post's menu, half with
        /wish; then the host adopts the tally as the setup (``/mafia roles from_wishes``)."""
        rng = Random(f"demo-wishes/{self.options.seed}")
        roles = [r for r in preset(len(self.seats)) if r != "villager" and is_wishable(r)]
        wishers = rng.sample(list(self.seats), min(len(roles), len(self.seats)))
        signup = None if resumed else self._signup_message()
        for n, (seat, role) in enumerate(zip(wishers, roles, strict=False)):
            if signup is not None and n % 2 == 0:
                await self._observe(seat.actor.select(signup, [role], custom_id=WISH_ID))
                self.transcript.flush()
            else:
                await self.slash(seat.actor, "wish", role=role)
        await self.slash(self.host, "mafia roles", where=self.host_place, from_wishes=True)

    async def sign_up(self, *, resumed: bool) -> None:
        """Every member signs up, in order: some with the button, some with /join (after a
        restart the sign-up message is gone, and /join tells who already signed up)."""
        signup = None if resumed else self._signup_message()
        for seat in self.seats:
            if signup is not None and seat.index % 2 == 1:
                await self._observe(seat.actor.click(signup, custom_id=JOIN_ID))
                self.transcript.flush()
            else:
                await self.slash(seat.actor, "join")

    async def start(self) -> None:
        if self.options.roles is not None:
            await self.slash(
                self.host, "mafia roles", where=self.host_place, roles=self.options.roles
            )
        await self.slash(self.host, "mafia start", where=self.host_place, flush=False)
        self._label_players()
        self.transcript.flush()

    async def review(self) -> None:
        """``--review``: every draft of the table's game pending in #host: the host adds his
        story ("Add story", its modal) and publishes it ("Publish"). A draft whose message a
        restart lost (SimCord is in memory) goes out as it is once its review time is over (the
        bot's review clock), as on Discord when a host never comes."""
        pending = self.bot.service.reviews
        if not pending:
            return
        games = await self.bot.store.list_games(table_id=self.table_key)
        game_id = games[-1].id if games else None
        for (draft_game, turn), review in sorted(pending.items()):
            if draft_game != game_id:
                continue
            draft = self._draft(draft_game, turn)
            if draft is None:
                await self.advance_to(until_of(review) + timedelta(seconds=1))
                continue
            shown: InteractionResult = await self._observe(
                self.host.click(draft, custom_id=f"mafia:review:story:{draft_game}:{turn}")
            )
            if shown.modal is not None:
                story = plan_story(self.options.seed, turn, self.lang)
                await self._observe(self.host.submit_modal(shown, {"story": story}))
            await self._shown(
                self.host.click(draft, custom_id=f"mafia:review:publish:{draft_game}:{turn}")
            )

    async def _shown(self, action: Any) -> Any:
        """Run one action of a user (not a slash command) and print what it brought."""
        result = await self._observe(action)
        self.transcript.flush()
        return result

    def _draft(self, game_id: int, turn: int) -> discord.Message | None:
        """The draft of ``turn`` in #host, with its buttons (core/review.py)."""
        wanted = f"mafia:review:publish:{game_id}:{turn}"
        host = self._slot("host")
        stored: dict[int, Any] = self.env.backend.messages.get(host.id, {})
        for message in reversed(stored.values()):  # stored as posted: the latest last
            ids = {
                str(item.get("custom_id"))
                for row in message.components
                for item in row.get("components", ())
            }
            if wanted in ids:
                return to_discord_message(self.env, message)
        return None

    def _label_players(self) -> None:
        """The transcript learns the nicknames: the host view labels DMs and replies with them
        (the host knows them from /mafia state), and a player's post is told from the bot's
        (its files are named). The players' decisions never read this."""
        game = self.bot.service.game_in(self.table_key)
        if game is not None:
            self.transcript.nick_of.update({p.user_id: p.nick for p in game.players})

    # -- the players -------------------------------------------------------------------------
    async def public_living(self) -> tuple[str, ...]:
        """The living nicknames, as any player's autocomplete offers them (public knowledge:
        deaths are announced). Discord shows 25 choices: past that, type letters."""
        actor = self.seats[0].actor
        found = {c["value"] for c in await self._autocomplete(actor, "")}
        if len(found) >= AUTOCOMPLETE_LIMIT:
            typed = {ch.casefold() for name in found for ch in name if ch.isalpha()}
            typed |= set("abcdefghijklmnopqrstuvwxyzабвгдеёжзийклмнопрстуфхцчшщъыьэюя")
            for letter in sorted(typed):
                found |= {c["value"] for c in await self._autocomplete(actor, letter)}
        return tuple(sorted(found))

    async def _autocomplete(self, actor: MemberActor, text: str) -> list[dict[str, Any]]:
        choices: list[dict[str, Any]] = await self._observe(
            actor.autocomplete(self.game_channel, "vote", "target", text)
        )
        return choices

    async def view_of(self, seat: Seat, living: tuple[str, ...]) -> View:
        """What the player reads about himself: /role and /status (the turn number too)."""
        card = self.reader.card(await self.look(seat.actor, "role"))
        text = await self.look(seat.actor, "status")
        status = self.reader.status(text)
        if status.turn is None:
            raise DemoError(f"cannot read /status: {text!r}")
        seat.nick = card.nick
        return View(
            seed=self.options.seed, turn=status.turn, card=card, living=living, status=status
        )

    async def play_turn(self, hunts_at: datetime) -> None:
        """Every living player posts and sends his requests; hunters wait for the hunt."""
        living = await self.public_living()
        hunts: list[tuple[Seat, str]] = []
        for seat in self.seats:
            if seat.nick is not None and seat.nick not in living:
                # dead (his death was announced): ghosts stay silent in the demo, but in their
                # own room (--ghost-room, R62) each says a line a turn
                if self.options.ghost_room:
                    await self.ghost_says(seat)
                continue
            view = await self.view_of(seat, living)
            if not view.card.alive:
                continue
            plan = plan_turn(view, self.lang)
            done = view.status
            actor = seat.actor
            for n, text in enumerate(plan.posts[done.posts :], start=done.posts):
                if plan.picture and n == 0:
                    image = photo(self.options.seed, view.turn, view.card.nick)
                    await self.slash(actor, "say", text=text, image=image)
                else:
                    await self.slash(actor, "say", text=text)
            if plan.quote is not None and done.posts <= len(plan.posts):
                await self.quote(seat, view.card.nick, living, plan.quote)
            for verb, target in plan.actions:
                if verb not in done.requested:
                    await self.slash(actor, verb, target=target)
            if plan.vote is not None and "vote" not in done.requested:
                for read in plan.reads:  # a second look before voting
                    if read[0] == "iso":
                        await self.slash(actor, "iso", player=read[1])
                    else:
                        await self.slash(actor, read[0])
                await self.slash(actor, "vote", target=plan.vote)
            if plan.note is not None and "note" not in done.requested:
                await self.slash(actor, "note", to=plan.note[0], text=plan.note[1])
            if plan.hunt is not None and "hunt" not in done.requested:
                hunts.append((seat, plan.hunt))
        if hunts:
            await self.advance_to(hunts_at)
            for seat, target in hunts:
                await self.slash(seat.actor, "hunt", target=target)

    async def ghost_says(self, seat: Seat) -> None:
        """``--ghost-room``: a dead player's line, posted with /say into the ghosts' room; the
        transcript shows the room from its first post."""
        game = self.game()
        if game is None:
            return
        await self.slash(
            seat.actor, "say", text=ghost_line(self.lang, game.engine.turn, seat.index)
        )
        names = {t(lang, "channel.ghost_room", game=game.id) for lang in ("en", "ru")}
        for channel in list(self.env.backend.channels.values()):
            if channel.name in names and channel.id not in self.transcript.channels:
                label = "#" + channel.name
                if self.table_name is not None:
                    label = f"{self.table_name} {label}"
                self.transcript.watch(ChannelHandle(self.env, self.guild, channel), label)
        self.transcript.flush()

    async def quote(self, seat: Seat, me: str, living: tuple[str, ...], text: str) -> None:
        """The message command "Quote" on the latest post of another living player in #game,
        answered in its modal; with no such post (a restarted demo has lost the killed run's
        messages) the answer goes out with /say, as one post all the same."""
        post = self._latest_post(exclude=me, among=living)
        if post is None:
            await self.slash(seat.actor, "say", text=text)
            return
        shown: InteractionResult = await self._observe(
            seat.actor.context_menu(self.game_channel, QUOTE_COMMAND, post)
        )
        if shown.modal is not None:
            await self._observe(seat.actor.submit_modal(shown, {"body": text}))
        self.transcript.flush()

    def _latest_post(self, *, exclude: str, among: Sequence[str]) -> discord.Message | None:
        """The latest post of #game by a living player other than ``exclude`` (read from
        SimCord's store: converting the whole history for each quote would be quadratic)."""
        stored: dict[int, Any] = self.env.backend.messages.get(self.game_channel.id, {})
        for message in reversed(stored.values()):  # stored as posted: the latest last
            name = message.author_name
            if message.webhook_id is not None and name != exclude and name in among:
                return to_discord_message(self.env, message)
        return None

    async def pistol_window(self, turn: int) -> None:
        """A killed commissar, prompted in private (his /status shows the prompt), fires his
        pistol at one of the players his /shoot offers (with --review the night is not out
        yet: the others know nothing of it, he knows only whom he may aim at)."""
        living = await self.public_living()
        for seat in self.seats:
            view = await self.view_of(seat, living)
            if not view.status.pistol:
                continue
            choices = await self._observe(
                seat.actor.autocomplete(self.game_channel, "shoot", "target", "")
            )
            aims = tuple(sorted({str(c["value"]) for c in choices}))
            target = plan_shot(attrs.evolve(view, living=aims))
            if target is not None:
                await self.slash(seat.actor, "shoot", target=target)
            if self._phase() != (turn, Phase.PISTOL.value):
                return  # the last shot closed the window

    def _phase(self) -> tuple[int, str] | None:
        game = self.bot.service.game_in(self.table_key)
        return None if game is None else (game.engine.turn, game.record.phase)

    # -- the whole game ----------------------------------------------------------------------
    def _where(self) -> str:
        """The ``--db`` store as it may be printed (a PostgreSQL URL without its password)."""
        from core.config import redact_url

        return redact_url(str(self.options.db))

    async def begin(self) -> bool:
        """Set the table up and open its game, or pick up the stored one. True if the game
        is already over (its ending is shown again)."""
        self._label_players()
        await self.setup()
        store = self.bot.store
        games = await store.list_games(table_id=self.table_key)
        record = games[-1] if games else None
        if record is not None:
            self._check_resumable(
                record, await store.signups(record.id), await store.players(record.id)
            )
        if record is not None and record.status == "finished":
            await self._finished(record.id)
            return True
        if record is None:
            await self.open_signup()
            await self.sign_up(resumed=False)
            if self.options.wishes:
                await self.wish(resumed=False)
            await self.start()
        else:
            where = "" if self.table_name is None else f" at table {self.table_name}"
            self.transcript.say(
                f"-- resuming game {record.id}{where} of {self._where()} "
                f"({'sign-up' if record.status == 'lobby' else f'turn {record.turn}'})"
            )
            if record.status == "lobby":
                await self.sign_up(resumed=True)
                if record.wishes:
                    await self.wish(resumed=True)
                await self.start()
        self._label_players()
        self._follow_seats()  # a game resumed after its replacement (R60)
        return False

    def game(self) -> LiveGame | None:
        return self.bot.service.game_in(self.table_key)

    def opened_at(self) -> datetime | None:
        """When the table's open phase began: its deadline less the phase's length (a fast
        turn, or the pistol window, R18); None without a deadline, or on the forum schedule
        (its turns end at a time of day, whatever their start)."""
        game = self.game()
        deadline = None if game is None else game.record.deadline
        if game is None or deadline is None:
            return None
        if game.engine.phase is Phase.PISTOL:
            return deadline - game.schedule.pistol_window
        if game.schedule.kind == "fast":
            return deadline - timedelta(minutes=game.schedule.turn_minutes)
        return None

    def moment(self) -> tuple[int, str, datetime | None] | None:
        """Where the table's game stands (turn, phase, deadline); None once it is over."""
        game = self.game()
        return None if game is None else (game.engine.turn, game.record.phase, game.record.deadline)

    async def act(self, game: LiveGame) -> None:
        """The table's players act in the open turn (or the pistol window)."""
        deadline = game.record.deadline
        if deadline is None:
            raise DemoError("the game's clock is stopped")
        if game.engine.phase is Phase.PISTOL:
            await self.pistol_window(game.engine.turn)
        else:
            if self.options.substitute and game.engine.turn >= 2:
                await self.substitute(game)
            await self.play_turn(hunt_opens_at(game.schedule, deadline))

    @property
    def standby(self) -> MemberActor | None:
        """This table's member who does not play (``--substitute``)."""
        return self.standbys[self.index] if self.standbys else None

    async def substitute(self, game: LiveGame) -> None:
        """R60, once per game: the standby member stands by, the first living player asks to
        be replaced, and the host hands his nickname to the first substitute; the seat is
        played by the substitute from then on."""
        sub = self.standby
        if sub is None or await self.bot.store.replacements(game.id):
            return
        living = await self.public_living()
        seat = next((s for s in self.seats if s.nick is not None and s.nick in living), None)
        if seat is None or seat.nick is None:
            return
        await self.slash(sub, "standby")
        await self.slash(seat.actor, "replaceme", reason=REPLACEME_REASON[self.lang])
        await self.slash(self.host, "mafia subs", where=self.host_place)
        await self.slash(self.host, "mafia replace", where=self.host_place, player=seat.nick)
        self._follow_seats()

    def _follow_seats(self) -> None:
        """A seat whose member was replaced (R60) is played by the substitute who holds it."""
        game = self.game()
        sub = self.standby
        if game is None or sub is None:
            return
        held = {p.user_id for p in game.players}
        for seat in self.seats:
            if seat.actor.id not in held and sub.id in held:
                seat.actor = sub
        self._label_players()

    async def winner(self) -> str | None:
        """The winner of the table's game; None if the turn cap stopped it."""
        if self.capped:
            return None
        games = await self.bot.store.list_games(table_id=self.table_key)
        record = games[-1] if games else None
        if record is None or record.status != "finished":
            raise DemoError("the game vanished")
        return record.winner or "none"

    async def _finished(self, game_id: int) -> str | None:
        """The stored game is over: /mafia setup delivered what was still pending; if its
        final announcement had gone out before, show it again."""
        record = await self.bot.store.require_game(game_id)
        rows = await self.bot.store.outbox(game_id)
        final = next((r for r in reversed(rows) if r.kind == "game_over"), None)
        delivered_now = any(
            t(self.lang, f"winner.{record.winner or 'none'}")
            in "\n".join([m.content or "", *(embed_text(e) for e in m.embeds)])
            for m in self.game_channel.history()
        )
        if final is not None and not delivered_now:
            where = "" if self.table_name is None else f" at table {self.table_name}"
            self.transcript.say(
                f"-- game {game_id}{where} of {self._where()} is over; it ended so:"
            )
            # As the message was shown when it went out: its embeds, markup rendered.
            payload = final.payload.get("payload") or {}
            for post in render_posts(self.lang, "game_over", payload):
                parts = [post.content] if post.content else []
                parts += [render_embed(dict(embed.to_dict())) for embed in post.embeds]
                self.transcript.print_message(
                    self._label("game"), t(self.lang, BOT_NAME_KEY), parts
                )
        return record.winner or "none"

    def _check_resumable(self, record: Any, signups: Sequence[int], players: Sequence[Any]) -> None:
        members = {seat.actor.id for seat in self.seats}
        if self.standby is not None:  # R60: he may hold a seat now
            members.add(self.standby.id)
        users = [p.user_id for p in players] if players else list(signups)
        if (
            record.seed != table_seed(self.options.seed, self.table_key, self.options.guild_id)
            or not set(users) <= members
            or (players and len(players) != len(members) - (self.standby is not None))
        ):
            raise DemoError(
                f"{self._where()} holds a demo game with other options "
                f"(seed {record.seed}, {len(users)} players): give the same --seed and "
                "--players, or another --db"
            )
