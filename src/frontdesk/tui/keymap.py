"""Key bindings: every binding has an id (``inbox.claim``) and users remap them in the config
file (``[keys]`` table: ``"inbox.claim" = "ctrl+c"``).

The bindings themselves are declared where they act (screens and widgets, with
``Binding(..., id=…)``); this module applies the user's remaps and lists every binding for the
help screen and the README.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
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


def apply_remaps(app: App[Any], remaps: Mapping[str, str]) -> list[str]:
    """Apply ``remaps`` (binding id → keys); returns the ids that match no known binding."""
    if not remaps:
        return []
    load_every_screen()
    known = {info.id for info in catalogue(_classes(app))}
    unknown = [binding_id for binding_id in remaps if binding_id not in known]
    app.set_keymap({k: v for k, v in remaps.items() if k in known})
    return unknown


def load_every_screen() -> None:
    """Import every screen and widget module, so each registers its bindings (modes are
    otherwise imported on first use)."""
    import importlib
    import pkgutil

    from . import screens, widgets

    for package in (screens, widgets):
        for info in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"{package.__name__}.{info.name}")


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
