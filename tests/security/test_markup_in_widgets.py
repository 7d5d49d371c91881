"""docs/quality.md checks 2 and 3 in the widgets: customer markup (``[bold red]``, ``[link=…]``,
``[@click=app.quit]``, ``[/foo]``) shows literally, triggers nothing and crashes nothing, and a
link in a message is shown with its real target and opened only after a key press.

The sanitiser's own proof is ``tests/security/test_text_sanitiser.py``; here the text goes
through real Textual widgets (Static, Label, OptionList, DataTable, notifications), first the
way frontdesk feeds them, then through the whole console on a sandbox with hostile data
planted, and every place the text shows is clicked. A control test shows the clicking is able
to trigger an action when markup *is* parsed, so a pass means something.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import hostile
import pytest
from rich.segment import Segment
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import DataTable, Label, OptionList, Static
from textual.widgets.option_list import Option

from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.store.session import Session
from frontdesk.text import one_line, safe, to_text
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.admin.admin import AdminScreen
from frontdesk.tui.screens.inbox.inbox import InboxScreen
from frontdesk.tui.screens.inbox.thread import ThreadScreen
from frontdesk.tui.screens.people.people import PeopleScreen
from frontdesk.tui.screens.shared.common import cell
from frontdesk.tui.screens.shared.confirm import ConfirmScreen
from frontdesk.tui.screens.shared.form import FormScreen
from frontdesk.tui.screens.shared.tag_picker import TagPicker
from tui_conftest import tui_fixtures

Console = Any  # tests/tui/conftest.py's Console



TUI = tui_fixtures()

CLICK = hostile.MARKUP["click"]  # "[@click=app.quit]press me[/]"
#: Words of the hostile markup's content: a segment carrying one comes from customer text.
CUSTOMER_WORDS = ("press me", "harmless", "loud", "mallory", "Mallory")


# ------------------------------------------------------------------------------ helpers


def screen_lines(app: App[Any]) -> list[list[Segment]]:
    """The segments of every line of the frame in front."""
    return [list(strip) for strip in app.screen._compositor.render_strips()]


def text_of(line: list[Segment]) -> str:
    return "".join(segment.text for segment in line)


def spots(app: App[Any], needle: str) -> list[tuple[int, int]]:
    """Where ``needle`` starts on the screen (column, row; cells, not characters)."""
    from rich.cells import cell_len

    found: list[tuple[int, int]] = []
    for y, line in enumerate(screen_lines(app)):
        text = text_of(line)
        start = text.find(needle)
        while start >= 0:
            found.append((cell_len(text[:start]), y))
            start = text.find(needle, start + 1)
    return found


def live_customer_segments(app: App[Any]) -> list[str]:
    """Segments of customer text that carry a link or a click action (there must be none)."""
    live: list[str] = []
    for line in screen_lines(app):
        for segment in line:
            style = segment.style
            if style is None or not any(word in segment.text for word in CUSTOMER_WORDS):
                continue
            meta = style.meta or {}
            if style.link or "@click" in meta:
                live.append(f"{segment.text!r} link={style.link!r} meta={meta!r}")
    return live


class Watch:
    """Records what must not happen: the app exiting, a URL being opened."""

    def __init__(self, app: App[Any]) -> None:
        self.exits: list[Any] = []
        self.opened: list[str] = []
        original_exit: Callable[..., None] = app.exit

        def exit_(*args: Any, **kwargs: Any) -> None:
            self.exits.append(args)
            original_exit(*args, **kwargs)

        def open_url(url: str, *, new_tab: bool = True) -> None:
            self.opened.append(url)

        app.exit = exit_  # type: ignore[method-assign]
        app.open_url = open_url  # type: ignore[method-assign]


async def click_everywhere(pilot: Pilot[Any], watch: Watch, needle: str = CLICK,
                           limit: int = 3) -> int:
    """Click where ``needle`` shows, on up to ``limit`` places; the app must still run and
    nothing in customer text may carry a link or an action. Returns how many places were
    clicked (parsed markup would not show as ``needle`` at all, so a count proves it literal)."""
    app = pilot.app
    clicked: set[tuple[int, int]] = set()
    for _ in range(limit):
        assert live_customer_segments(app) == []
        todo = [spot for spot in spots(app, needle) if spot not in clicked]
        if not todo:
            break
        x, y = todo[0]
        clicked.add((x, y))
        await pilot.click(offset=(x + 1, y))
        await pilot.pause()
        assert app.is_running, f"clicking {needle!r} at {(x, y)} ended the app"
        assert watch.exits == [], f"clicking {needle!r} at {(x, y)} asked the app to exit"
        assert watch.opened == []
    return len(clicked)


# ------------------------------------------------------------------------------ widgets


class Widgets(App[None]):
    """Customer text in each kind of widget, fed the way frontdesk feeds them."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        text = self.text
        yield Static(safe(text), id="static")  # markup strings: safe()
        yield Label(safe(text), id="label")
        yield Static(to_text(text), id="static-text")  # renderables: to_text()
        yield OptionList(Option(to_text(text)), Option(safe(text)), id="options")
        table: DataTable[Any] = DataTable(id="table")
        table.add_columns("cell", "safe")
        table.add_row(cell(text, 60), safe(text))
        yield table

    def on_mount(self) -> None:
        # as the screens notify with names: one_line() and markup=False, or safe() in markup
        self.notify(one_line(self.text), markup=False)
        self.notify(safe(self.text), title=one_line(self.text))  # a title is never markup


