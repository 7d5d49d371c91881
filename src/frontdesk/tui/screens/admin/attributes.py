"""Admin → Custom attributes: every definition (whose: end users or conversations; kind;
required, archived, deactivated) and, beside it, the highlighted one in full with its
options tree. ``enter`` reads the definition again from the service."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group
from rich.text import Text
from rich.tree import Tree
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll

from ....api.models import CustomAttributeDefinition, SelectOption
from ....text import one_line, to_text
from ... import clock
from ...answers import Returned, answer_of
from ...widgets.safe import DataTable, Static
from ..shared.common import admin_store, cell, highlighted_key
from .pane import AdminPane

#: the label column's width: a definition's label, cut with … beyond it
LABEL_WIDTH = 30
ENTITY_NAMES = {"Contact": "end users", "Conversation": "conversations"}


def _state(definition: CustomAttributeDefinition) -> str:
    marks = [m for m, on_ in (("required", definition.is_required),
                              ("archived", definition.is_archived),
                              ("deactivated", definition.is_deactivated)) if on_]
    return ", ".join(marks) or "—"


def _branch(tree: Tree, options: Sequence[SelectOption]) -> None:
    for option in sorted(options, key=lambda o: o.order_index):
        label = Text(one_line(option.label, 40))
        label.append(f"  {one_line(option.value, 30)}", style="dim")
        if option.is_deactivated:
            label.stylize("strike dim")
            label.append("  deactivated", style="italic dim")
        _branch(tree.add(label), option.nested_options)


def describe_definition(definition: CustomAttributeDefinition) -> Group:
    """A definition in full: facts, then its options as a tree (a Select) or its
    placeholder (a Text)."""
    facts = Text()
    rows = [("Label", definition.label), ("Identifier", definition.identifier),
            ("For", ENTITY_NAMES.get(definition.entity_type, definition.entity_type)),
            ("Kind", definition.input_definition.type), ("State", _state(definition)),
            ("Created", clock.shown(definition.created_at, "date")),
            ("Id", definition.id)]
    if definition.description:
        rows.insert(2, ("About", definition.description))
    for name, value in rows:
        facts.append(f"{name:<11}", style="bold")
        facts.append_text(to_text(one_line(value, 70)))
        facts.append("\n")
    spec = definition.input_definition
    if spec.type == "Select":
        tree = Tree(Text("Options", style="bold"))
        _branch(tree, spec.options or [])
        return Group(facts, tree)
    placeholder = Text("Placeholder ", style="bold")
    placeholder.append_text(to_text(one_line(spec.placeholder or "—", 60)))
    return Group(facts, placeholder)


class AttributesPane(AdminPane):
    """The custom attribute definitions section."""

    TITLE = "Custom attributes"

    def __init__(self) -> None:
        super().__init__("attributes")
        self.definitions: dict[str, CustomAttributeDefinition] = {}

    def compose(self) -> ComposeResult:
        yield self.caption()
        with Horizontal(classes="admin-split"):
            table: DataTable[Any] = DataTable(id="attributes-table", cursor_type="row",
                                              zebra_stripes=True, classes="admin-main")
            # widths of their own, as in Teams: columns sized to their cells were seen laid
            # out at their labels' widths ("Mall…") when the section loaded twice in a row
            for label, width in (("Label", LABEL_WIDTH), ("For", 13), ("Kind", 8),
                                 ("State", 22)):
                table.add_column(label, width=width)
            yield table
            with VerticalScroll(classes="admin-side"):
                yield Static("", id="attribute-detail")

    @property
    def table(self) -> DataTable[Any]:
        """The definitions."""
        return self.query_one("#attributes-table", DataTable)

    def reload(self) -> None:
        """Read the definitions again."""
        self._load()

    class Loaded(Returned[list[CustomAttributeDefinition]]):
        """The definitions were read."""

    @work(exclusive=True, group="attributes-load", exit_on_error=False)
    async def _load(self) -> None:
        self.post_message(self.Loaded(*await answer_of(admin_store(self).list_definitions())))

    def on_attributes_pane_loaded(self, message: Loaded) -> None:
        """The list, or why it could not be read on the caption."""
        if message.refusal is not None:
            self.set_caption(message.refusal.reason)
            return
        definitions = message.value
        self.definitions = {d.id: d for d in definitions}
        table = self.table
        table.clear()
        for definition in definitions:
            dim = "dim" if definition.is_archived or definition.is_deactivated else ""
            table.add_row(cell(definition.label, LABEL_WIDTH, dim),
                          cell(ENTITY_NAMES.get(definition.entity_type, definition.entity_type)),
                          cell(definition.input_definition.type), cell(_state(definition)),
                          key=definition.id)
        self.set_caption(f"{len(definitions)} custom attributes · enter reads one again")
        self.show_detail()

    @on(DataTable.RowHighlighted, "#attributes-table")
    def _highlighted(self) -> None:
        self.show_detail()

    def show_detail(self) -> None:
        """The highlighted definition in full."""
        key = highlighted_key(self.table)
        definition = self.definitions.get(key) if key else None
        if definition is not None:
            self.query_one("#attribute-detail", Static).update(describe_definition(definition))

    def open(self) -> None:
        """Read the highlighted definition from the service (GET by id)."""
        key = highlighted_key(self.table)
        if key:
            self._open(key)

    class Opened(Returned[CustomAttributeDefinition]):
        """One definition was read again."""

    @work(exclusive=True, group="attributes-open", exit_on_error=False)
    async def _open(self, attribute_id: str) -> None:
        self.post_message(self.Opened(
            *await answer_of(admin_store(self).get_definition(attribute_id))))

    def on_attributes_pane_opened(self, message: Opened) -> None:
        """Its details below the list, or why not in a toast."""
        if message.refusal is not None:
            self.notify(message.refusal.reason, severity="error", markup=False)
            return
        definition = message.value
        self.definitions[definition.id] = definition
        self.show_detail()
