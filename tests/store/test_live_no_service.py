"""The live store's "no service at this address": said until a topic that failed answers."""

from __future__ import annotations

import pytest

from frontdesk.api.errors import NotFound, TransportError, Unauthorized
from frontdesk.store.connection import NO_SERVICE_TEXT, Link
from frontdesk.store.live import LiveStore
from frontdesk.store.topics import CONNECTION


def link(live: LiveStore) -> Link:
    return live.connection.link


async def test_no_service_stays_until_a_topic_that_failed_answers() -> None:
    live = LiveStore()
    told: list[object] = []
    live.subscribe(lambda topic, value: told.append(value) if topic == CONNECTION else None)
    answers: list[object] = [NotFound("No such route", status=404), 3]

    async def inbox() -> object:
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    async def quiet() -> None:  # a topic with nothing to ask yet (no request made)
        return None

    live.add("inbox", inbox, 5)
    live.add("quiet", quiet, 5)
    live.no_service("No Conversation Service at http://h/v1: check the address.")
    with pytest.raises(NotFound):
        await live.refresh("inbox")
    await live.refresh("quiet")
    live.report(TransportError("dropped"))  # nor a lost answer: the address is the problem
    assert link(live) is Link.NO_SERVICE
    assert live.connection.describe(0.0) == NO_SERVICE_TEXT
    assert len(told) == 1
    live.report(Unauthorized("unknown key", status=401))  # a refused key is the first fix
    assert link(live) is Link.REFUSED
    live.no_service("No Conversation Service at http://h/v1: check the address.")
    assert link(live) is Link.REFUSED
    live.key_changed()
    live.no_service("No Conversation Service at http://h/v1: check the address.")
    await live.refresh("inbox")  # the topic that failed answers: the service is there
    assert link(live) is Link.LIVE
