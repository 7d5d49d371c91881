"""The console's text widgets: Textual's, with the sanitiser on every way in.

Every widget that can show or pre-fill text — labels, statics, inputs, text areas, selects,
option and selection lists, tables, buttons, check boxes, tabs — is imported from here, never
from ``textual.widgets`` (``tests/security/test_safe_widgets.py`` fails on a screen that does).
Each class here is the Textual widget of the same name with whatever it is given passed
through :func:`inert` first, so service text reaches the terminal inert even where a screen
forgot to call :mod:`frontdesk.text` itself:

* a string, a Rich ``Text`` or a Textual ``Content`` comes out with every control, escape and
  invisible format character replaced by its visible placeholder (:func:`frontdesk.text.clean`),
  styles and markup kept where they were;
* any other Rich renderable is wrapped so that its rendered text is cleaned the same way.

What a person types or pastes into an :class:`Input` or :class:`TextArea` is what will be sent,
so it is not cleaned for display: only its control characters are dropped
(:func:`frontdesk.text.written`), which leaves nothing that can command the terminal, while a
zero-width joiner, a right-to-left mark or a flag's tag characters stay part of the text. Shown
again later (a sent message, a saved name), it passes through the sanitiser like all text.
Markup is not touched: a string given to a label is still markup, so service text embedded
in markup must still be escaped (:func:`frontdesk.text.safe`) or given as ``Text``; options of
selects and lists take service text as plain text (:func:`plain`).

Like ``textual.widgets``, this package loads each widget's module on first use (one module
per widget), so the console's first frame loads only the widgets it shows.
"""

from __future__ import annotations

import itertools
import unicodedata
from collections.abc import Iterable
from importlib import import_module
from typing import TYPE_CHECKING, Any, Final

from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.text import Span as TextSpan
from rich.text import Text
from textual import events
from textual.content import Content
from textual.content import Span as ContentSpan
from textual.strip import Strip

from ....text import clean, written

if TYPE_CHECKING:
    from .button import Button
    from .checkbox import Checkbox
    from .data_table import DataTable
    from .input import Input
    from .label import Label
    from .option_list import Option, OptionList
    from .select import Select
    from .selection_list import Selection, SelectionList
    from .static import Static
    from .tabbed import TabbedContent, TabPane
    from .tabs import Tab, Tabs
    from .text_area import TextArea

__all__ = [
    "Button",
    "Checkbox",
    "DataTable",
    "Input",
    "Label",
    "Option",
    "OptionList",
    "Select",
    "Selection",
    "SelectionList",
    "Static",
    "Tab",
    "TabPane",
    "TabbedContent",
    "Tabs",
    "TextArea",
    "inert",
    "inert_strip",
    "plain",
    "typed",
    "typed_block",
    "written_key",
]

#: Which module of this package holds each widget.
_MODULES: Final = {
    "Static": "static",
    "Label": "label",
    "Button": "button",
    "Checkbox": "checkbox",
    "Tab": "tabs",
    "Tabs": "tabs",
    "TabPane": "tabbed",
    "TabbedContent": "tabbed",
    "Input": "input",
    "TextArea": "text_area",
    "Option": "option_list",
    "OptionList": "option_list",
    "Selection": "selection_list",
    "SelectionList": "selection_list",
    "Select": "select",
    "DataTable": "data_table",
}


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    found = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = found
    return found


# --------------------------------------------------------------------------- cleaning


def _cleaned_spans(text: str, bounds: Iterable[tuple[int, int]]
                   ) -> tuple[str, dict[int, int]] | None:
    """``text`` cleaned piece by piece between span boundaries, with where each boundary
    moved to; None when nothing needed cleaning."""
    if clean(text) == text:
        return None
    length = len(text)
    cuts = sorted({0, length, *(min(max(p, 0), length) for pair in bounds for p in pair)})
    pieces: list[str] = []
    moved: dict[int, int] = {}
    position = 0
    for start, end in itertools.pairwise(cuts):
        moved[start] = position
        piece = clean(text[start:end])
        pieces.append(piece)
        position += len(piece)
    moved[length] = position
    return "".join(pieces), moved


