"""The reachability list covers every operation, and every key and palette command it names
exists on the screen class it names (with the action behind it)."""

from __future__ import annotations

import importlib
import re

import pytest
from textual.binding import Binding

from frontdesk.api import DEPRECATED_OPERATIONS, OPERATIONS
from frontdesk.tui.reachability import REACHABILITY, Elsewhere, NotDirect, Reach
from frontdesk.tui.screens.admin.admin import AdminScreen
from frontdesk.tui.screens.inbox.ratings import RatingsScreen
from frontdesk.tui.screens.people.people import PeopleScreen
from frontdesk.tui.screens.people.profile import EndUserProfileScreen
from frontdesk.tui.screens.shared.attributes_panel import AttributesPanel


def _class(path: str) -> type:
    module, _, name = path.partition(":")
    cls = getattr(importlib.import_module(module), name)
    assert isinstance(cls, type)
    return cls


def _binding_ids(cls: type) -> dict[str, Binding]:
    out: dict[str, Binding] = {}
    for klass in cls.__mro__:
        for item in getattr(klass, "BINDINGS", []) or []:
            if isinstance(item, Binding) and item.id:
                out.setdefault(item.id, item)
    return out


def _action_name(action: str) -> tuple[str, tuple[str, ...]]:
    match = re.fullmatch(r"(\w+)(?:\((.*)\))?", action)
    assert match, action
    arguments = tuple(a.strip().strip("'\"") for a in (match[2] or "").split(",") if a.strip())
    return match[1], arguments


def test_every_operation_is_listed_and_nothing_else() -> None:
    assert set(REACHABILITY) == set(OPERATIONS)


def test_deprecated_operations_stay_reachable_and_say_so() -> None:
    for key in DEPRECATED_OPERATIONS:
        way = REACHABILITY[key]
        assert isinstance(way, Reach), key
        shown = f"{way.palette or ''} {way.note}".lower()
        assert "deprecated" in shown, key


@pytest.mark.parametrize("key", sorted(REACHABILITY))
def test_each_way_is_real(key: tuple[str, str]) -> None:
    way = REACHABILITY[key]
    if isinstance(way, NotDirect):
        assert way.reason and "\n" not in way.reason and len(way.reason) < 160
        return
    if isinstance(way, Elsewhere):
        assert way.mode and way.how and "\n" not in way.how
        return
    assert isinstance(way, Reach)
    assert way.key or way.palette, key
    cls = _class(way.screen)
    if way.key:
        bindings = _binding_ids(cls)
        assert way.key in bindings, f"{way.key} is not a binding of {cls.__name__}"
        action, _ = _action_name(bindings[way.key].action)
        assert callable(getattr(cls, f"action_{action}", None)), (way.key, action)
    if way.palette:
        entries = {entry.title: entry for entry in getattr(cls, "PALETTE", ())}
        assert way.palette in entries, f"{way.palette!r} is not in {cls.__name__}.PALETTE"
        action, arguments = _action_name(entries[way.palette].action)
        assert callable(getattr(cls, f"action_{action}", None))
        for argument in arguments:
            assert callable(getattr(cls, f"action_{argument}", None)), argument


@pytest.mark.parametrize("cls", [PeopleScreen, AdminScreen, RatingsScreen, AttributesPanel,
                                 EndUserProfileScreen])
def test_palettes_and_bindings_of_these_screens_are_whole(cls: type) -> None:
    prefixes: dict[type, str] = {PeopleScreen: "people.", AdminScreen: "admin.",
                                 RatingsScreen: "ratings.", AttributesPanel: "attributes.",
                                 EndUserProfileScreen: "profile."}
    prefix = prefixes[cls]
    own = [b for b in cls.__dict__["BINDINGS"] if isinstance(b, Binding)]
    assert own and all(b.id and b.id.startswith(prefix) and b.description for b in own)
    for binding in own:
        action, _ = _action_name(binding.action)
        assert callable(getattr(cls, f"action_{action}", None)), binding.id
    titles = [entry.title for entry in cls.__dict__["PALETTE"]]
    assert len(titles) == len(set(titles))
    for entry in cls.__dict__["PALETTE"]:
        action, arguments = _action_name(entry.action)
        assert callable(getattr(cls, f"action_{action}", None)), entry.title
        for argument in arguments:
            assert callable(getattr(cls, f"action_{argument}", None)), entry.title


def test_every_key_of_people_and_admin_is_also_a_palette_command() -> None:
    for cls in (PeopleScreen, AdminScreen):
        palette_actions: set[str] = set()
        for entry in cls.PALETTE:
            action, arguments = _action_name(entry.action)
            palette_actions.update(arguments or (action,))
        for binding in cls.BINDINGS:
            assert isinstance(binding, Binding)
            action, _ = _action_name(binding.action)
            if action in ("switch_tab", "reload", "menu") or action.endswith("_now"):
                continue  # moving around, and the no-question variants of asked actions
            assert action in palette_actions, (cls.__name__, binding.id)
