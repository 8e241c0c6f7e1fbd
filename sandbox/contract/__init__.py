"""The contract: every request the bot sends to SimCord is checked against the limits real
Discord enforces (it answers HTTP 400 where SimCord would accept). A test tool: the product
never imports it.

SimCord accepts payloads Discord refuses (an over-long nickname, a command name in capitals, a
webhook named "Discord", 26 autocomplete choices...). The bot keeps them legal by its own code
only; the contract makes a regression visible. Its parts:

- :mod:`~sandbox.contract.limits`: :data:`LIMITS`, the one table of the limits, each with
  where Discord states it (``discord/discord-api-docs``, file and section, or the OpenAPI
  description ``discord/discord-api-spec``);
- :mod:`~sandbox.contract.commands`, :mod:`~sandbox.contract.messages`,
  :mod:`~sandbox.contract.interactions`: the checks of a command sync, of a message (embeds,
  components, mentions, a webhook post's name), of a modal and an autocomplete answer;
- :mod:`~sandbox.contract.routes`: :func:`validate`, one REST request routed to its checks;
- :mod:`~sandbox.contract.recorder`: :class:`DiscordContract`, which wraps SimCord's router
  (``simcord.http.router.dispatch``, the one function both the bot's ``HTTPClient`` and the
  webhook adapter call) so that a request breaking a limit is recorded and refused with a 400
  (code 50035, "Invalid Form Body") as Discord would.

The end-to-end harness (``tests/e2e/conftest.py``) fails every test whose bot sent such a
request, naming the limit and its source; the demo (``sandbox/demo/``) reports them and exits
1. ``tests/sandbox/test_discord_contract.py`` proves each check can fail.
"""

from sandbox.contract.check import Violation
from sandbox.contract.limits import LIMITS, LOCALES, Limit
from sandbox.contract.recorder import ContractBroken, DiscordContract
from sandbox.contract.routes import validate

__all__ = [
    "LIMITS",
    "LOCALES",
    "ContractBroken",
    "DiscordContract",
    "Limit",
    "Violation",
    "validate",
]
