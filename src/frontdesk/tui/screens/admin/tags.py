"""Admin → Tags: every tag with its state; ``i`` shows deactivated ones too, ``n`` creates,
``space`` activates or deactivates, ``d`` deletes (asked: it removes the tag from every
conversation and cannot be undone) and ``D`` deletes without asking."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult

from ....api.models import Tag
from ....text import one_line
from ...answers import Regarding, answer_of, refusal_of
from ...tag_colors import COLOR
from ...widgets.safe import DataTable
from ..shared.common import admin_store, cell, highlighted_key, move_to
from ..shared.confirm import ConfirmScreen
from ..shared.form import FormField, FormScreen, Values
from .pane import AdminPane

_COLOR = COLOR
DELETE_DETAIL = "This removes it from every conversation and cannot be undone."


def swatch(color: str | None) -> Text:
    """A small block in the tag's color, and the color's code. Only a plain ``#rrggbb`` is
    ever used as a style: a color is the service's text, and a style could carry a link."""
    if not color:
        return Text("—", style="dim")
    out = Text()
    if _COLOR.match(color):
        out.append("██ ", style=color)
    else:
        out.append("?? ", style="dim")
    out.append(one_line(color, 10))
    return out


class TagsPane(AdminPane):
    """The tags section."""

    TITLE = "Tags"

    def __init__(self) -> None:
        super().__init__("tags")
        self.tags: dict[str, Tag] = {}
        self.show_inactive = False

    def compose(self) -> ComposeResult:
        yield self.caption()
        table: DataTable[Any] = DataTable(id="tags-table", cursor_type="row",
                                          zebra_stripes=True, classes="admin-main")
        table.add_column("Name", key="name")
        table.add_column("Color", key="color")
        table.add_column("State", key="state")
        yield table

    @property
    def table(self) -> DataTable[Any]:
        """The list."""
        return self.query_one("#tags-table", DataTable)

    @property
    def current(self) -> Tag | None:
        """The highlighted tag."""
        key = highlighted_key(self.table)
        return self.tags.get(key) if key else None

    def reload(self, select: str | None = None) -> None:
        """Read the tags again."""
        self._load(select)

    class Loaded(Regarding[str | None, list[Tag]]):
        """The tags were read (``about``: the tag to highlight then)."""

    @work(exclusive=True, group="tags-load", exit_on_error=False)
    async def _load(self, select: str | None = None) -> None:
        tags, refusal = await answer_of(
            admin_store(self).list_tags(include_deactivated=self.show_inactive))
        self.post_message(self.Loaded(select, tags, refusal))

    def on_tags_pane_loaded(self, message: Loaded) -> None:
        """The list, or why it could not be read on the caption."""
        if message.refusal is not None:
            self.set_caption(message.refusal.reason)
            return
        self.show(message.value, message.about)

    def show(self, tags: list[Tag], select: str | None = None) -> None:
        """Fill the list."""
        before = select or highlighted_key(self.table)
        self.tags = {t.id: t for t in tags}
        table = self.table
        table.clear()
        for tag in tags:
            state = Text("active", style="green") if tag.active else \
                Text("deactivated", style="dim")
            table.add_row(cell(tag.name, 40, "" if tag.active else "dim"), swatch(tag.color),
                          state, key=tag.id)
        move_to(table, before)
        inactive = sum(1 for t in tags if not t.active)
        if self.show_inactive:
            self.set_caption(f"{len(tags)} tags, {inactive} deactivated (i hides them)")
        else:
            self.set_caption(f"{len(tags)} active tags (i shows deactivated ones too)")

    # ------------------------------------------------------------------ actions

    def toggle_inactive(self) -> None:
        """Show or hide deactivated tags."""
        self.show_inactive = not self.show_inactive
        self.reload()

    def new(self) -> None:
        """Create a tag."""
        store = admin_store(self)

        async def submit(values: Values) -> None:
            tag = await store.create_tag(str(values.get("name", "")),
                                         str(values.get("color", "")))
            self.notify(f"Tag {one_line(tag.name, 40)} is ready.", markup=False)
            self.reload(select=tag.id)

        self.app.push_screen(FormScreen(
            "New tag",
            [FormField("name", "Name", placeholder="billing"),
             FormField("color", "Color", placeholder="#3366ff (optional)")],
            submit, send_label="create", form_id="new-tag",
            intro="A name that exists already gives that tag."))

    def toggle(self) -> None:
        """Activate the highlighted tag, or deactivate it."""
        tag = self.current
        if tag is not None:
            self._toggle(tag)

    class Toggled(Regarding[Tag, Tag]):
        """A tag was activated or deactivated: the tag as the service holds it now."""

    @work(exclusive=True, group="tags-act", exit_on_error=False)
    async def _toggle(self, tag: Tag) -> None:
        self.post_message(self.Toggled(
            tag, *await answer_of(admin_store(self).set_tag_active(tag, not tag.active))))

    def on_tags_pane_toggled(self, message: Toggled) -> None:
        """Said in a toast; the list shows the tag's new state."""
        if message.refusal is not None:
            self.notify(message.refusal.reason, severity="error", markup=False)
            return
        tag, updated = message.about, message.value
        self.notify(f"{one_line(tag.name, 40)} is {'active' if updated.active else 'deactivated'}"
                    + ("" if updated.active else ": it can still be removed, not applied."),
                    markup=False)
        if not updated.active and not self.show_inactive:
            self.tags.pop(updated.id, None)
        else:
            self.tags[updated.id] = updated
        self.show(sorted(self.tags.values(), key=lambda t: t.name.casefold()))

    def delete(self, *, ask: bool) -> None:
        """Delete the highlighted tag (asked unless ``ask`` is False)."""
        tag = self.current
        if tag is None:
            return
        if not ask:
            self._delete(tag)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._delete(tag)

        self.app.push_screen(ConfirmScreen(f"Delete the tag {tag.name}?", DELETE_DETAIL),
                             answered)

    class Deleted(Regarding[Tag, None]):
        """A tag was deleted (or refused)."""

    @work(exclusive=True, group="tags-act", exit_on_error=False)
    async def _delete(self, tag: Tag) -> None:
        self.post_message(self.Deleted(
            tag, refusal=await refusal_of(admin_store(self).delete_tag(tag.id))))

    def on_tags_pane_deleted(self, message: Deleted) -> None:
        """Said in a toast; the tag leaves the list."""
        if message.refusal is not None:
            self.notify(message.refusal.reason, severity="error", markup=False)
            return
        tag = message.about
        self.notify(f"Deleted the tag {one_line(tag.name, 40)}.", markup=False)
        self.tags.pop(tag.id, None)
        self.show(sorted(self.tags.values(), key=lambda t: t.name.casefold()))
