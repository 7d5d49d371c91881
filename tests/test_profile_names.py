"""A profile's name is checked without a pattern compiled before the first frame: the check
accepts exactly what ``^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`` accepts."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from frontdesk.settings.checks import check_profile_name

PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def _accepted(name: str) -> bool:
    try:
        return check_profile_name(name) == name
    except ValueError:
        return False


@pytest.mark.parametrize("name", ["work", "a", "Team-2.b_c", "9", "x" * 64, "é", "x" * 65,
                                  "-lead", ".hidden", "_x", "a b", "a/b", "\u0663",
                                  "\uff41", "a\n",
                                  "İ", "ß1"])
def test_a_profile_name_is_accepted_as_the_pattern_says(name: str) -> None:
    assert _accepted(name) == bool(PATTERN.fullmatch(name)), name


@given(st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from("aZ9_.-"),
               max_size=70))
def test_any_text_is_accepted_as_the_pattern_says(name: str) -> None:
    assert _accepted(name) == bool(PATTERN.fullmatch(name))