def _where(moved: dict[int, int], offset: int, length: int) -> int:
    return moved[min(max(offset, 0), length)]


def _clean_text(text: Text) -> Text:
    """A Rich ``Text`` with its characters cleaned and its styles kept on them."""
    done = _cleaned_spans(text.plain, ((s.start, s.end) for s in text.spans))
    if done is None:
        return text
    cleaned, moved = done
    length = len(text.plain)
    out = Text(cleaned, style=text.style, justify=text.justify, overflow=text.overflow,
               no_wrap=text.no_wrap, end=text.end, tab_size=text.tab_size)
    out.spans = [TextSpan(_where(moved, s.start, length), _where(moved, s.end, length),
                          s.style) for s in text.spans]
    return out


def _clean_content(content: Content) -> Content:
    """A Textual ``Content`` with its characters cleaned and its styles kept on them."""
    done = _cleaned_spans(content.plain, ((s.start, s.end) for s in content.spans))
    if done is None:
        return content
    cleaned, moved = done
    length = len(content.plain)
    return Content(cleaned, [ContentSpan(_where(moved, s.start, length),
                                         _where(moved, s.end, length), s.style)
                             for s in content.spans])


class _InertRenderable:
    """Any other Rich renderable, its text cleaned as it is rendered."""

    def __init__(self, renderable: Any) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.renderable, options):
            if segment.control or clean(segment.text) == segment.text:
                yield segment
            else:
                yield Segment(clean(segment.text, multiline=False), segment.style)


def inert(content: Any) -> Any:
    """``content`` as a widget may show it: every character of it cleaned, nothing else
    changed (a string stays a string, so markup stays markup). Idempotent."""
    if isinstance(content, str):
        return clean(content)
    if isinstance(content, Content):
        return _clean_content(content)
    if isinstance(content, Text):
        return _clean_text(content)
    if content is None or isinstance(content, (_InertRenderable, int, float)):
        return content
    if hasattr(content, "__rich_console__") or hasattr(content, "__rich__"):
        return _InertRenderable(content)
    return content


def inert_strip(strip: Strip) -> Strip:
    """A painted line of an editable field, as the terminal may show it.

    An input or a text area holds what the person wrote, as it will be sent (a joiner or a
    right-to-left mark is part of the text); what it paints goes through the sanitiser like
    everything else, so a pasted bidi override shows as its placeholder instead of reordering
    the screen. The line keeps its width (a placeholder is wider than the invisible character
    it stands for: the line is cut at its old width)."""
    if all(segment.control or clean(segment.text) == segment.text for segment in strip):
        return strip
    width = strip.cell_length
    segments = [segment if segment.control or clean(segment.text) == segment.text
                else Segment(clean(segment.text, multiline=False), segment.style)
                for segment in strip]
    return Strip(segments).crop(0, width)


def plain(content: Any) -> Any:
    """Text for an option or a cell that is never markup: a string becomes a plain ``Text``
    (brackets show as typed); anything else is :func:`inert`."""
    if isinstance(content, str):
        return Text(clean(content), end="")
    return inert(content)


def typed(text: str) -> str:
    """What a person typed or pasted into a one-line input, as it will be sent: control
    characters dropped, line breaks and tabs as spaces, every other character as written
    (:func:`frontdesk.text.written`)."""
    return written(text, multiline=False)


def typed_block(text: str) -> str:
    """Text typed or pasted as a block, as it will be sent: control characters dropped,
    tabs and line breaks kept, every other character as written."""
    return written(text)


def written_key(event: events.Key) -> str | None:
    """The character a key types that Textual's inputs would drop: a format character such as
    the zero-width non-joiner a Persian keyboard types with shift+space, a joiner or a
    right-to-left mark is not "printable", so Textual inserts nothing for it; it is part of
    the text all the same. None for every other key."""
    character = event.character
    if (character is None or len(character) != 1 or event.is_printable
            or unicodedata.category(character) != "Cf"):
        return None
    return character
