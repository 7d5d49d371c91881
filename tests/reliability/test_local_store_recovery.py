"""A local store that cannot be opened, as the console meets it: the old file is kept, its
drafts come back, and the console says so on screen."""

from __future__ import annotations

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer
from frontdesk.launch import local_store_path
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.tui.app import FrontdeskApp


async def test_the_console_says_a_damaged_store_was_kept_and_what_came_back(
        sandbox: SandboxServer) -> None:
    path = local_store_path("work")
    with LocalStore(path) as store:
        store.save_draft(7, "half a reply")
        store.execute("DROP TABLE names")  # damaged: a table it needs is gone
    client = ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                       pacer=Pacer(enabled=False))
    session = Session(client=client, local=LocalStore(path), settings=Settings(),
                      profile="work", identity=DEMO_AGENT_EMAIL)
    app = FrontdeskApp(session, start_session=False)
    async with app.run_test(size=(120, 32)) as pilot:
        await pilot.pause()
        said = [str(n.message) for n in app._notifications]
        assert any("could not be used" in text and "moved to" in text
                   and "recovered 1 draft" in text for text in said), said
        draft = session.local.draft(7)
        assert draft is not None and draft.text == "half a reply"
