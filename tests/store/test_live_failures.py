"""An unexpected failure while keeping a topic current (a listener, a fetch) is logged with its
traceback every time and said to the user once per topic; nothing stops polling or
notifying the other listeners."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from frontdesk.settings import Settings
from frontdesk.store.live import LiveStore
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.store.topics import OUTBOX


def _offline_session(folder: Path) -> Session:
    """A session that never connects (the live store is all this test needs)."""

    def connect() -> object:
        raise RuntimeError("no service in this test")

    return Session(local=LocalStore(folder / "console.db"), settings=Settings(),
                   profile="test", identity="agent@example.com",
                   connect=connect)  # type: ignore[arg-type]


async def test_failures_are_logged_each_time_and_said_once(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    session = _offline_session(tmp_path)
    said: list[tuple[str, str]] = []
    session.on_notice = lambda severity, text: said.append((severity, text))
    session.live = LiveStore()  # a replaced live store is listened to as the first
    seen: list[int] = []

    def broken(topic: str, value: object) -> None:
        raise KeyError("row")

    session.live.subscribe(broken)
    session.live.subscribe(lambda topic, value: seen.append(OUTBOX.of(topic, value) or 0))
    caplog.set_level(logging.ERROR, logger="frontdesk.store.live")
    session.live.announce(OUTBOX, 1)
    session.live.announce(OUTBOX, 2)
    assert seen == [1, 2]  # the other listener is told every time
    logged = [r for r in caplog.records if r.exc_info is not None]
    assert len(logged) == 2 and all(r.exc_info and r.exc_info[0] is KeyError for r in logged)
    assert said == [("error", "Could not keep outbox up to date: KeyError: 'row' — the "
                              "details are in the log.")]

    async def buggy() -> int:
        raise ValueError("bad\x1b[2J row")

    session.live.add("queues", buggy, 5.0)
    for _ in range(2):
        with pytest.raises(ValueError):
            await session.live.refresh("queues")
    assert len(said) == 2
    assert said[1][1].startswith("Could not keep queues up to date: ValueError: bad")
    assert "\x1b" not in said[1][1]
    session.local.close()
