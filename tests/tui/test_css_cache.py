"""The shared stylesheet parses each piece of CSS once per set of variables."""

from __future__ import annotations

from typing import Any

import pytest
from textual.css.stylesheet import Stylesheet

from frontdesk.tui.css_cache import SharedStylesheet

CSS = "Label { color: $accent; }\n#x { height: 2; }"


def test_the_same_css_with_the_same_variables_is_parsed_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    parses: list[str] = []
    original = Stylesheet._parse_rules

    def counting(self: Stylesheet, css: str, *args: Any, **kwargs: Any) -> Any:
        parses.append(css)
        return original(self, css, *args, **kwargs)

    monkeypatch.setattr(Stylesheet, "_parse_rules", counting)
    monkeypatch.setattr(SharedStylesheet, "_parsed", {})
    sheet = SharedStylesheet(variables={"accent": "red"})
    sheet.add_source(CSS, ("test.tcss", ""))
    first = sheet.rules
    sheet.set_variables({"accent": "red"})  # a refresh with the same variables
    sheet.reparse()
    assert sheet.rules == first and len(parses) == 1
    sheet.set_variables({"accent": "blue"})  # another theme: parsed afresh, with its colour
    sheet.reparse()
    assert len(parses) == 2
    [label, _] = sheet.rules
    assert label.styles.color != first[0].styles.color
