"""The screens and widgets whose bindings users can remap (for the keymap and the help)."""

from __future__ import annotations

from typing import TypeVar

from textual.dom import DOMNode

T = TypeVar("T", bound=type[DOMNode])

#: Classes that declare bindings with ids; screens and widgets add themselves on import.
BINDING_OWNERS: list[type[DOMNode]] = []


def owns_bindings(cls: T) -> T:
    """Class decorator: list ``cls`` among the owners of remappable bindings."""
    if cls not in BINDING_OWNERS:
        BINDING_OWNERS.append(cls)
    return cls
