"""The sign-up post's tally of role wishes (R58): counts by role in the game's language, never
who; the members who wished for nothing counted last."""

from __future__ import annotations

from bot.signup import signup_text, tally_text, wish_options
from core.i18n import t
from rules.wishes import wishable_roles


def test_R58_the_tally_reads_as_the_original_list_in_russian() -> None:
    tally = {"villager": 3, "commissar": 1}
    assert tally_text("ru", tally, 6) == (
        "Пожелания: Мирный житель — 3, Комиссар — 1; без пожелания — 2."
    )
    assert tally_text("ru", tally, 4) == "Пожелания: Мирный житель — 3, Комиссар — 1."
    assert tally_text("ru", {}, 4) == t("ru", "signup.wishes_none")


def test_R58_the_tally_in_english_and_the_post() -> None:
    assert tally_text("en", {"mafioso": 1}, 3) == "Role wishes: Mafioso — 1; no wish — 2."
    post = signup_text("en", 3, "fast", {"mafioso": 1})
    assert "/wish" in post and post.endswith("Role wishes: Mafioso — 1; no wish — 2.")
    assert "wish" not in signup_text("en", 3, "fast").casefold()  # a game without wishes


def test_R58_the_menu_offers_the_registry_roles_and_no_wish() -> None:
    for lang in ("ru", "en"):
        options = wish_options(lang)
        assert [value for _label, value in options] == [*wishable_roles(), "none"]
        assert options[-1][0] == t(lang, "signup.wish_none_option")
        assert len(options) <= 25  # Discord's limit for a select menu
