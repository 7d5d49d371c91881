"""SVG snapshots of the screens the other snapshot modules do not take, at 80x24 (the least
supported terminal), 100x30 and 160x45, on the seeded demo data with the console's clock
frozen: the outbox, help, palette, the inbox's forms, a thread's panels, People's profile,
agent and forms, every Admin section, a help-centre article and its editor, Team's activity.

One console per size walks every scene (``SCENES``: the keys from the settled inbox and the
screen expected in front), so a picture costs its keys and not a sign-in. At each, it also
checks what 80 columns must keep: the status bar's connection state, and the footer's way
out, Help and Quit.

Update them with ``pytest tests/tui/test_screen_snapshots.py --snapshot-update`` and look
at the pictures before committing (``make snapshots`` takes every snapshot module's again).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from pytest_textual_snapshot import SVGImageExtension  # type: ignore[import-untyped]
from syrupy.assertion import SnapshotAssertion
from textual.pilot import Pilot

from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.first_run import FirstRunApp
from frontdesk.tui.screens.shared.base import FittedFooter, ModeScreen
from frontdesk.tui.widgets.preview_pane import PreviewPane
from frontdesk.tui.widgets.status_bar import StatusBar
from pilot_waits import tables_laid_out

Console = Any  # the `console` fixture of tests/tui/conftest.py

#: the least supported terminal, the usual one and a large one
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((100, 30), id="100x30"),
         pytest.param((160, 45), id="160x45")]
#: Admin's menu: how many rows down each section is
ADMIN = {"teams": 1, "queues": 2, "attributes": 3, "endpoints": 4, "anonymization": 6,
         "templates": 7, "organization": 8, "flows": 9, "webhooks": 10, "knowledge": 11}


@dataclass(frozen=True)
class Scene:
    """One picture: keys pressed from the settled inbox (one at a time, each settled), and
    the class of the screen then in front."""

    name: str
    keys: tuple[str, ...]
    expect: str


def admin(section: str, *more: str, name: str = "", expect: str = "AdminScreen") -> Scene:
    """An Admin section, opened from the menu (then ``more`` keys); Admin keeps the
    section last shown, so the keys go back to the menu's first row first."""
    return Scene(name or f"admin-{section}",
                 ("5", "escape", "home", *["down"] * ADMIN[section], "enter", *more), expect)


SCENES = [
    Scene("outbox", ("O",), "OutboxScreen"),
    Scene("help", ("question_mark",), "HelpScreen"),
    Scene("palette", ("ctrl+p",), "CommandPalette"),
    Scene("new-conversation", ("n",), "NewConversationScreen"),
    Scene("open-by-id", ("o",), "OpenConversationScreen"),
    # A thread's pictures are taken from its top ("g"): the scrollbar of a thread under a
    # modal is painted as it was when the modal opened, which at the bottom depends on
    # whether the scroll to the end was painted first; at the top it is the same either way.
    Scene("thread-history", ("enter", "g", "h"), "HistoryScreen"),
    Scene("thread-attributes", ("enter", "g", "a"), "AttributesPanel"),
    Scene("thread-ratings", ("enter", "g", "v"), "RatingsScreen"),
    Scene("thread-linked", ("enter", "g", "l"), "LinkedScreen"),
    Scene("quick-responses", ("enter", "g", "ctrl+o"), "QuickResponsePicker"),
    Scene("link-parent", ("enter", "g", "L"), "LinkParentScreen"),
    Scene("attach", ("enter", "g", "i", "ctrl+a"), "AttachScreen"),
    Scene("article-finder", ("enter", "g", "i", "ctrl+g"), "ArticleFinder"),
    Scene("enduser-profile", ("4", "enter"), "EndUserProfileScreen"),
    Scene("enduser-new", ("4", "n"), "FormScreen"),
    Scene("enduser-edit", ("4", "e"), "FormScreen"),
    Scene("agent-detail", ("4", "t", "enter"), "AgentDetailScreen"),
    Scene("agent-new", ("4", "n"), "FormScreen"),  # People stays on the Agents tab
    Scene("team-activity", ("3", "a"), "ActivityScreen"),
    Scene("tag-new", ("5", "escape", "home", "enter", "n"), "FormScreen"),
    *(admin(section) for section in ADMIN),
    admin("knowledge", "down", "down", "enter", name="knowledge-article",
          expect="ArticleScreen"),
    admin("knowledge", "down", "down", "enter", "e", name="knowledge-editor",
          expect="ArticleEditor"),
    # last: it claims two conversations (mine already: the report says so of each)
    Scene("bulk-report", ("space", "down", "space", "c", "y"), "BulkReport"),
]


