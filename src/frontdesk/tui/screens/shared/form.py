"""One form for every small admin action (new end user, new agent, new tag, a queue's
settings, a filter, a time to check …).

The form is told its fields, a ``check`` run as the person types (so a field can say what is
wrong before the service does) and a ``submit`` coroutine. ``submit`` returns when the action
was done (the form closes, with True) or raises :class:`~frontdesk.store.errors.Refused`: the
form then shows the reason and stays open with everything typed kept, to be corrected and
sent again. The answer reaches the form as its :class:`FormScreen.Sent` message.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen

from ....store.errors import Refused
from ....text import safe
from ...answers import Answered, refusal_of
from ...registry import owns_bindings
from ...widgets.safe import Checkbox, Input, Label, Select, Static
from ...worker_failures import ReportsFailedWorkers, failure_said

FieldKind = Literal["text", "bool", "choice"]
Values = dict[str, Any]
Check = Callable[[Values], str | None]
Submit = Callable[[Values], Awaitable[None]]


@dataclass(frozen=True)
class FormField:
    """One field: text, a yes/no box, or a choice among (label, value) pairs."""

    name: str
    label: str
    kind: FieldKind = "text"
    value: str | bool = ""
    placeholder: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    hint: str = ""


@owns_bindings
class FormScreen(ModalScreen[bool], ReportsFailedWorkers):
    """A modal form: ``ctrl+s`` or ``enter`` sends, ``esc`` cancels. The cursor starts in
    the first field, or in the one named by ``focus``. On a choice, ``enter`` sends too (as
    the hint says); ``space`` or the arrows open its list."""

    HELP_NAME = "Form"
    BINDINGS = [
        Binding("ctrl+s", "submit", "Send", id="form.submit"),
        Binding("escape", "cancel", "Cancel", id="form.cancel"),
        # priority: a choice would open its list on enter
        Binding("enter", "submit_from_choice", "Send", id="form.submit_on_choice",
                show=False, priority=True),
    ]

    def __init__(self, title: str, fields: list[FormField], submit: Submit, *,
                 check: Check | None = None, intro: str = "", send_label: str = "Send",
                 form_id: str = "", focus: str = "") -> None:
        super().__init__(id=form_id or None)
        self.title_text = title
        self.fields = fields
        self._submit = submit
        self._check = check
        self.intro = intro
        self.send_label = send_label
        self.sending = False
        self.first_focus = focus

    def compose(self) -> ComposeResult:
        with Vertical(id="form-box"):
            yield Label(safe(self.title_text), id="form-title")
            if self.intro:
                yield Static(safe(self.intro), id="form-intro")
            with VerticalScroll(id="form-fields"):
                for spec in self.fields:
                    yield from self._field(spec)
            yield Static("", id="form-problem")
            yield Label(f"ctrl+s / enter: {safe(self.send_label)}    esc: cancel",
                        id="form-hint")

    def _field(self, spec: FormField) -> ComposeResult:
        widget_id = f"f-{spec.name}"
        if spec.kind == "bool":
            yield Checkbox(spec.label, bool(spec.value), id=widget_id, classes="form-check",
                           compact=True)
        else:
            with Horizontal(classes="form-row"):
                yield Label(safe(spec.label), classes="form-label")
                if spec.kind == "choice":
                    initial = spec.value if isinstance(spec.value, str) and spec.value in \
                        {v for _, v in spec.choices} else Select.NULL
                    yield Select([(label, value) for label, value in spec.choices],
                                 value=initial, id=widget_id,
                                 allow_blank=initial is Select.NULL, classes="form-input",
                                 compact=True)
                else:
                    yield Input(str(spec.value), placeholder=spec.placeholder, id=widget_id,
                                classes="form-input", compact=True)
        if spec.hint:
            yield Static(safe(spec.hint), classes="form-field-hint")

    def on_mount(self) -> None:
        self._run_check()
        if self.first_focus:
            self.query_one(f"#f-{self.first_focus}").focus()
            return
        first = self.query("#form-fields Input, #form-fields Select, #form-fields Checkbox")
        if first:
            first.first().focus()

    # ------------------------------------------------------------------ values

    @property
    def values(self) -> Values:
        """What is typed and chosen now, by field name."""
        out: Values = {}
        for spec in self.fields:
            widget = self.query_one(f"#f-{spec.name}")
            if isinstance(widget, Checkbox):
                out[spec.name] = widget.value
            elif isinstance(widget, Select):
                out[spec.name] = "" if widget.is_blank() else str(widget.value)
            elif isinstance(widget, Input):
                out[spec.name] = widget.kept_value
        return out

    def set_values(self, values: Mapping[str, Any]) -> None:
        """Fill fields by name (tests and callers that prefill)."""
        for name, value in values.items():
            widget = self.query_one(f"#f-{name}")
            if isinstance(widget, Checkbox):
                widget.value = bool(value)
            elif isinstance(widget, Select):
                widget.value = value
            elif isinstance(widget, Input):
                widget.value = str(value)

    def show_problem(self, text: str, *, error: bool = True) -> None:
        """Say what is wrong (or, with ``error=False``, a gentler warning)."""
        label = self.query_one("#form-problem", Static)
        label.update(safe(text))
        label.set_class(bool(text) and error, "-error")
        label.set_class(bool(text) and not error, "-warning")

    def _run_check(self) -> str | None:
        problem = self._check(self.values) if self._check is not None else None
        self.show_problem(problem or "", error=False)
        return problem

    @on(Input.Changed)
    @on(Checkbox.Changed)
    @on(Select.Changed)
    def _changed(self) -> None:
        if not self.sending:
            self._run_check()

    # ------------------------------------------------------------------ actions

    @on(Input.Submitted)
    def _entered(self) -> None:
        self.action_submit()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``enter`` sends from a choice only while its list is closed (the focus is then
        on the choice itself; in the open list, ``enter`` picks)."""
        if action == "submit_from_choice":
            return isinstance(self.focused, Select)
        return True

    def action_submit_from_choice(self) -> None:
        """``enter`` on a choice: send, as on any other field."""
        self.action_submit()

    def action_submit(self) -> None:
        """Check, then send; the form stays open until the action is done."""
        if self.sending:
            return
        problem = self._run_check()
        if problem:
            self.show_problem(problem)
            return
        self.sending = True
        self.show_problem("Sending…", error=False)
        self._send(self.values)

    class Sent(Answered):
        """What came of sending the form."""

    @work(exclusive=True, group="form", exit_on_error=False)
    async def _send(self, values: Values) -> None:
        try:
            refusal = await refusal_of(self._submit(values))
        except Exception as error:  # a boundary: a bug must not lose what was typed (the
            # form stays open and says it on its problem line; the traceback is logged)
            refusal = Refused(failure_said("send the form", error))
        self.post_message(self.Sent(refusal))

    def on_form_screen_sent(self, message: Sent) -> None:
        """Done: the form closes; refused: why, and everything typed stays."""
        self.sending = False
        if message.reason is not None:
            self.show_problem(message.reason)
            return
        self.dismiss(True)

    def action_cancel(self) -> None:
        """Close without sending."""
        self.dismiss(False)
