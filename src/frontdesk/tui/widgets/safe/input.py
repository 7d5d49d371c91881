"""Input: never holds a control or format character."""

from __future__ import annotations

from textual import widgets as textual_widgets

from . import typed


class Input(textual_widgets.Input):
    """``textual.widgets.Input`` that never holds a control or format character: a value
    set by the program (a pre-filled name or attribute) and text typed or pasted are
    cleaned as one line, so what the input shows — and what is later shown again from
    it — is inert.

    :attr:`kept_value` gives a pre-filled value back as it came while the person has not
    changed it, so saving a form never rewrites text nobody edited."""

    _unclean: tuple[str, str] | None = None

    def validate_value(self, value: str) -> str:
        cleaned = typed(value)
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
        return typed(placeholder)

    def replace(self, text: str, start: int, end: int) -> None:
        super().replace(typed(text), start, end)
