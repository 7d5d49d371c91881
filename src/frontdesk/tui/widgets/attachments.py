"""The composer's attachments: what a typed URL or local path becomes, and the screen that
adds and removes them (``ctrl+a``).

Local files are attached by path: the draft keeps the path (so a draft save stays small
however big the file), and the store reads the file into a ``data:`` URL when it is sent.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar
from urllib.parse import unquote, urlsplit

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen

from ...store.replies import MAX_FILE_BYTES, MAX_URL_CHARS
from ...text import one_line
from ..registry import owns_bindings
from .safe import Input, Label, OptionList, Static

__all__ = ["AttachScreen", "attachment_from"]


def _url_name(url: str) -> str:
    parts = urlsplit(url)
    name = unquote(parts.path.rstrip("/").rsplit("/", 1)[-1])
    return (name or parts.hostname or "link")[:255]


def attachment_from(value: str) -> dict[str, str] | str:
    """The attachment for what the user typed (a URL or a local path), or why it cannot be.

    A URL becomes ``{"url", "prettyName"}`` (the name is the last part of its path); a local
    file becomes ``{"path", "prettyName"}`` (the file name), read when the reply is sent.
    """
    value = value.strip()
    if not value:
        return "Type a URL (https://…) or the path of a local file."
    lowered = value.lower()
    if lowered.startswith(("http://", "https://")):
        if any(ch.isspace() or ord(ch) < 32 for ch in value):
            return "A URL cannot contain spaces or control characters."
        if len(value) > MAX_URL_CHARS:
            return "That URL is too long."
        return {"url": value, "prettyName": _url_name(value)}
    if "://" in value or lowered.startswith(("data:", "javascript:", "file:")):
        return "Only http(s) links and local files can be attached."
    path = Path(value).expanduser()
    try:
        if not path.exists():
            return f"There is no file at {one_line(value, 80)}."
        if not path.is_file():
            return f"{one_line(value, 80)} is not a file."
        size = path.stat().st_size
    except OSError as error:
        return f"{one_line(value, 80)} cannot be read: {error.strerror or error}."
    if size > MAX_FILE_BYTES:
        return (f"{one_line(path.name, 60)} is {size / 1_000_000:.1f} MB: files up to "
                f"{MAX_FILE_BYTES / 1_000_000:.1f} MB can be attached. Share a link instead.")
    return {"path": str(path.resolve()), "prettyName": path.name[:255]}


def _describe(entry: dict[str, str]) -> str:
    name = one_line(entry.get("prettyName") or "", 40) or "attachment"
    where = entry.get("path") or entry.get("url") or ""
    return f"{name}  ({one_line(where, 70)})"


@owns_bindings
class AttachScreen(ModalScreen[list[dict[str, str]]]):
    """Add attachments by URL or local path, remove them; answers the new list.

    ``enter`` adds what is typed (an empty line closes), ``tab`` moves to the list,
    ``delete`` removes the highlighted attachment, ``esc`` closes.
    """

    HELP_NAME = "Attachments"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "done", "Done", id="attach.done"),
        Binding("delete,backspace", "remove", "Remove attachment", id="attach.remove"),
    ]

    def __init__(self, entries: list[dict[str, str]], *, limit_hint: str = "") -> None:
        super().__init__()
        self.entries = [dict(entry) for entry in entries]
        self.limit_hint = limit_hint

    def compose(self) -> ComposeResult:
        with Vertical(id="attach-box"):
            yield Label("Attach a link or a local file", id="attach-title")
            yield Input(placeholder="https://…  or  ~/path/to/file.pdf", id="attach-input")
            yield Static(self._hint(), id="attach-hint", markup=False)
            yield OptionList(*[Text(_describe(e)) for e in self.entries], id="attach-list")

    def _hint(self) -> str:
        hint = (f"enter adds · empty enter or esc: done · tab, then delete removes · "
                f"files up to {MAX_FILE_BYTES / 1_000_000:.1f} MB")
        return f"{self.limit_hint}\n{hint}" if self.limit_hint else hint

    def _refill(self) -> None:
        options = self.query_one("#attach-list", OptionList)
        options.clear_options()
        options.add_options([Text(_describe(e)) for e in self.entries])

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Add the typed URL or file; an empty line closes."""
        event.stop()
        if not event.value.strip():
            self.dismiss(self.entries)
            return
        entry = attachment_from(event.value)
        if isinstance(entry, str):
            self.notify(entry, severity="warning", markup=False)
            return
        self.entries.append(entry)
        event.input.value = ""
        self._refill()

    def action_remove(self) -> None:
        """Remove the highlighted attachment (when the list has the focus)."""
        options = self.query_one("#attach-list", OptionList)
        if self.focused is not options or options.highlighted is None:
            return
        del self.entries[options.highlighted]
        self._refill()

    def action_done(self) -> None:
        """Close, keeping the attachments as they are now."""
        self.dismiss(self.entries)
