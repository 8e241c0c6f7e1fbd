"""R59, downtime: a turn in which the bot could not serve the game for a tenth of its length or
more (it was not running, or Discord did not answer it) removes nobody for inactivity (R52)
and charges no missed vote (R53): the players could not post or vote.

The time lost is measured outside the rules (the store keeps when the bot could not serve each
game); the rules get it as an input of the resolution, logged with the turn like a host
command (``{"do": "downtime", "lost": s, "length": s}``, seconds), so a replay of the log
decides the same. The last such entry of a turn is its measure (a resolution retried after a
crash measures again, the longer).
"""

from __future__ import annotations

from typing import Any, Final

import attrs

#: The verb of the log entry (in a turn's ``host`` section of a script).
DOWNTIME_VERB: Final[str] = "downtime"

#: R59: the share of a turn that, lost, excuses it (a tenth).
EXCUSING_SHARE: Final[int] = 10


class DowntimeFormatError(ValueError):
    """A downtime entry that is not two whole numbers of seconds, ``lost`` <= ``length``."""


@attrs.frozen
class Downtime:
    """The seconds of the turn the bot could not serve the game, and the turn's length."""

    lost: int
    length: int

    @property
    def excuses(self) -> bool:
        """R59: at least a tenth of the turn was lost."""
        return self.lost > 0 and self.lost * EXCUSING_SHARE >= self.length

    def to_dict(self) -> dict[str, Any]:
        return {"do": DOWNTIME_VERB, "lost": self.lost, "length": self.length}

    @classmethod
    def from_dict(cls, data: Any) -> Downtime:
        if not isinstance(data, dict) or data.get("do") != DOWNTIME_VERB:
            raise DowntimeFormatError("a downtime entry must be {'do': 'downtime', ...}")
        if set(data) != {"do", "lost", "length"}:
            raise DowntimeFormatError("'downtime' needs 'lost' and 'length' (seconds) only")
        lost, length = data["lost"], data["length"]
        for value in (lost, length):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise DowntimeFormatError("'lost' and 'length' must be whole seconds, >= 0")
        if lost > length:
            raise DowntimeFormatError("'lost' cannot be longer than 'length'")
        return cls(lost=lost, length=length)


def is_downtime_entry(payload: Any) -> bool:
    """Whether a ``host`` log entry is R59's downtime (not a host command)."""
    return isinstance(payload, dict) and payload.get("do") == DOWNTIME_VERB


def measure(lost_seconds: float, length_seconds: float) -> Downtime:
    """The downtime of a turn from measured seconds (whole seconds; never more than the
    turn)."""
    length = max(0, int(length_seconds))
    return Downtime(lost=min(length, max(0, round(lost_seconds))), length=length)
