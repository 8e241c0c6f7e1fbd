"""The simulated players' choices (pure): what each living player posts, quotes, reads again,
requests, votes and hunts in a turn (:func:`plan_turn`) and whom a killed commissar shoots
(:func:`plan_shot`), decided only from the seed, the turn and what he sees (:class:`View`), so
a restarted demo re-derives the same plans; and the host's story above a turn's results
(:func:`plan_story`, ``--review``)."""

from __future__ import annotations

import hashlib
import io
from random import Random
from typing import Final

import attrs

from core.i18n import Lang
from rules.roles import COMMON_VERBS, Shape, verb_spec
from sandbox.demo.reader import Card, Status

PHRASES: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "en": {
        "intro": (
            "Hello everyone! Let's keep this game clean.",
            "Good morning, town. I'm here and I'm listening.",
            "Hi all. First time with this bot, looks neat.",
            "Greetings. {other}, nice to see you again.",
            "Morning! Coffee first, accusations later.",
            "Hey. I'll be reading every post carefully.",
            "Hello. May the best side win.",
        ),
        "day": (
            "I don't trust {suspect}.",
            "{suspect}, why so quiet?",
            "Something about {suspect} feels off.",
            "Let's not rush. {other}, what do you think?",
            "I'm watching the votes closely today.",
            "Stay sharp, everyone. They are among us.",
            "{other} seems honest to me.",
            "We need to agree on someone, or we lose.",
            "Has anyone noticed how {suspect} votes?",
            "My gut says {suspect}.",
            "Words are cheap. Watch the votes.",
        ),
        "sure": (
            "I'm certain about {target}. Vote with me.",
            "Trust me on this one: {target}, nobody else.",
        ),
        "note": (
            "If I fall, trust {to}.",
            "{to}, avenge me.",
            "Watch the quiet ones, {to}.",
        ),
        "reply": (
            "I read that differently.",
            "Exactly my thought.",
            "That's what a wolf would say.",
            "Then vote with it, don't just talk.",
            "Why now, and not yesterday?",
        ),
    },
    "ru": {
        "intro": (
            "Всем привет! Играем честно.",
            "Доброе утро, город. Я здесь и слушаю.",
            "Привет всем. Первый раз с этим ботом, интересно.",
            "Здравствуйте. {other}, рад снова видеть.",
            "Утро! Сначала кофе, потом обвинения.",
            "Привет. Буду внимательно читать каждый пост.",
            "Здравствуйте. Пусть победит сильнейший.",
        ),
        "day": (
            "Не верю игроку {suspect}.",
            "{suspect}, почему так тихо?",
            "С игроком {suspect} что-то не так.",
            "Не будем спешить. {other}, что думаешь?",
            "Сегодня внимательно слежу за голосами.",
            "Не расслабляемся. Они среди нас.",
            "{other} кажется мне честным.",
            "Надо договориться, иначе проиграем.",
            "Кто-нибудь заметил, как голосует {suspect}?",
            "Чутьё подсказывает: {suspect}.",
            "Слова ничего не стоят. Смотрите на голоса.",
        ),
        "sure": (
            "Я уверен насчёт игрока {target}. Голосуйте со мной.",
            "Поверьте мне: {target}, и никто другой.",
        ),
        "note": (
            "Если я паду, {to}, не сдавайся.",
            "{to}, отомсти за меня.",
            "Присматривай за тихими, {to}.",
        ),
        "reply": (
            "Я понимаю это иначе.",
            "Ровно мои мысли.",
            "Так сказал бы волк.",
            "Тогда голосуй, а не говори.",
            "Почему сейчас, а не вчера?",
        ),
    },
}

#: A dead player's line in the ghosts' room (``--ghost-room``, R62), one a turn.
GHOST_LINES: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "From here the game looks very different.",
        "I should have voted the other way.",
        "Listen to the quiet ones, friends.",
        "It is cold here, and the coffee is worse.",
    ),
    "ru": (
        "Отсюда игра выглядит совсем иначе.",
        "Надо было голосовать по-другому.",
        "Слушайте тех, кто молчит, друзья.",
        "Здесь холодно, и кофе хуже.",
    ),
}


