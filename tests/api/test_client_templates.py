"""client.templates against the sandbox: list (paged, by type), delete, and each published
error."""

from __future__ import annotations

import pytest

from frontdesk.api import ApiClient, InvalidRequest, NotFound, Pacer
from frontdesk.api.models import TemplateType
from frontdesk.sandbox.server import SandboxServer

UNKNOWN = "00000000-0000-4000-8000-00000000abcd"


async def test_list_and_delete(sandbox: SandboxServer) -> None:
    async with ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False)) as client:
        everything = [t async for t in client.templates.list(page_size=4)]
        replies = [t async for t in client.templates.list(TemplateType.EMAIL_AUTO_REPLY)]
        first = await client.templates.list_page(page_size=4)
        await client.templates.delete(replies[0].id)
        after = [t.id async for t in client.templates.list()]
        with pytest.raises(NotFound):
            await client.templates.delete(replies[0].id)
        with pytest.raises(InvalidRequest) as caught:
            await client.templates.list_page(page_key="not-ours")
        assert caught.value.status == 400
        for bad in (client.templates.delete("nope"), client.templates.list_page("Macro")):
            with pytest.raises(InvalidRequest) as caught:
                await bad
            assert caught.value.status is None
    assert len(everything) >= 8 and first.has_more and len(first.items) == 4
    assert {t.type for t in replies} == {"EmailAutoReply"}
    assert replies[0].id not in after and len(after) == len(everything) - 1
    assert any(t.translations for t in everything)
