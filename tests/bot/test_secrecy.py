"""R14, R55: the pure rule of ``bot/secrecy.py``: which permissions let a member read the
mafia's room or #host, so that he may not play."""

from __future__ import annotations

import discord

from bot.secrecy import Exposure, exposures

NONE = discord.Permissions.none()
READ = discord.Permissions(view_channel=True, read_message_history=True)


def test_a_plain_member_may_play() -> None:
    assert (
        exposures(server=discord.Permissions.general(), is_host=False, mafia=READ, host=NONE) == ()
    )
    # With no game channels yet there is nothing to read.
    assert exposures(server=NONE, is_host=False, mafia=None, host=None) == ()


def test_administrator_reads_everything() -> None:
    found = exposures(
        server=discord.Permissions(administrator=True),
        is_host=True,
        mafia=discord.Permissions.all(),
        host=discord.Permissions.all(),
    )
    assert found == (Exposure("server", "administrator"),)


def test_a_host_may_not_play() -> None:
    """/mafia state names every role: a host gives up his host rights to play."""
    assert exposures(server=NONE, is_host=True, mafia=READ, host=NONE) == (
        Exposure("server", "host"),
    )


def test_manage_threads_or_channels_in_mafia() -> None:
    """A private thread is read by its members and by Manage Threads on its parent."""
    mafia = discord.Permissions(view_channel=True, manage_threads=True, manage_channels=True)
    assert exposures(server=NONE, is_host=False, mafia=mafia, host=NONE) == (
        Exposure("mafia", "manage_threads"),
        Exposure("mafia", "manage_channels"),
    )
    # Only the effective permissions in #mafia count: a server-wide Manage Threads that an
    # overwrite denies in #mafia reads nothing there.
    server = discord.Permissions(manage_threads=True)
    assert exposures(server=server, is_host=False, mafia=READ, host=NONE) == ()


def test_reading_host() -> None:
    assert exposures(server=NONE, is_host=False, mafia=READ, host=READ) == (
        Exposure("host", "view_host"),
    )
    # Several reasons are all given, so that the member can fix each.
    found = exposures(
        server=NONE,
        is_host=True,
        mafia=discord.Permissions(view_channel=True, manage_threads=True),
        host=READ,
    )
    assert [e.reason for e in found] == ["host", "manage_threads", "view_host"]
