"""Option and OptionList, their prompts always inert."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from textual import widgets as textual_widgets
from textual.widgets.option_list import Option as TextualOption

from . import inert

if TYPE_CHECKING:
    from textual.visual import VisualType


class Option(TextualOption):
    """``textual.widgets.option_list.Option`` whose prompt is always :func:`inert`."""

    def __init__(self, prompt: VisualType, id: str | None = None,
                 disabled: bool = False) -> None:
        super().__init__(inert(prompt), id=id, disabled=disabled)

    def _set_prompt(self, prompt: VisualType) -> None:
        super()._set_prompt(inert(prompt))


def _option(option: Any) -> Any:
    """An option list's entry with its prompt inert (an Option made elsewhere included)."""
    if isinstance(option, TextualOption):
        if not isinstance(option, Option):  # a Selection, or one made from Textual's class
            TextualOption._set_prompt(option, inert(option.prompt))
        return option
    if option is None:
        return None
    return inert(option)


class OptionList(textual_widgets.OptionList):
    """``textual.widgets.OptionList`` whose prompts are always :func:`inert`."""

    def __init__(self, *content: Any, **kwargs: Any) -> None:
        super().__init__(*(_option(c) for c in content), **kwargs)

    def add_options(self, new_options: Iterable[Any]) -> Any:
        return super().add_options([_option(o) for o in new_options])

    def replace_option_prompt(self, option_id: str, prompt: VisualType) -> Any:
        return super().replace_option_prompt(option_id, inert(prompt))

    def replace_option_prompt_at_index(self, index: int, prompt: VisualType) -> Any:
        return super().replace_option_prompt_at_index(index, inert(prompt))