async def test_widgets_show_customer_markup_literally() -> None:
    app = Widgets(hostile.HOSTILE)
    watch = Watch(app)
    async with app.run_test(size=(200, 40), notifications=True) as pilot:
        await pilot.pause()
        lines = [text_of(line) for line in screen_lines(app)]
        # toasts wrap at spaces: compare with the lines joined and the frames taken off
        shown = " ".join(" ".join(line.strip(" ▌▎▊").split()) for line in lines)
        for literal in hostile.MARKUP.values():
            # three Statics/Labels, two options, a table cell, two toasts and a toast title
            assert shown.count(literal) >= 9, (literal, "\n".join(lines))
        for char in ("\x1b", *hostile.FORBIDDEN_CHARS):
            assert char not in shown
        places = await click_everywhere(pilot, watch, limit=14)
        assert places >= 9
        assert app.is_running


async def test_control_parsed_markup_would_quit_the_app() -> None:
    """Without the sanitiser, the same click runs ``app.quit``: the checks above can fail."""

    class Raw(App[None]):
        def compose(self) -> ComposeResult:
            yield Label(CLICK)

    app = Raw()
    async with app.run_test(size=(80, 5)) as pilot:
        [(x, y)] = spots(app, "press me")
        await pilot.click(offset=(x + 1, y))
        await pilot.pause()
        assert not app.is_running


# ------------------------------------------------------------------------------ the console


@pytest.fixture
def console(sandbox: SandboxServer) -> Iterator[Console]:
    """As in tests/tui: sessions and apps on the seeded sandbox, the console's clock frozen."""
    TUI.clock.freeze(TUI.NOW)
    yield TUI.Console(sandbox)
    TUI.clock.freeze(None)


@pytest.fixture
def planted(console: Console) -> hostile.Planted:
    return hostile.plant(console.sandbox, agent_email=DEMO_AGENT_EMAIL, now=ManualClock().now())


def session_of(app: FrontdeskApp) -> Session:
    assert app.session is not None
    return app.session


