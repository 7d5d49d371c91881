"""Signed out for want of a key, the session looks for it now and then (its retry timer);
``frontdesk login`` in another terminal and a caller asking at the same moment find it
together: the session signs in once — one word to the user, one set of polls, one outbox
sender — not twice.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from frontdesk.launch import Target, connect
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import RateSettings, Settings, read_key_file, write_key_file
from frontdesk.store.live import LiveStore
from frontdesk.store.local import LocalStore
from frontdesk.store.session import SIGN_IN_RETRY, Session


async def test_the_retry_timer_and_a_caller_finding_the_key_together_sign_in_once(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    key_file = tmp_path / "later.key"  # `frontdesk login` has not written it yet
    target = Target("later", sandbox.base_url, sandbox.integrations_url, None,
                    DEMO_AGENT_EMAIL, read_key=lambda: read_key_file(key_file))
    settings = Settings(rate=RateSettings(rate=10_000, burst=1_000))
    session = Session(connect=lambda: connect(target, settings),
                      local=LocalStore(tmp_path / "later.db"), settings=settings,
                      profile="later", identity=DEMO_AGENT_EMAIL, new_key=target.fresh_key)
    retry_due = asyncio.Event()

    async def sleep(delay: float) -> None:
        """The retry timer ends when the test says; every poll timer never does."""
        if delay == SIGN_IN_RETRY:
            await retry_due.wait()
        else:
            await asyncio.get_running_loop().create_future()

    session.live = LiveStore(sleep=sleep)
    said: list[str] = []
    session.on_notice = lambda severity, text: said.append(text)
    try:
        await session.start()
        assert session._signing_in is not None  # signed out: the retry timer runs
        write_key_file(key_file, sandbox.key)
        retry_due.set()  # the timer ends just as someone asks
        assert await session.sign_in_again()
        await session._signing_in
        assert said.count("An API key was found; signing in with it.") == 1, said
        assert session.me is not None and session.me.email == DEMO_AGENT_EMAIL
    finally:
        await session.close()
