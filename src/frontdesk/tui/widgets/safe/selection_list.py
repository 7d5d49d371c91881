"""Selection and SelectionList, their prompts always inert, a ticked row marked by its glyph
(``▐X▌``; an unticked one ``▐ ▌``), not by colour alone."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from rich.segment import Segment
from textual import widgets as textual_widgets
from textual.strip import Strip
from textual.widgets.option_list import OptionDoesNotExist
from textual.widgets.selection_list import Selection as TextualSelection

from . import inert
from .option_list import _option

if TYPE_CHECKING:
    from textual.visual import VisualType

V = TypeVar("V")

#: what Textual draws inside a selection's box (``ToggleButton.BUTTON_INNER``)
BOX_INNER = "X"


class Selection(TextualSelection[V]):
    """``textual.widgets.selection_list.Selection`` whose prompt is always :func:`inert`."""

    def __init__(self, prompt: Any, value: V, initial_state: bool = False,
                 id: str | None = None, disabled: bool = False) -> None:
        super().__init__(inert(prompt), value, initial_state, id, disabled)

    def _set_prompt(self, prompt: VisualType) -> None:
        super()._set_prompt(inert(prompt))


def _selection(selection: Any) -> Any:
    if isinstance(selection, tuple):
        return (inert(selection[0]), *selection[1:])
    return _option(selection)


class SelectionList(textual_widgets.SelectionList[V]):
    """``textual.widgets.SelectionList`` whose prompts are always :func:`inert`."""

    def __init__(self, *selections: Any, **kwargs: Any) -> None:
        super().__init__(*(_selection(s) for s in selections), **kwargs)

    def add_options(self, items: Iterable[Any]) -> Any:
        return super().add_options([_selection(s) for s in items])

    def replace_option_prompt(self, option_id: str, prompt: VisualType) -> Any:
        return super().replace_option_prompt(option_id, inert(prompt))

    def replace_option_prompt_at_index(self, index: int, prompt: VisualType) -> Any:
        return super().replace_option_prompt_at_index(index, inert(prompt))

    def render_line(self, y: int) -> Strip:
        """The row as Textual draws it, its box empty when unticked: ticked and unticked rows
        then differ on a monochrome terminal, or to anyone who does not tell the colours
        apart (as the tag picker's ``[x]`` / ``[ ]``)."""
        strip = super().render_line(y)
        try:
            selection = self.get_option_at_index(self.scroll_offset.y + y)
        except OptionDoesNotExist:
            return strip
        segments = list(strip)
        if len(segments) < 2 or segments[1].text != BOX_INNER \
                or selection.value in self.selected:
            return strip
        inner = segments[1]
        segments[1] = Segment(" " * len(inner.text), inner.style, inner.control)
        return Strip(segments, strip.cell_length)
