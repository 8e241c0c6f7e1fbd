"""R6, R14, R22, R35, R55: a whole game, in English and in Russian, with every message any
player could read collected and searched for leaks.

Nine players (R43: mafia 3 >= ceil(9/4), 3 < 6 town, the Foundling with a Boss, the Sergeant
with a Commissar): Boss, Mafioso, Troublemaker, Commissar, Sergeant, Doctor, Prostitute,
Foundling, Villager. The script (roles are dealt at random, so it goes by role):

turn 1  the whole mafia kills the Foundling (accepted, fails silently, R22); the Troublemaker
        slanders the Villager, whom the Commissar checks ("mafia", R25); the Doctor heals the
        Commissar; the Prostitute blocks the Mafioso; the Commissar writes a death note to the
        Sergeant. Nobody dies.
turn 2  the Villager hunts the Boss and the Foundling hunts the Sergeant (both accepted, R28);
        the mafia kills the Commissar, who checks the Troublemaker; the town lynches the
        Mafioso. Deaths: the Boss (hunt), the Commissar (night), the Mafioso (lynch); the
        Foundling joins the mafia, the Sergeant becomes the Commissar and gets the note; the dead
        Commissar shoots the Troublemaker (R18).
turn 3  the town lynches the converted Foundling: the town wins.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import attrs
import discord
import pytest
from simcord import BackendError, Env, MemberActor, SetupError

from core.cast_text import role_description
from core.i18n import Lang, catalogue, t
from core.quoting import quote_player_text
from core.zones import said_time
from tests.e2e.helpers import (
    World,
    add_players,
    bot_of,
    dm_texts,
    identities,
    live_game,
    mafia_room,
    make_world,
    member_overwrites,
    message_text,
    pistol_prompt,
    refusal,
    reply_text,
    seats_by_role,
    slot,
    start_game,
    until_deadline,
)

#: Every game of this module is played on SQLite and on PostgreSQL (tests/e2e/conftest.py).
BOTH_ENGINES = True

ROLES = (
    "boss=1 mafioso=1 troublemaker=1 commissar=1 sergeant=1 doctor=1 prostitute=1 foundling=1"
    " villager=1"
)
NAMES = ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy")
MAFIA = ("boss", "mafioso", "troublemaker")

#: A user mention, a nickname mention, a role mention.
MENTION = re.compile(r"<@[!&]?\d+>")
#: What a player may type to try to ping: it must reach #game escaped.
PING_BAIT = "@everyone @here"


def role_words() -> tuple[str, ...]:
    """Every role name in both catalogues (``role.*``), longest first."""
    words = {
        text
        for lang in ("en", "ru")
        for key, text in catalogue(lang).items()
        if key.startswith("role.")
    }
    assert len(words) >= 20
    return tuple(sorted(words, key=len, reverse=True))


def contains_word(text: str, word: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, flags=re.IGNORECASE) is not None


def text_of(message: discord.Message) -> str:
    """All the text a reader sees in a message: its content, its embeds, a webhook's name."""
    parts = [message.content]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{f.name} {f.value}" for f in embed.fields]
    if message.webhook_id is not None:
        parts.append(message.author.name)
    return "\n".join(parts)


@attrs.frozen
class Seen:
    viewer: MemberActor
    where: str  # a channel's name, or "DM"
    message: discord.Message

    @property
    def shared(self) -> bool:
        """Seen by others too: a channel message that is not an ephemeral reply."""
        return self.where != "DM" and not self.message.flags.ephemeral


def everything_seen_by(world: World, viewer: MemberActor) -> list[Seen]:
    """Every message ``viewer``'s client shows: every guild channel and thread he can read (his
    own ephemeral replies included, others' left out) and his DMs with the bot."""
    seen: list[Seen] = []
    for handle in world.guild.channels.values():
        cached = world.env.bot.get_channel(handle.id)
        if not isinstance(cached, discord.TextChannel):
            continue
        for where in (handle, *handle.threads):
            try:
                history = where.history(viewer=viewer)
            except SetupError:
                continue  # he cannot read it
            seen += [Seen(viewer, str(where.name), m) for m in history]
    seen += [Seen(viewer, "DM", m) for m in viewer.user.dm_channel.history()]
    return seen


