"""Key bindings: every binding has an id (``inbox.claim``) and users remap them in the config
file (``[keys]`` table: ``"inbox.claim" = "ctrl+c"``).

The bindings themselves are declared where they act (screens and widgets, with
``Binding(..., id=…)``); this module applies the user's remaps and lists every binding for the
help screen and the README.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from textual.app import App
from textual.binding import Binding, BindingType
from textual.dom import DOMNode


@dataclass(frozen=True)
class KeyInfo:
    """One binding as the help screen shows it."""

    id: str
    keys: str
    description: str
    where: str


#: The binding that must always answer (it asks before losing anything, then quits).
QUIT_ID = "app.quit"
QUIT_KEY = "ctrl+q"
_MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})


@lru_cache(maxsize=1)
def _key_names() -> frozenset[str]:
    """Every key name Textual can deliver (``a``, ``question_mark``, ``pageup``, ``f5``).

    A printable character's name is the one Textual's own bindings give it
    (``Binding.make_bindings``, public); the two it cannot take as a binding's key — the
    space and the comma, which separate keys there — are named by hand."""
    from textual import keys
    from textual.binding import Binding

    names = {key.value.rsplit("+", 1)[-1] for key in keys.Keys}
    names |= {binding.key for binding in Binding.make_bindings(
        (chr(code), "") for code in range(33, 127) if chr(code) != ",")}
    names |= {"comma", "space"}
    names |= set(keys.KEY_ALIASES) | set(keys.REPLACED_KEYS) | set(keys.REPLACED_KEYS.values())
    names |= {"enter", "tab", "space", "backspace", "escape"}
    names |= {f"f{n}" for n in range(1, 25)}
    return frozenset(names)


def key_problem(keys: str) -> str | None:
    """What is wrong with a binding's keys as written in the config file (``"ctrl+g"``,
    ``"j,down"``), or None when Textual can deliver each of them."""
    parts = [part.strip() for part in keys.split(",")]
    if not all(parts):
        return f"{keys!r} has an empty key"
    for part in parts:
        *modifiers, name = part.split("+")
        bad = [m for m in modifiers if m.lower() not in _MODIFIERS]
        if bad or not name:
            return f"{part!r} is not a key (modifiers are ctrl, shift, alt, meta, super)"
        if len(name) == 1 and name.isprintable():
            continue
        if name.lower() not in _key_names():
            return f"{part!r} is not a key Textual knows (see the help screen for names)"
    return None


def apply_remaps(app: App[Any], remaps: Mapping[str, str]) -> list[str]:
    """Apply ``remaps`` (binding id → keys); returns what could not be applied, one sentence
    each: ids that match no known binding, keys that are not keys, and another binding on the
    quit key (``ctrl+q`` must always reach quitting, which asks before losing anything)."""
    if not remaps:
        return []
    load_every_screen()
    known = {info.id for info in catalogue(_classes(app))}
    problems: list[str] = []
    unknown = [binding_id for binding_id in remaps if binding_id not in known]
    if unknown:
        problems.append("unknown binding ids: " + ", ".join(unknown))
    applied: dict[str, str] = {}
    for binding_id, keys in remaps.items():
        if binding_id not in known:
            continue
        problem = key_problem(keys)
        if problem is not None:
            problems.append(f"{binding_id}: {problem}")
            continue
        if binding_id != QUIT_ID and QUIT_KEY in {k.strip().lower() for k in keys.split(",")}:
            problems.append(f"{binding_id}: {QUIT_KEY} is kept for quitting")
            continue
        applied[binding_id] = keys
    app.set_keymap(applied)
    return problems


def load_every_screen() -> None:
    """Import every screen and widget module, so each registers its bindings (modes are
    otherwise imported on first use)."""
    import importlib
    import pkgutil

    from . import screens, widgets

    for package in (screens, widgets):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            importlib.import_module(info.name)


def _classes(app: App[Any]) -> list[type[DOMNode]]:
    from . import registry

    return [type(app), *registry.BINDING_OWNERS]


def _bindings(owner: type[DOMNode]) -> Iterable[Binding]:
    for item in getattr(owner, "BINDINGS", []):
        binding = _as_binding(item)
        if binding is not None:
            yield binding


def _as_binding(item: BindingType) -> Binding | None:
    if isinstance(item, Binding):
        return item
    if isinstance(item, tuple) and len(item) >= 2:
        return Binding(item[0], item[1], item[2] if len(item) > 2 else "")
    return None


def catalogue(owners: Iterable[type[DOMNode]]) -> list[KeyInfo]:
    """Every binding with an id, of the given screens and widgets."""
    seen: set[str] = set()
    out: list[KeyInfo] = []
    for owner in owners:
        for binding in _bindings(owner):
            if binding.id is None or binding.id in seen:
                continue
            seen.add(binding.id)
            out.append(KeyInfo(binding.id, binding.key, binding.description,
                               getattr(owner, "HELP_NAME", owner.__name__)))
    return out
