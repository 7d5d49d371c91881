"""The console fixture's filled local store: laid only where the sandbox is still the seeded
organisation, never over a profile's own store, never under a test that changes the service
first (that test's console must learn the change from the service, as before)."""

from __future__ import annotations

from typing import Any

import pytest

from frontdesk.sandbox.context import SandboxContext
from frontdesk.store.session import Session

Console = Any  # the `console` fixture of tests/tui/conftest.py


def rows_of(session: Session) -> int:
    """How many conversations the session's store starts with, the first frame's and the
    rest read right after it (then its store is closed)."""
    session.inbox.read_the_rest()
    count = len(session.inbox.rows)
    session.local.close()
    return count


async def test_a_console_starts_warm_only_on_the_seeded_organisation(console: Console) -> None:
    warm = console.session(profile="warm")
    mine = warm.inbox.view("mine")
    assert mine and all(row.id in warm.inbox.tags for row in mine)
    assert rows_of(warm) > len(mine)
    assert rows_of(console.session(profile="cold", fresh=True)) == 0
    # a profile's own store is the one it starts from
    assert rows_of(console.session(profile="cold")) == 0

    # a change to the service before the console starts: an empty store
    sandbox = console.sandbox
    sandbox.faults.fail(503, count=1, path_prefix="/v1/tags")
    assert rows_of(console.session(profile="faulty")) == 0
    sandbox.faults.clear()

    late = console.session(profile="late")  # laid before the change below
    assert late.inbox.rows

    def rename(ctx: SandboxContext) -> None:
        with ctx.db.tx() as conn:
            conn.execute("UPDATE conversations SET subject = 'Changed first' WHERE id = ?",
                         (mine[0].id,))

    sandbox.call(rename)
    assert rows_of(console.session(profile="changed")) == 0
    # a console made before the change must not start on its stale store
    with pytest.raises(AssertionError, match="fresh=True"):
        await late.start()
    late.local.close()
