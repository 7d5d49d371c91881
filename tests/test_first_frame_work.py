"""What the console leaves until its first frame is on screen, and what it keeps for the next
start, still happens: the first frame's CSS rules are written for the next start and read
back instead of parsed, the footer's keys are built, the breakpoint classes are right from the
start and follow a resize, and the gateway's change stream (its module reads the models) is
made when it is first used. (The alerts, begun after the first frame too, are
``tests/tui/test_alerts_console.py``'s.)"""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.css.stylesheet import Stylesheet

from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.css_cache import SharedStylesheet, parsed_file, read_parsed, write_parsed
from frontdesk.tui.screens.shared.base import FittedFooter
from frontdesk.tui.textual_private import FooterKey

SRC = Path(__file__).resolve().parent.parent / "src"


def counted_parses(monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    """Every CSS Textual parses from now on (none parsed before, in this process), as the
    rules kept are keyed: the text, where it came from, default or not, its tie-breaker and
    scope (the same text read for another widget class is another parse)."""
    parses: list[tuple[object, ...]] = []
    original = Stylesheet._parse_rules

    def counting(self: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False,
                 tie_breaker: int = 0, scope: str = "") -> Any:
        parses.append((css, read_from, is_default_rules, tie_breaker, scope))
        return original(self, css, read_from, is_default_rules, tie_breaker, scope)

    monkeypatch.setattr(Stylesheet, "_parse_rules", counting)
    monkeypatch.setattr(SharedStylesheet, "_parsed", {})
    return parses


async def first_start(app: FrontdeskApp) -> None:
    """Start ``app`` headless until the work after its first frame is done."""
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.first_frame_shown
        await app.workers.wait_for_complete()
        await pilot.pause()


async def test_the_first_frames_rules_are_read_at_the_next_start_not_parsed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    parses = counted_parses(monkeypatch)
    await first_start(FrontdeskApp(None, start_session=False))
    assert parses, "a first start parses its CSS"
    kept = parsed_file()
    assert kept.is_file() and kept.stat().st_mode & 0o077 == 0
    _, rules = pickle.loads(kept.read_bytes())
    sources = {key[1][0] for key in rules}
    assert any(str(source).endswith("inbox.tcss") for source in sources)
    # the stylesheets loaded after the first frame are not the first frame's
    assert not any(str(source).endswith("thread.tcss") for source in sources)

    parses.clear()
    monkeypatch.setattr(SharedStylesheet, "_parsed", {})
    app = FrontdeskApp(None, start_session=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        first_frame_parses = [key for key in parses if key in {k[:5] for k in rules}]
        assert first_frame_parses == []
        # and the rest of the console is styled as before: every stylesheet is loaded
        await pilot.pause()
        assert any(str(path).endswith("thread.tcss") for path, _ in app.stylesheet.source)


def test_a_file_of_another_python_or_textual_is_ignored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parses = counted_parses(monkeypatch)
    path = tmp_path / "parsed-css.pickle"
    css = "Label { color: red; }"
    read_parsed(path)  # no file yet: parsed as it comes
    sheet = SharedStylesheet()
    sheet.add_source(css, ("test.tcss", ""))
    rules = sheet.rules
    write_parsed(path, SharedStylesheet.first_frame_shown())
    assert len(parses) == 1 and path.is_file()

    monkeypatch.setattr(SharedStylesheet, "_parsed", {})
    read_parsed(path)
    again = SharedStylesheet()
    again.add_source(css, ("test.tcss", ""))
    assert again.rules == rules and len(parses) == 1  # read, not parsed

    stamp, kept = pickle.loads(path.read_bytes())
    path.write_bytes(pickle.dumps((("another",), kept)))
    monkeypatch.setattr(SharedStylesheet, "_parsed", {})
    read_parsed(path)
    stale = SharedStylesheet()
    stale.add_source(css, ("test.tcss", ""))
    assert stale.rules == rules and len(parses) == 2  # parsed afresh
    path.write_bytes(b"not a pickle")
    read_parsed(path)  # ignored, as a missing file is
    SharedStylesheet.first_frame_shown()
    assert stamp != ("another",)


async def test_the_footers_keys_are_built_once_the_first_frame_is_on_screen() -> None:
    app = FrontdeskApp(None, start_session=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert app.first_frame_shown
        keys = list(app.screen.query_one(FittedFooter).query(FooterKey))
        assert any(key.display for key in keys)
        assert any(key.key == "ctrl+q" for key in keys)


@pytest.mark.parametrize(("width", "expected", "other"), [(90, "-narrow", "-roomy"),
                                                           (120, "-roomy", "-narrow")])
async def test_the_breakpoint_classes_are_right_from_the_start(
        width: int, expected: str, other: str) -> None:
    app = FrontdeskApp(None, start_session=False)
    async with app.run_test(size=(width, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.has_class(expected) and not screen.has_class(other)
        await pilot.resize_terminal(210 - width, 30)
        await pilot.pause()
        assert screen.has_class(other) and not screen.has_class(expected)


def test_the_change_stream_is_made_when_first_used(tmp_path: Path) -> None:
    code = f"""
import sys
from frontdesk.settings import Settings
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session

def no_service():
    raise RuntimeError("no service")

session = Session(connect=no_service, local=LocalStore({str(tmp_path / "local.db")!r}),
                  settings=Settings(), profile="p", identity="a@example.com", gateway=True)
print(session.changes_dropped, "frontdesk.store.change_stream" in sys.modules,
      "pydantic" in sys.modules)
stream = session.changes
print(stream is session.changes, session.changes_dropped, stream.pushed)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True, env={"PYTHONPATH": str(SRC)})
    assert done.stdout.split() == ["False", "False", "False", "True", "False", "False"]