def message_requests(env: Env) -> list[tuple[str, dict[str, object]]]:
    """Every REST call by which the bot (or its webhooks) put text in front of someone: channel
    and DM messages, edits, webhook posts, interaction replies and followups."""
    out: list[tuple[str, dict[str, object]]] = []
    for r in env.http_requests:
        body = r.json
        if not isinstance(body, dict) or r.method not in ("POST", "PATCH"):
            continue
        where = f"{r.method} {r.path}"
        if r.path.endswith("/callback"):
            data = body.get("data")
            if body.get("type") in (4, 7) and isinstance(data, dict):
                out.append((where, data))
        elif ("/messages" in r.path or r.path.startswith("/webhooks/")) and (
            "content" in body or "embeds" in body
        ):
            out.append((where, body))
    return out


@attrs.define
class Script:
    world: World
    lang: Lang
    players: list[MemberActor]
    outsider: MemberActor
    nick: dict[str, str] = attrs.Factory(dict)  # role -> nickname
    actor: dict[str, MemberActor] = attrs.Factory(dict)  # role -> actor
    commands: int = 0  # commands the players ran (each answered privately)
    #: What the players read in the mafia's room while its members were alive (the dead leave
    #: it, so at the end nobody reads it any more).
    room_seen: list[Seen] = attrs.Factory(list)

    @property
    def env(self) -> Env:
        return self.world.env

    def tr(self, key: str, **values: object) -> str:
        return t(self.lang, key, **values)

    def accepted(self, key: str, **values: object) -> str:
        """A request's confirmation: what was recorded, then until when it may be changed."""
        game = live_game(self.world)
        assert game.record.deadline is not None
        until = said_time(self.lang, game.record.deadline, game.schedule.tz)
        return "\n".join([self.tr(key, **values), self.tr("play.change_until", time=until)])

    async def say_all(self, roles: Iterable[str], text: str) -> None:
        game_ch = slot(self.world, "game")
        for role in roles:
            reply_text(await self.actor[role].slash(game_ch, "say", text=text))
            self.commands += 1

    async def act(self, role: str, verb: str, **options: object) -> str:
        """A request that must be accepted; returns the private reply."""
        self.commands += 1
        return reply_text(await self.actor[role].slash(slot(self.world, "game"), verb, **options))

    async def refused(self, role: str, verb: str, **options: object) -> str:
        actor = self.actor[role]
        self.commands += 1
        return await refusal(self.env, actor.slash(slot(self.world, "game"), verb, **options))

    async def mafia_readers(self) -> set[int]:
        """The ids of the members whose client shows the mafia's room (a private thread in
        #mafia); a member who is not in it can neither read it nor write there."""
        room = mafia_room(self.world)
        readers = set()
        for actor in [*self.players, self.outsider, self.world.admin]:
            try:
                room.history(viewer=actor)
            except SetupError:
                with pytest.raises(BackendError) as denied:
                    await actor.send(room, "let me in")
                assert denied.value.code == 50001  # Missing Access: the thread is not his
                continue
            readers.add(actor.id)
        return readers

    def assert_no_member_overwrite(self) -> None:
        """R14, the leak: Discord sends every channel's overwrites to every member's client, so
        no overwrite may name a player. Only the bot's own and, in #host, the host's who ran
        /mafia setup without a host role (not a player) exist."""
        bot_id = self.env.bot.user.id if self.env.bot.user else 0
        host_name = t(self.lang, "channel.host")
        for name, ids in member_overwrites(self.env, self.world.guild).items():
            allowed = {bot_id, self.world.admin.id} if name == host_name else {bot_id}
            assert ids <= allowed, (name, ids - allowed)


