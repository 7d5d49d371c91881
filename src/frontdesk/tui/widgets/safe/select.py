"""Select, its option labels plain text and always inert."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from textual import widgets as textual_widgets

from ....text import clean
from . import plain

V = TypeVar("V")


class Select(textual_widgets.Select[V]):
    """``textual.widgets.Select`` whose option labels (plain text: :func:`plain`) and
    prompt are always inert."""

    def __init__(self, options: Iterable[tuple[Any, V]], **kwargs: Any) -> None:
        if "prompt" in kwargs:
            kwargs["prompt"] = clean(kwargs["prompt"], multiline=False)
        super().__init__([(plain(label), value) for label, value in options], **kwargs)

    def set_options(self, options: Iterable[tuple[Any, V]]) -> None:
        super().set_options([(plain(label), value) for label, value in options])
