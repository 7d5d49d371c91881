"""Text from elsewhere given to a Checkbox label or a list's prompt as a string: its square
brackets are read as content markup (a style, a terminal hyperlink, a click action), and its
escape sequences reach the terminal as they are.

One name, as a customer might have typed it, is given as a string to a ``Checkbox`` label,
an ``OptionList`` option and a ``SelectionList`` selection, then in the public ways to keep
it plain: ``OptionList(markup=False)`` and a ``Content`` label. The name holds markup
(italic, a link, a click action) and three escape sequences: OSC 52 (set the clipboard),
``ESC[2J`` (clear the screen) and U+202E (right-to-left override). Headless at 120x24 (the
name written out fits a row), it prints for each widget the start of its text, what markup
took effect, and what its rows send the terminal (``Strip.render``, as the compositor sends
them): a hyperlink, the escape sequences raw. Then it clicks the checkbox label's ``x`` and
says whether the action ran, and sets the plain label again as a string, as code elsewhere
may.
Run: ``python repro_plain_text.py`` (headless, no terminal needed).
"""

from __future__ import annotations

import asyncio

import textual
from textual.app import App, ComposeResult
from textual.content import Content
from textual.widgets import Checkbox, OptionList, SelectionList

NAME = ("[i]Ann[/i] [link='https://evil.example']site[/link] [@click=app.hijacked]x[/] "
        "\x1b]52;c;cHduZWQ=\x1b\\\x1b[2J\u202eevil")
#: what must not reach the terminal as sent
SENT = {"a hyperlink": "\x1b]8;id=", "OSC 52": "\x1b]52;", "ESC[2J": "\x1b[2J",
        "U+202E": "\u202e"}


class Names(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.hijacked = 0

    def compose(self) -> ComposeResult:
        yield Checkbox(NAME, id="checkbox")
        yield OptionList(NAME, id="options")
        yield SelectionList((NAME, 1), id="selections")
        yield OptionList(NAME, id="options-plain", markup=False)
        yield Checkbox(Content(NAME), id="checkbox-content")

    def action_hijacked(self) -> None:
        self.hijacked += 1


def show(app: Names, widget_id: str, how: str) -> None:
    """What the widget's rows show and send the terminal."""
    widget = app.query_one(f"#{widget_id}")
    strips = app.screen._compositor.render_strips()  # the screen's rows, as composited
    rows = strips[widget.region.y:widget.region.bottom]
    text = "".join(row.text.strip(" ▊▎▔▁") for row in rows)
    sent = "".join(row.render(app.console) for row in rows)  # the terminal's bytes
    markup = set()
    for row in rows:
        for segment in row:
            style, words = segment.style, segment.text.strip()
            if style is None or not words:
                continue
            if style.link:
                markup.add(f"{words!r} links to {style.link}")
            if style.meta.get("@click"):
                markup.add(f"{words!r} runs {style.meta['@click']} on a click")
            if style.italic:
                markup.add(f"{words!r} italic")
    shown = text.replace("\x1b", "<ESC>").replace("\u202e", "<U+202E>")
    raw = [name for name, sequence in SENT.items() if sequence in sent]
    print(f"{how}:\n    shows {shown[:70]!r}{'…' if len(shown) > 70 else ''}\n"
          f"    markup: {sorted(markup) or 'none'}\n    sent raw to the terminal: {raw or 'none'}")


async def main() -> None:
    print(f"textual {textual.__version__}")
    app = Names()
    async with app.run_test(size=(120, 24)) as pilot:
        await pilot.pause()
        show(app, "checkbox", "Checkbox(name)")
        show(app, "options", "OptionList(name)")
        show(app, "selections", "SelectionList((name, 1))")
        show(app, "options-plain", "OptionList(name, markup=False)")
        show(app, "checkbox-content", "Checkbox(Content(name))")
        strips = app.screen._compositor.render_strips()
        y = next(y for y, row in enumerate(strips) if "Ann" in row.text)
        await pilot.click(offset=(strips[y].text.index(" x ") + 1, y))
        await pilot.pause()
        print(f"a click on the checkbox label's 'x': app.hijacked ran {app.hijacked} time(s)")
        app.query_one("#checkbox-content", Checkbox).label = NAME
        await pilot.pause()
        show(app, "checkbox-content", "Checkbox(Content(name)), then .label = name")


if __name__ == "__main__":
    asyncio.run(main())