async def play(world: World, lang: Lang, *, reveal: bool = False) -> Script:
    players = add_players(world, NAMES)
    await start_game(world, ROLES, players, lang=lang, reveal=reveal)
    s = Script(world, lang, players, world.player, commands=len(players))  # the /join
    for role, (nick, actor) in seats_by_role(world, players).items():
        s.nick[role], s.actor[role] = nick, actor
    n = s.nick
    everyone = list(s.actor)
    assert len(everyone) == 9

    # --- the cards (R14, R19, R22) and #mafia --------------------------------------------
    cards = {role: dm_texts(s.actor[role]) for role in everyone}
    assert all(len(c) == 1 for c in cards.values()), cards
    villager = s.tr("role.villager")
    # R22: the Foundling's card is a Villager's, word for word (only the nickname differs).
    assert cards["foundling"][0].replace(n["foundling"], "<nick>") == cards["villager"][0].replace(
        n["villager"], "<nick>"
    )
    for text in (
        await s.act("foundling", "role"),
        (await s.act("foundling", "status")).splitlines()[0],
    ):
        assert villager in text
        assert s.tr("role.foundling") not in text
    for role in MAFIA:
        team = {n[r] for r in MAFIA}
        assert all(nick in cards[role][0] for nick in team)
        assert n["foundling"] not in cards[role][0]
    assert n["commissar"] in cards["sergeant"][0]  # R19
    assert (await s.mafia_readers()) == {s.actor[r].id for r in MAFIA}
    s.assert_no_member_overwrite()

    # --- turn 1 ----------------------------------------------------------------------------
    await s.say_all(everyone, f"Good morning. {PING_BAIT} <@{s.actor['boss'].id}>")
    offered = await s.actor["boss"].autocomplete(slot(world, "game"), "kill", "target", "")
    assert n["foundling"] in {c["value"] for c in offered}  # not known as mafia: offered
    for role in MAFIA:  # R22: accepted like any kill; it will fail silently
        assert await s.act(role, "kill", target=n["foundling"]) == s.accepted(
            "play.accepted.kill", target=n["foundling"], turn=1
        )
    # A non-mafia's kill is refused for his own role, whoever the target is (R55).
    assert {
        await s.refused("villager", "kill", target=n["boss"]),
        await s.refused("villager", "kill", target=n["foundling"]),
    } == {s.tr("refusal.wrong_role")}
    await s.act("troublemaker", "slander", target=n["villager"])
    await s.act("commissar", "check", target=n["villager"])
    await s.act("doctor", "heal", target=n["commissar"])
    await s.act("prostitute", "block", target=n["mafioso"])
    await s.act("commissar", "note", to=n["sergeant"], text="Trust nobody but yourself.")
    await until_deadline(world)
    results = [
        message_text(m)
        for m in slot(world, "game").history()
        if message_text(m).startswith(s.tr("announce.results", turn=1))
    ]
    assert len(results) == 1 and s.tr("announce.nobody_died") in results[0]
    slandered = s.tr("check.mafia", target=n["villager"], commissar=n["commissar"])
    assert slandered in dm_texts(s.actor["commissar"])  # R25
    assert slandered in dm_texts(s.actor["sergeant"])  # R19

    # --- turn 2 ----------------------------------------------------------------------------
    await s.say_all(everyone, "Who was it?")
    await until_deadline(world, before=240)  # the hunt is open (half the fast turn)
    hunt_boss = await s.act("villager", "hunt", target=n["boss"])
    hunt_sergeant = await s.act("foundling", "hunt", target=n["sergeant"])
    # R55: the same answer whether the target is mafia or not.
    assert hunt_boss == s.accepted("play.accepted.hunt", target=n["boss"], turn=2)
    assert hunt_sergeant == s.accepted("play.accepted.hunt", target=n["sergeant"], turn=2)
    for role in MAFIA:
        await s.act(role, "kill", target=n["commissar"])
    await s.act("commissar", "check", target=n["troublemaker"])
    await s.act("doctor", "heal", target=n["doctor"])
    await s.act("prostitute", "block", target=n["villager"])
    for role in everyone:
        target = n["villager"] if role in MAFIA else n["mafioso"]
        await s.act(role, "vote", target=target)
    await until_deadline(world)
    assert pistol_prompt(s.world, s.lang) in dm_texts(s.actor["commissar"])
    assert s.tr("announce.converted") in dm_texts(s.actor["foundling"])  # R22
    assert s.tr("announce.promoted") in dm_texts(s.actor["sergeant"])  # R19
    quoted = quote_player_text("Trust nobody but yourself.")
    note = s.tr("announce.note", author=n["commissar"], text=quoted)
    assert note in dm_texts(s.actor["sergeant"])  # R37
    # R22: the converted Foundling is in the room; the dead Boss and Mafioso are out of it.
    assert (await s.mafia_readers()) == {s.actor[r].id for r in ("troublemaker", "foundling")}
    s.assert_no_member_overwrite()
    room_name = str(mafia_room(world).name)
    for viewer in [*s.players, s.outsider]:
        s.room_seen += [i for i in everything_seen_by(world, viewer) if i.where == room_name]
    assert {i.viewer.id for i in s.room_seen} == {
        s.actor[r].id for r in ("troublemaker", "foundling")
    }
    await s.act("commissar", "shoot", target=n["troublemaker"])  # R18
    assert (await s.mafia_readers()) == {s.actor["foundling"].id}
    assert live_game(world).engine.turn == 3

    # --- turn 3 ----------------------------------------------------------------------------
    alive = ["sergeant", "doctor", "prostitute", "villager", "foundling"]
    await s.say_all(alive, "The last one.")
    await s.act("foundling", "kill", target=n["villager"])
    await s.act("sergeant", "check", target=n["foundling"])
    for role in alive:
        await s.act(role, "vote", target=n["villager"] if role == "foundling" else n["foundling"])
    await until_deadline(world)
    last = slot(world, "game").last_message
    assert last is not None and message_text(last).startswith(s.tr("winner.town"))
    assert bot_of(world.env).service.game_in(world.guild.id) is None
    assert not await bot_of(world.env).store.pending_outbox()
    # The game is over. With its members revealed every player reads the room now (a forum
    # tradition), locked; nobody outside the game does. Kept secret, the room stays closed
    # (its messages would name the mafia's members): the lynched Foundling left it too.
    readers = {a.id for a in s.players} if reveal else set()
    assert (await s.mafia_readers()) == readers
    s.assert_no_member_overwrite()
    return s


