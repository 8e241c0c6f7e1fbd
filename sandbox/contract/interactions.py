"""An interaction's answers that are no message: a modal, an autocomplete's choices."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from sandbox.contract.check import Check
from sandbox.contract.limits import LABEL, TEXT_INPUT


def _text_inputs(rows: Sequence[Mapping[str, Any]]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """The modal's inputs, each with the label it shows: a Label component's (whose child the
    input is) or, in a legacy action row, the input's own."""
    for i, row in enumerate(rows):
        if row.get("type") == LABEL:
            child = row.get("component") or {}
            yield f"components[{i}].component", {**child, "label": row.get("label")}
        for j, item in enumerate(row.get("components") or []):
            yield f"components[{i}].components[{j}]", item


def check_modal(check: Check, data: Mapping[str, Any]) -> None:
    check.length("modal.title", data.get("title", ""), "data.title")
    check.length("modal.custom_id", data.get("custom_id", ""), "data.custom_id")
    rows = data.get("components") or []
    check.length("modal.components", rows, "data.components")
    for where, item in _text_inputs(rows):
        if item.get("type") != TEXT_INPUT:
            continue
        check.length("component.custom_id", item.get("custom_id", ""), f"data.{where}.custom_id")
        check.length("text_input.label", item.get("label", ""), f"data.{where}.label")
        check.number(
            "text_input.length", item.get("min_length"), f"data.{where}.min_length", 0, 4000
        )
        check.number(
            "text_input.length", item.get("max_length"), f"data.{where}.max_length", 1, 4000
        )
        check.length("text_input.value", item.get("value"), f"data.{where}.value")
        check.length("text_input.placeholder", item.get("placeholder"), f"data.{where}.placeholder")


def check_autocomplete(check: Check, data: Mapping[str, Any]) -> None:
    choices = data.get("choices") or []
    check.length("autocomplete.choices", choices, "data.choices")
    for i, choice in enumerate(choices):
        check.length("autocomplete.choice_name", choice.get("name", ""), f"data.choices[{i}].name")
        for locale, name in (choice.get("name_localizations") or {}).items():
            check.length(
                "autocomplete.choice_name", name, f"data.choices[{i}].name_localizations[{locale}]"
            )
        if isinstance(choice.get("value"), str):
            check.length("autocomplete.choice_value", choice["value"], f"data.choices[{i}].value")