async def settle(pilot: Pilot[Any]) -> None:
    """Every worker done, the screen caught up."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def test_console_shows_customer_markup_literally_everywhere(
        console: Console, planted: hostile.Planted) -> None:
    app: FrontdeskApp = console.app()
    watch = Watch(app)
    cid = planted.conversation_id
    async with app.run_test(size=(140, 40), notifications=True) as pilot:
        await console.ready(pilot)
        await settle(pilot)
        # The inbox: the list (a Line API widget) and the preview pane.
        inbox = app.screen
        assert isinstance(inbox, InboxScreen)
        assert inbox.conversation_list.move_to(cid)
        await settle(pilot)
        assert await click_everywhere(pilot, watch) >= 2  # the row and the preview
        # The thread: every message, the head, email headers, attachments.
        if not isinstance(app.screen, ThreadScreen):  # a click on the row may have opened it
            assert isinstance(app.screen, InboxScreen)
            inbox.conversation_list.move_to(cid)
            await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ThreadScreen)
        await session_of(app).live.refresh("thread")
        await settle(pilot)
        assert await click_everywhere(pilot, watch) >= 3
        await pilot.press("k", "k", "j")
        # The tag picker (an OptionList), and a notice naming the deactivated tag.
        await pilot.press("t")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, TagPicker)
        assert await click_everywhere(pilot, watch) >= 1
        assert isinstance(app.screen, TagPicker)
        picker.options.highlighted = picker.options.get_option_index(
            f"tag:{planted.inactive_tag_id}")
        await pilot.press("space")  # refused: deactivated; the notice names it
        await pilot.pause()
        assert planted.inactive_tag_id not in picker.chosen
        assert any(hostile.INACTIVE_TAG in str(n.message) for n in app._notifications)
        await pilot.press("escape")
        await settle(pilot)
        # A notice of the store carrying the service's (customer's) words; both notices
        # show literally and clicking them only dismisses them.
        markup = " ".join(hostile.MARKUP.values())
        session_of(app).notice("error", f"Refused: {markup}")
        await pilot.pause()
        assert await click_everywhere(pilot, watch) >= 1
        # The notices go: what follows counts only what each screen shows (a notice that
        # outlived its seconds on a busy machine would otherwise stand in for the screen).
        app.clear_notifications()
        await pilot.pause()
        # People: the end user found by email, in the end users table (a DataTable).
        await pilot.press("4")
        await settle(pilot)
        assert isinstance(app.screen, PeopleScreen)
        await pilot.press("slash")
        form = app.screen
        assert isinstance(form, FormScreen)
        form.set_values({"kind": "email", "value": "mallory@example.com"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, PeopleScreen)
        # the name column cuts the name: its markup shows up to where the cell ends
        assert await click_everywhere(pilot, watch, "Mallory [@click=app.quit]") >= 1
        # Admin → Tags (a DataTable of tag names).
        await pilot.press("5")
        await settle(pilot)
        assert isinstance(app.screen, AdminScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert await click_everywhere(pilot, watch) >= 1
        assert app.is_running and watch.exits == [] and watch.opened == []


@pytest.mark.slow
async def test_links_are_shown_with_their_target_and_opened_only_after_a_key(
        console: Console, planted: hostile.Planted) -> None:
    app: FrontdeskApp = console.app()
    watch = Watch(app)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await app.workers.wait_for_complete()  # signed in
        await app.push_screen(ThreadScreen(planted.conversation_id))
        await session_of(app).live.refresh("thread")
        await settle(pilot)
        # The link's label does not hide where it goes: the target shows beside it.
        assert spots(app, f"your bank, safe ({planted.link})")
        assert spots(app, "https://files.example/")
        # Browsing: clicking on links and attachments, walking and hovering opens nothing.
        for needle in (planted.link, "https://files.example/"):
            x, y = spots(app, needle)[0]
            await pilot.hover(offset=(x + 2, y))
            await pilot.click(offset=(x + 2, y))
        await pilot.press("g", "j", "G", "k")
        await pilot.pause()
        assert watch.opened == []
        # o on a message with an ordinary attachment asks first, showing its real target.
        await pilot.press("g", "j")  # the second message: its attachment is a plain address
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        question = app.screen
        assert isinstance(question, ConfirmScreen)
        assert hostile.CLEAN_ATTACHMENT in question.question
        await pilot.press("n")
        await pilot.pause()
        assert watch.opened == []
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        # Opened once, after the key and the confirmation, exactly as shown.
        assert watch.opened == [hostile.CLEAN_ATTACHMENT]
        assert app.is_running and watch.exits == []


async def test_a_link_with_control_characters_is_never_opened(
        console: Console, planted: hostile.Planted) -> None:
    """What opens must be what was shown: an attachment URL with control, bidi or blank
    characters is refused with a notice (handed to the browser launcher, a NUL would even
    crash the console: ``subprocess.Popen`` raises ValueError)."""
    app: FrontdeskApp = console.app()
    watch = Watch(app)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await app.workers.wait_for_complete()  # signed in
        thread = ThreadScreen(planted.conversation_id)
        await app.push_screen(thread)
        await session_of(app).live.refresh("thread")
        await settle(pilot)
        await pilot.press("g")  # the message with the hostile attachment
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        if app.screen is not thread:  # asked anyway: saying yes must still open nothing raw
            await pilot.press("y")
            await pilot.pause()
        assert app.is_running
        assert watch.opened == []
        assert any("not opened" in str(n.message) for n in app._notifications)


async def test_selecting_customer_text_with_the_mouse_crashes_nothing(
        console: Console, planted: hostile.Planted) -> None:
    app: FrontdeskApp = console.app()
    async with app.run_test(size=(140, 40)) as pilot:
        await console.ready(pilot)
        inbox = app.screen
        assert isinstance(inbox, InboxScreen)
        assert inbox.conversation_list.move_to(planted.conversation_id)
        await settle(pilot)
        # Selecting text asks the screen for its "screen--selection" style: a screen class
        # that loses Screen's component classes (a mixin listed first) crashes here.
        x, y = spots(app, "Mallory [@click=app.quit]")[-1]  # in the preview pane
        await pilot.click(offset=(x + 2, y), times=2)  # selects a word
        await pilot.pause()
        await app.push_screen(ThreadScreen(planted.conversation_id))
        await session_of(app).live.refresh("thread")
        await settle(pilot)
        x, y = spots(app, "text body")[0]
        await pilot.click(offset=(x + 2, y), times=2)
        await pilot.pause()
        assert app.is_running
