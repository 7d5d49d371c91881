"""The custom attributes of an end user (``Contact``) or a conversation, edited by their
definitions (the thread binds ``a`` to it; the end user's profile ``e``).

Each definition of the entity gets an :class:`~..widgets.attribute_editor.AttributeEditor`;
``ctrl+s`` sends only what changed, in one patch. When the service refuses, its words are
shown and every choice stays as it was made.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen

from ....api.models import CustomAttributeDefinition, CustomAttributeValue
from ....text import safe
from ...answers import Regarding, Returned, answer_of
from ...registry import owns_bindings
from ...widgets.attribute_editor import AttributeEditor, AttributeValue
from ...widgets.safe import Label
from ...worker_failures import ReportsFailedWorkers
from .common import people_store
from .palette import PaletteCommands, PaletteEntry, palette_of

Entity = Literal["Conversation", "Contact"]


@owns_bindings
class AttributesPanel(ModalScreen[bool], ReportsFailedWorkers):
    """Edit the custom attributes of one end user or conversation."""

    HELP_NAME = "Custom attributes"
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="attributes.save"),
        Binding("escape", "close", "Close", id="attributes.close"),
    ]
    PALETTE: ClassVar[tuple[PaletteEntry, ...]] = (
        PaletteEntry("Save the custom attributes", "key: ctrl+s", "save"),
    )

    def __init__(self, entity: Entity, entity_id: str | int) -> None:
        super().__init__()
        self.entity: Entity = entity
        self.entity_id = str(entity_id)
        self.saving = False
        self.loaded = False

    def compose(self) -> ComposeResult:
        whose = "end user" if self.entity == "Contact" else f"conversation #{self.entity_id}"
        with Vertical(id="attributes-box"):
            yield Label(f"Custom attributes of the {safe(whose)}", id="attributes-title")
            yield VerticalScroll(id="attributes-list")
            yield Label("Loading…", id="attributes-problem")
            yield Label("ctrl+s: save what changed    esc: close", id="attributes-hint")

    def on_mount(self) -> None:
        self.load()

    def palette_commands(self) -> PaletteCommands:
        """The panel's palette commands."""
        return palette_of(self, self.PALETTE)

    @work(exclusive=True, group="load", exit_on_error=False)
    async def load(self) -> None:
        """Read the definitions of the entity and its current values."""
        store = people_store(self)

        async def read() -> tuple[list[CustomAttributeDefinition], list[CustomAttributeValue]]:
            definitions = [d for d in await store.definitions() if d.entity_type == self.entity]
            return definitions, await store.attribute_values(self.entity, self.entity_id)

        self.post_message(self.Loaded(*await answer_of(read())))

    class Loaded(Returned[tuple[list[CustomAttributeDefinition], list[CustomAttributeValue]]]):
        """The entity's definitions and its current values were read."""

    async def on_attributes_panel_loaded(self, message: Loaded) -> None:
        """An editor for each attribute, or why they could not be read."""
        if message.refusal is not None:
            self._problem(message.refusal.reason)
            return
        definitions, values = message.value
        current: dict[str, AttributeValue] = {v.id: v.value for v in values}
        listing = self.query_one("#attributes-list", VerticalScroll)
        await listing.remove_children()
        shown = [d for d in definitions if not d.is_archived or d.id in current]
        if not shown:
            self._problem("No custom attributes are defined for these.", error=False)
        else:
            await listing.mount_all(AttributeEditor(d, current.get(d.id)) for d in shown)
            self._problem("", error=False)
        self.loaded = True
        first = next((e for e in self.query(AttributeEditor) if not e.read_only), None)
        if first is not None:
            focusable = first.query("Input, Select").first()
            focusable.focus()

    def _problem(self, text: str, *, error: bool = True) -> None:
        label = self.query_one("#attributes-problem", Label)
        label.update(safe(text))
        label.set_class(bool(text) and error, "-error")

    def editor(self, identifier: str) -> AttributeEditor:
        """The editor of the attribute with this identifier (``product``)."""
        return next(e for e in self.query(AttributeEditor)
                    if e.definition.identifier == identifier)

    def action_save(self) -> None:
        """Send what changed."""
        if self.saving or not self.loaded:
            return
        changes = {e.definition.id: e.value for e in self.query(AttributeEditor) if e.changed}
        if not changes:
            self._problem("Nothing changed.", error=False)
            return
        self.saving = True
        self._problem("Saving…", error=False)
        self.save(changes)

    @work(exclusive=True, group="save", exit_on_error=False)
    async def save(self, changes: dict[str, AttributeValue]) -> None:
        """Patch the changed attributes; close when the service took them."""
        self.post_message(self.Saved(len(changes), *await answer_of(
            people_store(self).patch_attributes(self.entity, self.entity_id, changes))))

    class Saved(Regarding[int, list[CustomAttributeValue]]):
        """The service answered the change of ``about`` attributes: the values set."""

    def on_attributes_panel_saved(self, message: Saved) -> None:
        """Saved: said, and the panel closes; refused: why, and the edits stay."""
        self.saving = False
        if message.refusal is not None:
            self._problem(message.refusal.reason)
            return
        changed = message.about
        self.notify(f"Saved {changed} custom attribute{'s' if changed > 1 else ''}"
                    f" ({len(message.value)} set).")
        self.dismiss(True)

    def action_close(self) -> None:
        """Close without saving."""
        self.dismiss(False)