def ghost_line(lang: str, turn: int, seat: int) -> str:
    """The line a dead player posts in the ghosts' room on ``turn``."""
    lines = GHOST_LINES["ru" if lang == "ru" else "en"]
    return lines[(turn + seat) % len(lines)]


#: The simulated host's story above each turn's results (``--review``), a line a turn.
STORIES: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "The night was cold over the village, and not everyone slept.",
        "Fog came down from the hills; somewhere a door creaked.",
        "The square was quiet at dawn. Too quiet.",
        "Rain washed the cobbles, but not the suspicion.",
        "Lanterns burned late in every window tonight.",
    ),
    "ru": (
        "Ночь над деревней была холодной, и спали не все.",
        "С холмов спустился туман; где-то скрипнула дверь.",
        "На рассвете площадь молчала. Слишком тихо.",
        "Дождь отмыл мостовую, но не подозрения.",
        "Этой ночью фонари горели допоздна в каждом окне.",
    ),
}


@attrs.frozen
class View:
    """Everything a player's decisions may depend on."""

    seed: int
    turn: int
    card: Card
    living: tuple[str, ...]  # sorted
    status: Status


@attrs.frozen
class Plan:
    posts: tuple[str, ...] = ()
    actions: tuple[tuple[str, str], ...] = ()  # role requests (verb, target), in order
    vote: str | None = None
    hunt: str | None = None
    note: tuple[str, str] | None = None  # (to, text)
    #: An answer to the latest post of another player, with the message command "Quote"
    #: (after ``posts``; it counts as a post too).
    quote: str | None = None
    #: His first post this turn carries a picture (``/say image``: a phone photo, posted
    #: cleaned of its metadata and name, R6).
    picture: bool = False
    #: What he reads again before he votes, privately: ``("votes",)`` (the published lynch
    #: tallies) and/or ``("iso", nick)`` (one nickname's posts).
    reads: tuple[tuple[str, ...], ...] = ()


def _rng(seed: int, *parts: object) -> Random:
    """A generator keyed by the seed and a purpose (string seeding is stable across runs)."""
    return Random(":".join(["demo", str(seed), *map(str, parts)]))


def _parity(seed: int, nick: str) -> int:
    return hashlib.sha256(f"{seed}:{nick}".encode()).digest()[0] % 2


#: The abilities `plan_turn` plays with a plan of their own.
PLANNED_VERBS = frozenset({"kill", "slander", "check", "heal", "inject", "block", "poison"})


