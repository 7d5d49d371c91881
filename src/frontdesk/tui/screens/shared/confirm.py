"""Questions before destructive actions: yes/no, and "type the id back" for anonymisation."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen

from ....text import safe
from ...registry import owns_bindings
from ...widgets.safe import Input, Label


@owns_bindings
class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: ``y``/``enter`` yes, ``n``/``esc`` no."""

    HELP_NAME = "Question"
    BINDINGS = [
        Binding("y,enter", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 64; max-width: 100%; height: auto;
        border: thick $warning; background: $surface; padding: 1 2; }
    ConfirmScreen Label { width: 100%; }
    ConfirmScreen .hint { color: $text-muted; margin-top: 1; }
    """

    def __init__(self, question: str, detail: str = "") -> None:
        super().__init__()
        self.question = question
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(safe(self.question), id="question")
            if self.detail:
                yield Label(safe(self.detail), id="detail")
            yield Label("y / enter: yes    n / esc: no", classes="hint")

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)


@owns_bindings
class TypeBackScreen(ModalScreen[bool]):
    """A question answered by typing a word back (the id of what is anonymized)."""

    HELP_NAME = "Confirmation"
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="typeback.cancel")]
    DEFAULT_CSS = """
    TypeBackScreen { align: center middle; }
    TypeBackScreen > Vertical { width: 72; height: auto; border: thick $error;
        background: $surface; padding: 1 2; }
    TypeBackScreen .hint { color: $text-muted; }
    """

    def __init__(self, question: str, expected: str) -> None:
        super().__init__()
        self.question = question
        self.expected = expected

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(safe(self.question))
            yield Label(f"Type {safe(self.expected)} and press enter to confirm; esc cancels.",
                        classes="hint")
            yield Input(placeholder=self.expected, id="typed")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Confirm only when the typed text matches."""
        if event.value.strip() == self.expected:
            self.dismiss(True)
        else:
            self.notify("That is not it: nothing was done.", severity="warning")
            self.query_one(Input).value = ""

    def action_cancel(self) -> None:
        """Close without doing anything."""
        self.dismiss(False)