def footer_keys(pilot: Pilot[Any]) -> list[str]:
    """The keys the footer of the screen in front shows (empty: it has no footer)."""
    return [getattr(key, "key", "") for footer in pilot.app.screen.query(FittedFooter)
            for key in footer.query("FooterKey") if key.display]


async def settle(pilot: Pilot[Any]) -> None:
    """Let every worker finish and the screen catch up: each round waits only until the
    screen has handled what it was sent (the preview pane reads its messages at once, not
    when its debounce ends, which a quick settle may not reach); then until the console is
    idle, its tables laid out, and the screen in front has painted what it was asked to (a
    thread's scroll to its end, the preview pane's messages: a modal opened next covers the
    screen as it was last painted)."""
    for _ in range(3):
        await pilot.pause(0)
        for pane in pilot.app.screen.query(PreviewPane):
            pane.flush()  # its messages read now, not after the debounce
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await tables_laid_out(pilot.app.screen)
    await pilot.app.screen.wait_for_refresh()


async def show(console: Console, pilot: Pilot[Any], scene: Scene) -> None:
    """From the inbox, press the scene's keys, read the topics of the screen in front now
    and let it settle."""
    app = pilot.app
    assert isinstance(app, FrontdeskApp) and app.session is not None
    await settle(pilot)  # the inbox painted whole before a scene's modal covers it
    for key in scene.keys:
        await pilot.press(key)
        await settle(pilot)
    for screen in app.screen_stack:
        for topic in getattr(screen, "TOPICS", ()):
            if app.session.live.topic(topic) is not None:
                await app.session.live.refresh(topic)
    await settle(pilot)
    app.clear_notifications()
    for box in app.screen.query("Input, TextArea"):
        box.cursor_blink = False  # type: ignore[attr-defined]
    await pilot.wait_for_scheduled_animations()
    await settle(pilot)  # a table's header laid out again for the widths its rows gave


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
async def test_every_screen(console: Console, snapshot: SnapshotAssertion,
                            size: tuple[int, int]) -> None:
    pictures = snapshot.use_extension(SVGImageExtension)
    app = console.app()
    app.animation_level = "none"  # scrolls land at once, whatever the machine's speed
    differ: list[str] = []
    wrong: list[str] = []
    async with app.run_test(size=size) as pilot:
        await console.settled(pilot)
        for scene in SCENES:
            await show(console, pilot, scene)
            shown = type(app.screen).__name__
            if shown != scene.expect:
                wrong.append(f"{scene.name}: {shown} in front")
                await console.home(pilot)
                await pilot.press("1")
                await console.fresh_inbox(pilot)
                continue
            under = [screen for screen in app.screen_stack if isinstance(screen, ModeScreen)]
            status = str(under[-1].query_one(StatusBar).render())
            assert "● live" in status, (scene.name, status)
            keys = footer_keys(pilot)
            if keys:  # a mode screen: its way out (where it has one), Help and Quit
                assert {"question_mark", "ctrl+q"} <= set(keys), (scene.name, keys)
                if any(binding.key == "escape" and binding.show for _, binding, *_ in
                       app.screen.active_bindings.values()):
                    assert "escape" in keys, (scene.name, keys)
            shot = app.export_screenshot(title="frontdesk")
            if pictures(name=scene.name) != shot:
                differ.append(scene.name)
            await console.home(pilot)
            await pilot.press("1")
            await console.fresh_inbox(pilot)
    assert not wrong, wrong
    assert not differ, f"pictures changed: {differ}"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("keys", [pytest.param((), id="welcome"),
                                  pytest.param(("enter",), id="connect")])
def test_first_run(snap_compare: Any, size: tuple[int, int], keys: tuple[str, ...]) -> None:
    assert snap_compare(FirstRunApp(), terminal_size=size, press=keys)