def plan_turn(view: View, lang: Lang) -> Plan:
    """A living player's requests and posts for one open turn."""
    seed, turn, card = view.seed, view.turn, view.card
    me = card.nick
    rng = _rng(seed, turn, me)
    living = list(view.living)
    others = [n for n in living if n != me]
    if not others:
        return Plan()
    mafia = "kill" in card.verbs
    outsiders = [n for n in living if n not in card.team] if mafia else others
    # The mafia agree on their targets: every member derives the same ones (as if they read
    # the first member's choice in #mafia).
    bloc_kill = _rng(seed, turn, "mafia-kill").choice(outsiders) if outsiders else None
    bloc_vote = _rng(seed, turn, "mafia-vote").choice(outsiders) if outsiders else None
    # The "talk of the day": whom the town's discussion turns on (everybody reads it).
    suspect = _rng(seed, turn, "suspect").choice(living)
    known = [n for n, is_mafia in view.status.checks if is_mafia and n in others]

    phrases = PHRASES[lang]
    target = known[0] if known else (bloc_vote if mafia else suspect)
    if target == me:
        target = rng.choice(others)
    fill = {"suspect": target, "other": rng.choice(others), "target": target}
    if turn == 1:
        pool = phrases["intro"]
    elif known:
        pool = phrases["sure"]
    else:
        pool = phrases["day"]
    count = 2 if rng.random() < 0.35 else 1
    posts = tuple(p.format_map(fill) for p in rng.sample(pool, count))

    actions: list[tuple[str, str]] = []
    if mafia and bloc_kill is not None:
        actions.append(("kill", bloc_kill))
    if "slander" in card.verbs and outsiders:
        actions.append(("slander", rng.choice(outsiders)))
    if "check" in card.verbs:
        checked = {n for n, _ in view.status.checks}
        fresh = [n for n in others if n not in checked] or others
        actions.append(("check", rng.choice(fresh)))
    if "heal" in card.verbs:
        # Never the same player two turns in a row: odd and even turns heal disjoint halves.
        half = [n for n in living if _parity(seed, n) == turn % 2]
        if half:
            actions.append(("heal", rng.choice(half)))
    if "block" in card.verbs:
        actions.append(("block", rng.choice(others)))
    if "poison" in card.verbs:
        actions.append(("poison", rng.choice(others)))
    for verb in card.verbs:  # any other ability naming one player: somebody at random
        spec = verb_spec(verb)
        if (
            verb not in PLANNED_VERBS
            and verb not in COMMON_VERBS
            and verb != "hunt"
            and spec is not None
            and spec.shape is Shape.TARGET
            and turn >= spec.from_turn
        ):
            actions.append((verb, rng.choice(others)))

    vote: str | None = None
    hunt: str | None = None
    if turn >= 2:
        if mafia and bloc_vote is not None:
            vote = bloc_vote
        elif known:
            vote = known[0]
        elif suspect != me and rng.random() < 0.6:
            vote = suspect
        else:
            vote = rng.choice(others)
        if card.role == "villager" and "hunt" in card.verbs and rng.random() < 0.15:
            hunt = suspect if suspect != me else rng.choice(others)

    note: tuple[str, str] | None = None
    if turn == 1 and rng.random() < 0.25:
        to = rng.choice(others)
        note = (to, rng.choice(phrases["note"]).format_map({"to": to}))
    # Quotes and reading come from generators of their own: the choices above stay as they were.
    quote: str | None = None
    aside = _rng(seed, turn, me, "quote")
    if turn >= 2 and aside.random() < 0.3:
        quote = aside.choice(phrases["reply"])
    # On even turns one player's first post carries a picture.
    picture = turn % 2 == 0 and _rng(seed, turn, "picture").choice(living) == me
    reads: list[tuple[str, ...]] = []
    if turn >= 2 and _rng(seed, turn, "reader").choice(living) == me:
        if turn >= 3:  # turn 2's results published the first tally
            reads.append(("votes",))
        if target is not None and target != me:
            reads.append(("iso", target))
    return Plan(
        posts=posts,
        actions=tuple(actions),
        vote=vote,
        hunt=hunt,
        note=note,
        quote=quote,
        picture=picture,
        reads=tuple(reads),
    )


def photo(seed: int, turn: int, nick: str) -> tuple[str, bytes]:
    """The picture a player posts: a small JPEG drawn from the seed, under the name a phone
    gives it (which the bot never shows)."""
    from PIL import Image, ImageDraw  # only the players who post a picture need it

    rng = _rng(seed, turn, nick, "photo")
    sky = tuple(rng.randrange(60, 200) for _ in range(3))
    image = Image.new("RGB", (160, 120), sky)
    draw = ImageDraw.Draw(image)
    for _ in range(4):
        x, y = rng.randrange(0, 140), rng.randrange(40, 110)
        colour = tuple(rng.randrange(0, 256) for _ in range(3))
        draw.rectangle((x, y, x + rng.randrange(10, 40), 120), fill=colour)
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=80)
    return (
        f"IMG_2026{turn:02d}{rng.randrange(10, 29)}_{rng.randrange(1000, 9999)}.jpg",
        out.getvalue(),
    )


def plan_story(seed: int, turn: int, lang: Lang) -> str:
    """The host's story above the results of ``turn`` (``--review``)."""
    return _rng(seed, turn, "story").choice(STORIES[lang])


def plan_shot(view: View) -> str | None:
    """A killed commissar with the pistol prompt: the mafia he found, else anybody."""
    me = view.card.nick
    others = [n for n in view.living if n != me]
    if not others:
        return None
    known = [n for n, is_mafia in view.status.checks if is_mafia and n in others]
    return known[0] if known else _rng(view.seed, view.turn, me, "shot").choice(others)
