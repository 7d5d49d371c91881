"""How the conversation list paints its lines, on Textual's Line API.

Only the lines on screen are painted (``render_line``), each built straight from segments and
cached until the rows, the width or the styles change. Every string from the service (names,
subjects, previews, tags, queue names) passes through :func:`frontdesk.text.one_line` (by
:func:`~frontdesk.tui.widgets.conversation_cells.fit`) and is painted as a plain segment,
never parsed as markup. The painter (:class:`RowPainter`) is a collaborator the list owns
(``painter``): it keeps the layout and the painted lines, the list hands it the rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Final

from rich.segment import Segment
from rich.style import Style
from textual.cache import LRUCache
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

__all__ = ["TITLES", "RowPainter"]

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


class RowPainter:
    """Paints the list's lines: the column titles, a row (cached by conversation and by
    whether the cursor is on it, until the rows, the width, the columns or the styles
    change) and the line of an empty list. ``widened`` is called when a longer id came on
    screen (the id column grew: the list repaints)."""

    def __init__(self, lookups: RowLookups, widened: Callable[[], object]) -> None:
        self._lookups = lookups
        self._widened = widened
        self._id_width = 6
        self._hidden: frozenset[str] = frozenset()
        self._last = "age"
        self._layout: Layout | None = None
        self._strips: LRUCache[tuple[int, bool], Strip] = LRUCache(512)

    def clear(self) -> None:
        """Every line is painted again when next shown."""
        self._strips.clear()

    def resized(self) -> None:
        """The list's width may have changed: lay the columns out again."""
        self._layout = None
        self._strips.clear()

    def forget(self, conversation_ids: Iterable[int]) -> None:
        """These conversations' lines read differently now: paint them again."""
        strips = self._strips
        for conversation_id in conversation_ids:
            strips.discard((conversation_id, False))
            strips.discard((conversation_id, True))

    @property
    def hidden(self) -> frozenset[str]:
        """Optional columns not shown."""
        return self._hidden

    def hide(self, hidden: frozenset[str]) -> bool:
        """Show every optional column but ``hidden``; whether anything changed."""
        if hidden == self._hidden:
            return False
        self._hidden = hidden
        self.resized()
        return True

    @property
    def last(self) -> str:
        """The last column."""
        return self._last

    def end_with(self, last: str) -> bool:
        """End rows with the ``last`` column (``age`` or ``followup``); whether anything
        changed."""
        if last == self._last or last not in LAST_WIDTHS:
            return False
        self._last = last
        self.resized()
        return True

    def layout(self, width: int) -> Layout:
        """The columns for a list ``width`` cells wide. The lines painted belong to the
        layout they were painted for: another layout paints them all again (a line painted
        for the width before a resize, between the resize and its new width, would keep
        that width's columns)."""
        layout = self._layout
        if layout is None or layout.width != width:
            layout = self._layout = layout_for(width, self._id_width, self._hidden, self._last)
            self._strips.clear()
        return layout

    def row(self, row: InboxRow, is_cursor: bool, layout: Layout,
            styles: dict[str, Style]) -> Strip:
        """A row's line (from the cache when it was painted since the last change)."""
        key = (row.id, is_cursor)
        strip = self._strips.get(key)
        if strip is None:
            strip = self._row_strip(row, layout, styles, is_cursor)
            self._strips[key] = strip
        return strip

    def _widen_ids(self, width: int) -> None:
        """A longer id came on screen: widen the id column (it never narrows again)."""
        if width > self._id_width:
            self._id_width = width
            self.resized()
            self._widened()

    @staticmethod
    def header(layout: Layout, styles: dict[str, Style]) -> Strip:
        """The column titles."""
        style = styles["base"] + styles["header"]
        parts = [" "]
        for key, width in layout.columns:
            title = TITLES[key]
            parts.append(title.rjust(width)[:width] if key in LAST_WIDTHS
                         else fit(title, width))
            parts.append(" ")
        return Strip([Segment("".join(parts), style)]).crop_extend(0, layout.width, style)

    @staticmethod
    def message(text: str, layout: Layout, styles: dict[str, Style]) -> Strip:
        """The line of a list with no row to show, saying why."""
        style = styles["base"] + styles["empty"]
        line = "  " + one_line(text, max(0, layout.width - 2))
        return Strip([Segment(line, style)]).crop_extend(0, layout.width, style)

    def _row_strip(self, row: InboxRow, layout: Layout, styles: dict[str, Style],
                   is_cursor: bool) -> Strip:
        look = self._lookups
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
