"""How a time of the game is said to players: "21:00 по Москве", "21:00 Moscow time".

A game keeps its time zone as an IANA name (``Europe/Moscow``), which no host writes in a
post. :func:`said_time` is the one place that turns a moment and a zone into what a forum
host writes: the zone's city in the reader's language for the zones tables commonly use
(``zone-<city>`` in ``locales/*/time.ftl``), "UTC" for UTC, otherwise the offset at that
moment ("21:00 (UTC+5)"). Every text that names a time in the game's zone calls it (the vote
confirmation, the cards, the sign-up); Discord timestamps (``<t:...>``), which each reader
sees in his own zone, need none of it.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core.i18n import Lang, t

#: IANA zones tables use -> the catalogue's city (``zone-<city>``). Aliases share a city.
CITIES: Final[dict[str, str]] = {
    "Europe/Moscow": "moscow",
    "Europe/Simferopol": "moscow",
    "Europe/Volgograd": "volgograd",
    "Europe/Kaliningrad": "kaliningrad",
    "Europe/Samara": "samara",
    "Asia/Yekaterinburg": "yekaterinburg",
    "Asia/Omsk": "omsk",
    "Asia/Novosibirsk": "novosibirsk",
    "Asia/Krasnoyarsk": "krasnoyarsk",
    "Asia/Irkutsk": "irkutsk",
    "Asia/Vladivostok": "vladivostok",
    "Europe/Kyiv": "kyiv",
    "Europe/Kiev": "kyiv",
    "Europe/Minsk": "minsk",
    "Asia/Almaty": "almaty",
    "Asia/Tashkent": "tashkent",
    "Asia/Tbilisi": "tbilisi",
    "Europe/Riga": "riga",
    "Europe/Vilnius": "vilnius",
    "Europe/Tallinn": "tallinn",
    "Asia/Jerusalem": "jerusalem",
    "Europe/London": "london",
    "Europe/Berlin": "berlin",
    "Europe/Paris": "paris",
    "America/New_York": "new_york",
    "America/Chicago": "chicago",
    "America/Los_Angeles": "los_angeles",
}
_UTC: Final = frozenset({"UTC", "Etc/UTC", "GMT", "Etc/GMT", "Etc/Universal", "Universal"})


def _offset(zone: str, at: datetime) -> str:
    """``UTC+3``, ``UTC-5``, ``UTC+5:30`` at the moment ``at`` (daylight saving included)."""
    try:
        delta = at.astimezone(ZoneInfo(zone)).utcoffset() or timedelta(0)
    except (ZoneInfoNotFoundError, ValueError):
        return zone
    minutes = int(delta.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def zone_said(lang: Lang, zone: str, at: datetime | None = None) -> str:
    """The zone as a host names it after a time: "по Москве", "Moscow time", "UTC",
    "(UTC+5)". ``at``: the moment, for the offset of a zone with no city here."""
    city = CITIES.get(zone)
    if city is not None:
        return t(lang, f"zone.{city}")
    if zone in _UTC:
        return t(lang, "zone.utc")
    return t(lang, "zone.offset", offset=_offset(zone, at or datetime(2026, 1, 1)))


def said_time(lang: Lang, moment: datetime | time, zone: str) -> str:
    """A time in the game's ``zone`` as a host writes it: "21:00 по Москве", "21:00 Moscow
    time". A ``datetime`` is first put in the zone; a ``time`` is already the zone's."""
    at: datetime | None = None
    if isinstance(moment, datetime):
        try:
            at = moment.astimezone(ZoneInfo(zone))
        except (ZoneInfoNotFoundError, ValueError):
            at = moment
        clock = at.strftime("%H:%M")
    else:
        clock = moment.strftime("%H:%M")
    return t(lang, "zone.time", time=clock, zone=zone_said(lang, zone, at))
