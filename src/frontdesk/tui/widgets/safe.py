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

What a person types or pastes into an :class:`Input` or :class:`TextArea` goes through the
same cleaning, so text typed here and shown again later is inert too. Markup is not touched:
a string given to a label is still markup, so service text embedded in markup must still be
escaped (:func:`frontdesk.text.safe`) or given as ``Text``; options of selects and lists take
service text as plain text (:func:`plain`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.text import Span as TextSpan
from rich.text import Text
from textual import widgets as textual_widgets
from textual.content import Content
from textual.content import Span as ContentSpan
from textual.document._document import EditResult
from textual.document._edit import Edit
from textual.widgets.option_list import Option as TextualOption
from textual.widgets.selection_list import Selection as TextualSelection

from ...text import clean

if TYPE_CHECKING:
    from textual.visual import VisualType

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
    "plain",
]

V = TypeVar("V")


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


def plain(content: Any) -> Any:
    """Text for an option or a cell that is never markup: a string becomes a plain ``Text``
    (brackets show as typed); anything else is :func:`inert`."""
    if isinstance(content, str):
        return Text(clean(content), end="")
    return inert(content)


def _typed(text: str) -> str:
    """What a person typed or pasted into an input, one line, made inert."""
    return clean(text, multiline=False)


# --------------------------------------------------------------------------- widgets


class Static(textual_widgets.Static):
    """``textual.widgets.Static`` whose content is always :func:`inert`."""

    def __init__(self, content: VisualType = "", **kwargs: Any) -> None:
        super().__init__(inert(content), **kwargs)

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        super().update(inert(content), layout=layout)

    @property
    def content(self) -> VisualType:
        """The content shown (cleaned)."""
        return super().content

    @content.setter
    def content(self, content: VisualType) -> None:
        textual_widgets.Static.content.fset(self, inert(content))  # type: ignore[attr-defined]


class Label(textual_widgets.Label):
    """``textual.widgets.Label`` whose content is always :func:`inert`."""

    def __init__(self, content: VisualType = "", **kwargs: Any) -> None:
        super().__init__(inert(content), **kwargs)

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        super().update(inert(content), layout=layout)

    @property
    def content(self) -> VisualType:
        """The content shown (cleaned)."""
        return super().content

    @content.setter
    def content(self, content: VisualType) -> None:
        textual_widgets.Static.content.fset(self, inert(content))  # type: ignore[attr-defined]


