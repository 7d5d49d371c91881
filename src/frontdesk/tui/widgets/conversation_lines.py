"""How the conversation list paints its lines, on Textual's Line API.

Only the lines on screen are painted (``render_line``), each built straight from segments and
cached until the rows, the width or the styles change. Every string from the service (names,
subjects, previews, tags, queue names) passes through :func:`frontdesk.text.one_line` (by
:func:`~frontdesk.tui.widgets.conversation_cells.fit`) and is painted as a plain segment,
never parsed as markup. :class:`ConversationLines` is a part of
:class:`~frontdesk.tui.widgets.conversation_list.ConversationList`, which holds the rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Final

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.cache import LRUCache
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...channels import SILENT_CHANNELS
from ...text import one_line
from ..clock import now
from .conversation_cells import (
    DRAFT_MARK,
    LAST_WIDTHS,
    Layout,
    channel_label,
    fit,
    followup_text,
    layout_for,
    mark_cell,
    silent_text,
    state_glyph,
    turn_text,
)

if TYPE_CHECKING:
    from ...store.rows import InboxRow
    from .conversation_list import RowLookups

__all__ = ["ConversationLines"]

TITLES: Final = {"state": "", "turn": "Turn", "channel": "Channel", "id": "#",
                 "requester": "Requester",
                 "subject": "Subject / last message", "queue": "Queue",
                 "assignee": "Assignee", "tags": "Tags", "age": "Age",
                 "followup": "Follow-up"}
_PENDING: Final = frozenset({"Pending", "AwaitingPending"})
_STATE_CLASSES: Final = {"Open": "open", "Pending": "pending", "AwaitingPending": "pending",
                         "Closed": "closed"}


def _tag_segments(names: Sequence[str], colors: Sequence[str | None], width: int,
                  style: Style) -> list[Segment]:
    """Tag names in their colours, exactly ``width`` cells (cut with an ellipsis)."""
    from ..tag_colors import tags_text

    text = tags_text(names, colors, width)
    text.pad_right(width - text.cell_len)
    out: list[Segment] = []
    plain = text.plain
    cuts = sorted({0, len(plain), *(s.start for s in text.spans), *(s.end for s in text.spans)})
    for start, end in pairwise(cuts):
        piece = plain[start:end]
        if not piece:
            continue
        extra = [span.style for span in text.spans if span.start <= start and end <= span.end]
        piece_style = style
        for found in extra:
            if isinstance(found, Style):
                piece_style = piece_style + found
        out.append(Segment(piece, piece_style))
    return out


class ConversationLines(ScrollView):
    """The list's painting: layout, styles and lines (a part of ``ConversationList``)."""

    lookups: RowLookups
    empty_text: str
    _rows: list[InboxRow]
    _visible: Sequence[int]
    _needle: str
    _cursor: int
    _id_width: int
    _hidden: frozenset[str]
    _last: str
    _layout: Layout | None
    _strips: LRUCache[tuple[int, bool], Strip]
    _styles: dict[str, Style] | None
    _minute: str

    if TYPE_CHECKING:
        def _scroll_to_cursor(self) -> None: ...

    def repaint_rows(self, conversation_ids: Iterable[int]) -> None:
        """These conversations' lines read differently now (a mark came or went): paint
        them again."""
        for conversation_id in conversation_ids:
            self._strips.discard((conversation_id, False))
            self._strips.discard((conversation_id, True))
        self.refresh()

    def _tick_ages(self) -> None:
        """Ages are shown in minutes: repaint the rows when the minute changed."""
        marker = now().strftime("%Y%m%d%H%M")
        if marker != self._minute:
            self._minute = marker
            self._strips.clear()
            self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None
        self._strips.clear()

    def on_resize(self, _event: events.Resize) -> None:
        self._layout = None
        self._strips.clear()
        self._scroll_to_cursor()

    @property
    def hidden_columns(self) -> frozenset[str]:
        """Optional columns not shown (``queue``, ``assignee``, ``tags``): a view whose
        rows all have the same value there gives the room to the subject."""
        return self._hidden

    @hidden_columns.setter
    def hidden_columns(self, hidden: frozenset[str]) -> None:
        if hidden != self._hidden:
            self._hidden = hidden
            self._layout = None
            self._strips.clear()
            self.refresh()

    @property
    def last_column(self) -> str:
        """The last column: ``age``, or ``followup`` (until when a Pending one waits)."""
        return self._last

    @last_column.setter
    def last_column(self, last: str) -> None:
        if last != self._last and last in LAST_WIDTHS:
            self._last = last
            self._layout = None
            self._strips.clear()
            self.refresh()

    def _widen_ids(self, width: int) -> None:
        """A longer id came on screen: widen the id column (it never narrows again)."""
        if width > self._id_width:
            self._id_width = width
            self._layout = None
            self._strips.clear()
            self.refresh()

    def _current_layout(self) -> Layout:
        width = self.scrollable_content_region.width
        layout = self._layout
        if layout is None or layout.width != width:
            layout = self._layout = layout_for(width, self._id_width, self._hidden, self._last)
        return layout

    def _palette(self) -> dict[str, Style]:
        styles = self._styles
        if styles is None:
            full = self.get_component_rich_style
            styles = {"base": self.rich_style, "cursor": full("conversation-list--cursor")}
            for name in ("header", "dim", "preview", "tags", "open", "pending", "closed",
                         "empty", "marked", "late"):
                # the foreground only (blended on the list's background), so a column keeps
                # the cursor's background
                style = full(f"conversation-list--{name}")
                styles[name] = Style(color=style.color, bold=style.bold, italic=style.italic,
                                     underline=style.underline, dim=style.dim)
            self._styles = styles
        return styles

    def render_line(self, y: int) -> Strip:
        """Line 0 is the column titles; the others are rows from the scroll position."""
        layout = self._current_layout()
        styles = self._palette()
        if y == 0:
            return self._header(layout, styles)
        position = round(self.scroll_y) + y - 1
        if not 0 <= position < len(self._visible):
            if y == 1 and not self._visible:
                return self._message_line(layout, styles)
            return Strip.blank(layout.width, styles["base"])
        row = self._rows[self._visible[position]]
        key = (row.id, position == self._cursor)
        strip = self._strips.get(key)
        if strip is None:
            strip = self._row_strip(row, layout, styles, key[1])
            self._strips[key] = strip
        return strip

    def _header(self, layout: Layout, styles: dict[str, Style]) -> Strip:
        style = styles["base"] + styles["header"]
        parts = [" "]
        for key, width in layout.columns:
            title = TITLES[key]
            parts.append(title.rjust(width)[:width] if key in LAST_WIDTHS
                         else fit(title, width))
            parts.append(" ")
        return Strip([Segment("".join(parts), style)]).crop_extend(0, layout.width, style)

    def _message_line(self, layout: Layout, styles: dict[str, Style]) -> Strip:
        text = self.empty_text
        if self._needle and self._rows:
            text = f"Nothing matches “{self._needle}” — esc clears the filter."
        style = styles["base"] + styles["empty"]
        line = "  " + one_line(text, max(0, layout.width - 2))
        return Strip([Segment(line, style)]).crop_extend(0, layout.width, style)

    def _row_strip(self, row: InboxRow, layout: Layout, styles: dict[str, Style],
                   is_cursor: bool) -> Strip:
        look = self.lookups
        base = styles["cursor"] if is_cursor else styles["base"]
        dim = base + styles["dim"]
        segments: list[Segment] = []
        append = segments.append
        blank = Segment(" ", base)
        # the leading cell: the mark of a row marked for an action on many, else blank
        lead = (Segment(mark_cell(True), base + styles["marked"]) if look.marked(row.id)
                else blank)
        for index, (key, width) in enumerate(layout.columns):
            append(blank if index else lead)  # then one blank between columns
            if key == "state":
                state = row.state or ""
                glyph_style = styles.get(_STATE_CLASSES.get(state, "dim"), styles["dim"])
                append(Segment(state_glyph(state), base + glyph_style))
            elif key == "turn":
                shown, late = turn_text(look.turn(row.id), look.unread(row.id), now(),
                                         look.waited)
                style = (dim, base + styles["pending"], base + styles["late"])[late]
                append(Segment(fit(shown, width), style))
            elif key == "channel":
                append(Segment(fit(channel_label(row.channel), width), dim))
            elif key == "id":
                label = f"#{row.id}{DRAFT_MARK if look.has_draft(row.id) else ''}"
                if len(label) > width:
                    self._widen_ids(len(label))
                append(Segment(fit(label, width), base))
            elif key == "requester":
                append(Segment(fit(look.name(row.requester_id), width), base))
            elif key == "subject":
                subject = row.subject
                preview = "" if subject and subject.strip() else look.preview(row.id)
                if subject and subject.strip():
                    append(Segment(fit(subject, width), base))
                elif not preview and row.channel in SILENT_CHANNELS:
                    append(Segment(fit(silent_text(row.channel), width), dim))
                else:
                    append(Segment(fit(preview, width), base + styles["preview"]))
            elif key == "queue":
                queue = row.queue_id
                append(Segment(fit(look.queue_name(queue) if queue else "", width), dim))
            elif key == "assignee":
                agent = row.agent_id
                append(Segment(fit(look.name(agent) if agent else "", width), dim))
            elif key == "tags":
                names = look.tag_names(row.id)
                colors = look.tag_colors(row.id) if names else ()
                if any(colors):
                    segments.extend(_tag_segments(names, colors, width, base + styles["tags"]))
                else:
                    append(Segment(fit(", ".join(names), width), base + styles["tags"]))
            elif key == "age":
                age = one_line(look.ago(look.when(row)), width)
                append(Segment(age.rjust(width) if age.isascii() else fit(age, width), dim))
            elif key == "followup":
                until = look.followup(row.id) if row.state in _PENDING else None
                shown = followup_text(until, now()) if row.state in _PENDING else ""
                style = base + styles["pending"] if until is not None else dim
                append(Segment(fit(shown, width).rstrip().rjust(width), style))
        total = sum(width + 1 for _key, width in layout.columns)
        if total == layout.width:  # every cell is fitted exactly: no measuring needed
            return Strip(segments, total)
        return Strip(segments).crop_extend(0, layout.width, base)
