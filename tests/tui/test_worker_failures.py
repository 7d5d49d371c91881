"""A worker's unexpected failure reaches one place: logged with its traceback, said in one
line on screen, and the console goes on (docs/quality.md: no traceback on screen, nothing
silent)."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from textual.worker import Worker

from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.worker_failures import failure_line


class Boom(RuntimeError):
    """A bug in a worker."""


async def test_a_failed_worker_is_logged_and_said_in_one_line(
        console: Any, caplog: pytest.LogCaptureFixture) -> None:
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await console.ready(pilot)
        assert isinstance(app, FrontdeskApp)

        async def _load_queue() -> None:
            raise Boom("the row has no id\n\x1b[31mred")

        caplog.set_level(logging.ERROR, logger="frontdesk.tui.workers")
        worker: Worker[None] = app.screen.run_worker(_load_queue(), name="_load_queue",
                                                     exit_on_error=False)
        await console.idle(pilot)

        shown = [n.message for n in app._notifications]
        failed = [m for m in shown if m.startswith("Could not")]
        assert failed == [failure_line(worker)]
        line = failed[0]
        assert line.startswith("Could not load queue (Inbox): Boom: the row has no id")
        assert "\n" not in line and "\x1b" not in line and "Traceback" not in line
        records = [r for r in caplog.records if r.name == "frontdesk.tui.workers"]
        assert len(records) == 1 and records[0].exc_info is not None
        assert records[0].exc_info[0] is Boom

        # the console goes on: a worker told what it does is named by that
        async def _again() -> None:
            raise KeyError("id")

        app.screen.run_worker(_again(), description="read the tags", exit_on_error=False)
        await console.idle(pilot)
        assert app.is_running
        last = [n.message for n in app._notifications][-1]
        assert last == "Could not read the tags: KeyError: 'id' — the details are in the log."
        await pilot.press("2")
        await console.idle(pilot)
        assert app.current_mode == "queues"