class Button(textual_widgets.Button):
    """``textual.widgets.Button`` whose label is always :func:`inert`."""

    def __init__(self, label: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(inert(label), *args, **kwargs)

    def validate_label(self, label: Any) -> Content:
        return inert(super().validate_label(inert(label)))  # type: ignore[no-any-return]


class Checkbox(textual_widgets.Checkbox):
    """``textual.widgets.Checkbox`` whose label is always :func:`inert`."""

    def _make_label(self, label: Any) -> Content:
        return super()._make_label(inert(label))


class Tab(textual_widgets.Tab):
    """``textual.widgets.Tab`` whose label is always :func:`inert`."""

    def __init__(self, label: Any, **kwargs: Any) -> None:
        super().__init__(inert(label), **kwargs)


class TabPane(textual_widgets.TabPane):
    """``textual.widgets.TabPane`` whose title is always :func:`inert`."""

    def __init__(self, title: Any, *children: Any, **kwargs: Any) -> None:
        super().__init__(inert(title), *children, **kwargs)


class Tabs(textual_widgets.Tabs):
    """``textual.widgets.Tabs`` whose tab labels are always :func:`inert`."""

    def __init__(self, *tabs: Any, **kwargs: Any) -> None:
        super().__init__(*(t if isinstance(t, Tab) else inert(t) for t in tabs), **kwargs)

    def add_tab(self, tab: Any, **kwargs: Any) -> Any:
        return super().add_tab(tab if isinstance(tab, Tab) else inert(tab), **kwargs)


class TabbedContent(textual_widgets.TabbedContent):
    """``textual.widgets.TabbedContent`` whose titles are always :func:`inert`."""

    def __init__(self, *titles: Any, **kwargs: Any) -> None:
        super().__init__(*(inert(t) for t in titles), **kwargs)


class Input(textual_widgets.Input):
    """``textual.widgets.Input`` that never holds a control or format character: a value
    set by the program (a pre-filled name or attribute) and text typed or pasted are
    cleaned as one line, so what the input shows — and what is later shown again from
    it — is inert.

    :attr:`kept_value` gives a pre-filled value back as it came while the person has not
    changed it, so saving a form never rewrites text nobody edited."""

    _unclean: tuple[str, str] | None = None

    def validate_value(self, value: str) -> str:
        cleaned = _typed(value)
        if cleaned != value:
            self._unclean = (cleaned, value)
        return cleaned

    @property
    def kept_value(self) -> str:
        """The value; the original of a pre-filled value that had to be cleaned, while it
        is still shown unchanged."""
        if self._unclean is not None and self._unclean[0] == self.value:
            return self._unclean[1]
        return self.value

    def validate_placeholder(self, placeholder: str) -> str:
        return _typed(placeholder)

    def replace(self, text: str, start: int, end: int) -> None:
        super().replace(_typed(text), start, end)


class TextArea(textual_widgets.TextArea):
    """``textual.widgets.TextArea`` that never holds a control or format character (tabs
    and line breaks are kept): loaded text and every edit, typed or pasted, are cleaned."""

    def __init__(self, text: str = "", **kwargs: Any) -> None:
        super().__init__(_typed_block(text), **kwargs)

    def load_text(self, text: str) -> None:
        super().load_text(_typed_block(text))

    def edit(self, edit: Edit) -> EditResult:
        edit.text = _typed_block(edit.text)
        return super().edit(edit)


def _typed_block(text: str) -> str:
    """Text of a text area made inert; tabs are kept (the text area shows them)."""
    if "\t" in text:
        return "\t".join(clean(part) for part in text.split("\t"))
    return clean(text)


class Option(TextualOption):
    """``textual.widgets.option_list.Option`` whose prompt is always :func:`inert`."""

    def __init__(self, prompt: VisualType, id: str | None = None,
                 disabled: bool = False) -> None:
        super().__init__(inert(prompt), id=id, disabled=disabled)

    def _set_prompt(self, prompt: VisualType) -> None:
        super()._set_prompt(inert(prompt))


class Selection(TextualSelection[V]):
    """``textual.widgets.selection_list.Selection`` whose prompt is always :func:`inert`."""

    def __init__(self, prompt: Any, value: V, initial_state: bool = False,
                 id: str | None = None, disabled: bool = False) -> None:
        super().__init__(inert(prompt), value, initial_state, id, disabled)

    def _set_prompt(self, prompt: VisualType) -> None:
        super()._set_prompt(inert(prompt))


def _option(option: Any) -> Any:
    """An option list's entry with its prompt inert (an Option made elsewhere included)."""
    if isinstance(option, TextualOption):
        if not isinstance(option, (Option, Selection)):
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


class Select(textual_widgets.Select[V]):
    """``textual.widgets.Select`` whose option labels (plain text: :func:`plain`) and
    prompt are always inert."""

    def __init__(self, options: Iterable[tuple[Any, V]], **kwargs: Any) -> None:
        if "prompt" in kwargs:
            kwargs["prompt"] = _typed(kwargs["prompt"])
        super().__init__([(plain(label), value) for label, value in options], **kwargs)

    def set_options(self, options: Iterable[tuple[Any, V]]) -> None:
        super().set_options([(plain(label), value) for label, value in options])


class DataTable(textual_widgets.DataTable[V]):
    """``textual.widgets.DataTable`` whose cells, row labels and column labels are always
    :func:`inert` (a string cell is still markup: escape service text in it)."""

    def add_column(self, label: Any, *args: Any, **kwargs: Any) -> Any:
        return super().add_column(inert(label), *args, **kwargs)

    def add_row(self, *cells: Any, **kwargs: Any) -> Any:
        if "label" in kwargs:
            kwargs["label"] = inert(kwargs["label"])
        return super().add_row(*(inert(c) for c in cells), **kwargs)

    def update_cell(self, row_key: Any, column_key: Any, value: Any, **kwargs: Any) -> None:
        super().update_cell(row_key, column_key, inert(value), **kwargs)

    def update_cell_at(self, coordinate: Any, value: Any, **kwargs: Any) -> None:
        super().update_cell_at(coordinate, inert(value), **kwargs)