@pytest.mark.usefixtures("clients_in")
@pytest.mark.parametrize(("lang", "reveal"), [("en", False), ("ru", False), ("en", True)])
async def test_R6_R14_R22_R55_nothing_any_player_reads_leaks(
    simcord_env: Env, lang: Lang, reveal: bool
) -> None:
    """With ``/mafia new reveal:False`` nothing ever names a member, the end of the game
    included; with reveal on (the default) the end alone names them, as mentions that ping
    nobody (allowed mentions none, checked for every message)."""
    world = make_world(simcord_env, locale="ru" if lang == "ru" else None)
    s = await play(world, lang, reveal=reveal)
    env = s.env
    members = [*s.players, s.outsider, world.admin]
    names_of = {a.id: identities(a) for a in members}
    nicks = {nick: role for role, nick in s.nick.items()}
    game_name = t(lang, "channel.game")

    def the_end(where: str, text: str) -> bool:
        """The end-of-game announcement in #game (the town wins this game)."""
        return where == game_name and s.tr("winner.town") in text

    ends = [
        message_text(m) for m in slot(world, "game").history() if the_end(game_name, text_of(m))
    ]
    assert ends, "no end-of-game announcement"
    end_text = "\n".join(ends)
    for actor in s.players:  # each member is named if, and only if, the host chose so
        assert (f"<@{actor.id}>" in end_text) is reveal, end_text
    assert f"<@{s.outsider.id}>" not in end_text and f"<@{world.admin.id}>" not in end_text
    assert (s.tr("gameover.hidden") in end_text) is not reveal
    # R22, R19: the converted Foundling and the promoted Sergeant show both roles at the end.
    for role, final in (("foundling", "converted_foundling"), ("sergeant", "promoted_sergeant")):
        changed = s.tr("gameover.changed", role=s.tr(f"role.{role}"), final=s.tr(f"role.{final}"))
        assert f"{s.nick[role]}: {changed}" in end_text, end_text

    # Nothing the bot or its webhooks sent pings anybody (R6).
    sent = message_requests(env)
    assert len(sent) > 100
    for where, body in sent:
        assert body.get("allowed_mentions") == {"parse": []}, (where, body)

    seen = [
        item for viewer in [*s.players, s.outsider] for item in everything_seen_by(world, viewer)
    ]
    seen += s.room_seen
    room = mafia_room(world)
    assert {item.where for item in seen} >= {t(lang, "channel.game"), str(room.name), "DM"}
    private_replies = [i for i in seen if i.message.flags.ephemeral]
    assert len(private_replies) == s.commands  # each command a player ran, answered privately
    for item in seen:
        text = text_of(item.message)
        if reveal and the_end(item.where, text):
            continue  # names the members, by the host's choice (checked above)
        assert not MENTION.search(text), (item.where, text)
        assert not item.message.mention_everyone and not item.message.role_mentions
        assert "@everyone" not in text and "@here" not in text, text
        if item.message.webhook_id is not None:
            # A player's post: his own words (here, bait for pings: escaped above), under his
            # nickname, never under an account's name.
            text = item.message.author.name
        # No account but the reader's own in his private messages; none at all elsewhere.
        for member_id, names in names_of.items():
            if member_id == item.viewer.id and not item.shared:
                continue
            for name in names:
                assert name not in text, (item.where, name, text)

    # What was ever written in the shared channels (edits included) names no account.
    shared_ids = {slot(world, name).id for name in ("game", "discussion", "mafia")} | {room.id}
    everybody = [name for names in names_of.values() for name in names]
    for r in env.http_requests:
        if r.method in ("POST", "PATCH") and isinstance(r.json, dict):
            parts = r.path.split("/")
            if len(parts) > 3 and parts[1] == "channels" and int(parts[2]) in shared_ids:
                if reveal and s.tr("winner.town") in str(r.json):
                    continue  # the end, by the host's choice (checked above)
                content = str(r.json)  # the text and every embed
                assert not MENTION.search(content) and not any(n in content for n in everybody)

    # #game: only the bot and its webhooks post there; webhooks under nicknames (R6).
    game_ch = slot(world, "game")
    history = game_ch.history()
    bot_id = env.bot.user.id if env.bot.user else None
    for message in history:
        assert message.webhook_id is not None or message.author.id == bot_id
        if message.webhook_id is not None:
            assert message.author.name.split(" ")[0] in {nick.split(" ")[0] for nick in nicks}

    # R35, R55: a role is named in public next to a nickname only once he is dead: in his own
    # death line ("Nick (Role) ...", "Погиб игрок Nick (Role)"), which gives his true role, or
    # after it.
    words = role_words()
    death_line = re.compile(
        rf"(?<!\w)({'|'.join(map(re.escape, nicks))}) \(({'|'.join(map(re.escape, words))})\)"
    )
    announced: set[str] = set()
    for message in history:
        if message.webhook_id is not None:
            continue  # the players' own words (the test writes no role names in them)
        if message_text(message).startswith(
            tuple(t(lang, f"winner.{w}") for w in ("town", "mafia"))
        ):
            break  # the end: every role is revealed (R35)
        for line in message_text(message).splitlines():
            named = {nick for nick in nicks if contains_word(line, nick)}
            found = death_line.search(line)
            if found:
                nick, role = found.groups()
                assert role == t(lang, f"role.{nicks[nick]}"), line  # R35: the true role
                announced.add(nick)
                # Never who killed (R30, R55): only a pistol's shooter, a dead commissar (R18).
                assert named - {nick} <= announced, line
                continue
            if any(contains_word(line, word) for word in words):
                assert named <= announced, (line, named - announced)
    dead = ("boss", "commissar", "mafioso", "troublemaker", "villager", "foundling")
    assert announced == {s.nick[r] for r in dead}

    # The Foundling's and the Sergeant's new roles are told to them and to the mafia only.
    public_texts = [message_text(m) for m in history]
    for private in (
        t(lang, "announce.mafia_joined", nick=s.nick["foundling"]),
        t(lang, "announce.converted"),
        t(lang, "announce.promoted"),
    ):
        assert not [text for text in public_texts if private in text]
    mafia_texts = [m.content for m in room.history()]
    assert t(lang, "announce.mafia_joined", nick=s.nick["foundling"]) in mafia_texts

    # The mafia's room: its text never reached anyone outside the mafia while the game ran
    # (with the members revealed, the players read it once it is over, by design).
    mafia_name = str(room.name)
    outside = {s.actor[r].id for r in ("commissar", "sergeant", "doctor", "prostitute", "villager")}
    watched = s.room_seen if reveal else seen
    assert not [
        i for i in watched if i.where == mafia_name and i.viewer.id in outside | {s.outsider.id}
    ]
    after = {i.viewer.id for i in seen if i.where == mafia_name}
    if reveal:
        assert after == {a.id for a in s.players}
    assert s.outsider.id not in after


async def test_R18_boss_card_agrees_with_what_the_commissar_sees(simcord_env: Env) -> None:
    """The Boss's card must not tell him something the rules make false."""
    world = make_world(simcord_env)
    players = add_players(world, ("kay", "lee", "max", "ned"))
    await start_game(world, "boss=1 commissar=1 villager=2", players)
    seats = seats_by_role(world, players)
    boss_nick, boss = seats["boss"]
    com_nick, com = seats["commissar"]
    game_ch = slot(world, "game")
    for actor in players:
        reply_text(await actor.slash(game_ch, "say", text="Hello."))
    reply_text(await com.slash(game_ch, "check", target=boss_nick))
    await until_deadline(world)
    assert t("en", "check.mafia", target=boss_nick, commissar=com_nick) in dm_texts(com)
    [card] = dm_texts(boss)[:1]
    assert "not mafia" not in card.casefold() and "check as mafia" in card, card
    ru = role_description("ru", "card.about.boss", frozenset({"boss", "commissar", "villager"}))
    assert "не мафия" not in ru and "Проверка комиссара покажет вас мафией" in ru
