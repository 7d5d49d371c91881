"""Edit one custom attribute by its definition: text, or a select with nested options.

A Select attribute's value is the path of option values from the top (``["hardware",
"router"]``). It is picked as a chain: one select per level, the next one appearing when the
chosen option has nested options (leaving a level blank stops the path there). Deactivated
options are hidden, except one the attribute is already set to (shown as "deactivated", so the
current value is never lost by opening the editor).

Archived or deactivated definitions are shown read-only: the service refuses changes to them.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical

from ...api.models import CustomAttributeDefinition, SelectOption
from ...text import one_line, safe
from .safe import Input, Label, Select

AttributeValue = str | list[str] | None


def _active(options: Sequence[SelectOption], keep: str | None) -> list[SelectOption]:
    """The options to offer at one level: active ones, and ``keep`` even if deactivated."""
    shown = [o for o in options if not o.is_deactivated or o.value == keep]
    return sorted(shown, key=lambda o: o.order_index)


def describe_value(definition: CustomAttributeDefinition, value: AttributeValue) -> str:
    """A value as a person reads it: option labels joined with an arrow for a Select."""
    if value is None or value == "" or value == []:
        return "—"
    if isinstance(value, str):
        return value
    labels: list[str] = []
    level = definition.input_definition.options or []
    for part in value:
        option = next((o for o in level if o.value == part), None)
        labels.append(option.label if option is not None else part)
        level = option.nested_options if option is not None else []
    return " \u2192 ".join(labels)


class AttributeEditor(Vertical):
    """One attribute: its label, then an input or a chain of selects."""

    def __init__(self, definition: CustomAttributeDefinition, value: AttributeValue) -> None:
        super().__init__(id=f"attr-{definition.id}", classes="attribute-editor")
        self.definition = definition
        self.initial: AttributeValue = value
        self.read_only = definition.is_archived or definition.is_deactivated
        self._path: list[str] = list(value) if isinstance(value, list) else []

    @property
    def is_select(self) -> bool:
        """Whether the attribute is picked from options."""
        return self.definition.input_definition.type == "Select"

    def compose(self) -> ComposeResult:
        definition = self.definition
        title = one_line(definition.label, 40)
        marks = [m for m, on_ in (("required", definition.is_required),
                                   ("archived", definition.is_archived),
                                   ("deactivated", definition.is_deactivated)) if on_]
        suffix = f"  [dim]({', '.join(marks)})[/dim]" if marks else ""
        yield Label(safe(title) + suffix, classes="attribute-label")
        if definition.description:
            yield Label(safe(one_line(definition.description, 80)), classes="attribute-help")
        if self.read_only:
            yield Label(safe(describe_value(definition, self.initial)),
                        classes="attribute-readonly")
            return
        if not self.is_select:
            text = self.initial if isinstance(self.initial, str) else ""
            yield Input(text, placeholder=definition.input_definition.placeholder or "",
                        id=f"{self.id}-text", classes="attribute-text")
            return
        options = definition.input_definition.options or []
        for depth in range(len(self._path) + 1):
            level = _active(options, self._path[depth] if depth < len(self._path) else None)
            if not level:
                break
            yield self._select(depth, level,
                               self._path[depth] if depth < len(self._path) else None)
            if depth >= len(self._path):
                break
            chosen = next((o for o in level if o.value == self._path[depth]), None)
            if chosen is None:
                break
            options = chosen.nested_options

    def _select(self, depth: int, level: list[SelectOption], value: str | None) -> Select[str]:
        choices = [(one_line(o.label, 40) + (" (deactivated)" if o.is_deactivated else ""),
                    o.value) for o in level]
        prompt = "(choose)" if depth == 0 else "(stop here)"
        known = {v for _, v in choices}
        return Select(choices, prompt=prompt, allow_blank=True,
                      value=value if value in known else Select.NULL,
                      id=f"{self.id}-level-{depth}", classes="attribute-level")

    # ------------------------------------------------------------------ the chain

    def level_select(self, depth: int) -> Select[str]:
        """The select of one level of the chain (tests and keyboard users reach it here)."""
        return self.query_one(f"#{self.id}-level-{depth}", Select)

    def _options_at(self, depth: int) -> list[SelectOption]:
        options = self.definition.input_definition.options or []
        for part in self._path[:depth]:
            chosen = next((o for o in options if o.value == part), None)
            options = chosen.nested_options if chosen is not None else []
        return options

    @on(Select.Changed, ".attribute-level")
    async def _level_changed(self, event: Select.Changed) -> None:
        event.stop()
        select = event.select
        depth = int((select.id or "0").rsplit("-", 1)[-1])
        value = None if select.is_blank() else str(event.value)
        if depth < len(self._path) and self._path[depth] == value:
            return
        self._path = self._path[:depth] + ([value] if value is not None else [])
        for deeper in list(self.query(".attribute-level")):
            level_no = int((deeper.id or "0").rsplit("-", 1)[-1])
            if level_no > depth:
                await deeper.remove()
        if value is None:
            return
        nested = _active(self._options_at(depth + 1), None)
        if nested:
            await self.mount(self._select(depth + 1, nested, None))

    # ------------------------------------------------------------------ the value

    @property
    def value(self) -> AttributeValue:
        """The value chosen now: text (None when empty), or the option path (None when
        nothing is chosen)."""
        if self.read_only:
            return self.initial
        if not self.is_select:
            text = self.query_one(f"#{self.id}-text", Input).kept_value.strip()
            return text or None
        return list(self._path) or None

    @property
    def changed(self) -> bool:
        """Whether the value differs from the one the attribute had."""
        if self.read_only:
            return False
        initial = self.initial
        if isinstance(initial, str):
            initial = initial.strip() or None
        if initial == []:
            initial = None
        return self.value != initial
