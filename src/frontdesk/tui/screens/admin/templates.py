"""Admin → Quick responses and auto-replies: every template (its kind, name, languages,
who wrote it and when), the highlighted one in full below; ``d`` deletes it for good after a
question (a flow or automation that uses it stops working), ``D`` without asking.

Template text is the service's, shown through the safe widgets (placeholders as written)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import on, work
from textual.app import ComposeResult

from ....api.models import Template
from ....text import one_line, safe
from ... import clock
from ...answers import Regarding, Returned, answer_of, refusal_of
from ...widgets.safe import DataTable, Static
from ..shared.common import cell, highlighted_key, session_of
from ..shared.confirm import ConfirmScreen
from .pane import AdminPane

DELETE_DETAIL = ("It is deleted for good: a flow or automation that uses it stops working, "
                 "and agents can no longer insert it.")
_KINDS = {"QuickResponse": "quick response", "EmailAutoReply": "email auto-reply"}


def languages(template: Template) -> str:
    """The template's translations' locales (a deactivated one in brackets)."""
    return ", ".join(t.locale if not t.is_deactivated else f"({t.locale})"
                     for t in template.translations or [])


def describe_template(template: Template, name_of: Callable[[str | None], str]) -> str:
    """A template in full (markup-safe): subject, content, each translation on one line,
    who wrote and edited it."""
    lines = [f"[b]{safe(one_line(template.name, 60))}[/b] · "
             f"{_KINDS.get(template.type, safe(one_line(template.type, 20)))}"]
    if template.subject:
        lines.append(f"[b]Subject[/b] {safe(one_line(template.subject, 80))}")
    lines.append(safe(template.content))
    for translation in template.translations or []:
        off = " (deactivated)" if translation.is_deactivated else ""
        lines.append(f"[b]{safe(one_line(translation.locale, 12))}[/b]{off} "
                     f"{safe(one_line(translation.content, 90))}")
    made = f"by {name_of(template.created_by)} on {clock.shown(template.created_at, 'date')}"
    if template.last_edited_at is not None:
        made += (f"; edited by {name_of(template.last_edited_by)} on "
                 f"{clock.shown(template.last_edited_at, 'date')}")
    lines.append(f"[dim]{safe(one_line(made, 100))}[/dim]")
    return "\n".join(lines)


class TemplatesPane(AdminPane):
    """The templates section."""

    TITLE = "Quick responses"

    def __init__(self) -> None:
        super().__init__("templates")
        self.templates: dict[str, Template] = {}

    def compose(self) -> ComposeResult:
        yield self.caption()
        table: DataTable[Any] = DataTable(id="templates-table", cursor_type="row",
                                          zebra_stripes=True, classes="admin-main")
        table.add_columns("Kind", "Name", "Languages", "Created")
        yield table
        yield Static("", id="template-detail")

    @property
    def table(self) -> DataTable[Any]:
        """The list."""
        return self.query_one("#templates-table", DataTable)

    @property
    def current(self) -> Template | None:
        """The highlighted template."""
        key = highlighted_key(self.table)
        return self.templates.get(key) if key else None

    def reload(self) -> None:
        """Read every template again."""
        self._load()

    class Loaded(Returned[list[Template]]):
        """Every template was read."""

    @work(exclusive=True, group="templates-load", exit_on_error=False)
    async def _load(self) -> None:
        self.post_message(self.Loaded(*await answer_of(session_of(self).templates.list_all())))

    def on_templates_pane_loaded(self, message: Loaded) -> None:
        """The list, or why it could not be read on the caption."""
        if message.refusal is not None:
            self.set_caption(message.refusal.reason)
            return
        self.show(message.value)

    def show(self, templates: list[Template]) -> None:
        """Fill the list."""
        self.templates = {t.id: t for t in templates}
        table = self.table
        table.clear()
        for template in templates:
            table.add_row(_KINDS.get(template.type, "?"), cell(template.name, 36),
                          cell(languages(template) or "—", 24),
                          clock.shown(template.created_at, "date"), key=template.id)
        quick = sum(1 for t in templates if t.type == "QuickResponse")
        self.set_caption(f"{quick} quick responses, {len(templates) - quick} auto-replies · "
                         "d deletes · ctrl+o in a reply inserts one")
        self._detail()

    @on(DataTable.RowHighlighted, "#templates-table")
    def _detail(self) -> None:
        template = self.current
        names = session_of(self).directory.name
        self.query_one("#template-detail", Static).update(
            describe_template(template, names) if template is not None else "")

    def delete(self, *, ask: bool) -> None:
        """Delete the highlighted template (asked unless ``ask`` is False)."""
        template = self.current
        if template is None:
            return
        if not ask:
            self._delete(template)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._delete(template)

        self.app.push_screen(ConfirmScreen(
            f"Delete the {_KINDS.get(template.type, 'template')} "
            f"«{one_line(template.name, 40)}»?", DELETE_DETAIL), answered)

    class Deleted(Regarding[Template, None]):
        """A template was deleted (or refused)."""

    @work(exclusive=True, group="templates-act", exit_on_error=False)
    async def _delete(self, template: Template) -> None:
        self.post_message(self.Deleted(
            template, refusal=await refusal_of(session_of(self).templates.delete(template.id))))

    def on_templates_pane_deleted(self, message: Deleted) -> None:
        """Said in a toast; the template leaves the list."""
        if message.refusal is not None:
            self.notify(message.refusal.reason, severity="error", markup=False)
            return
        template = message.about
        self.notify(f"Deleted «{one_line(template.name, 40)}».", markup=False)
        self.templates.pop(template.id, None)
        self.show(list(self.templates.values()))
