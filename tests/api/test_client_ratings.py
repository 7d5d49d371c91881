"""client.ratings against the sandbox: offer, submit, statuses (and the deprecated listing)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from frontdesk.api import ApiClient, Conflict, InvalidRequest, NotFound, Pacer, RetryPolicy
from frontdesk.api.models import NpsResult
from frontdesk.sandbox.server import SandboxServer

FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)


@pytest.fixture
async def client(sandbox: SandboxServer) -> AsyncIterator[ApiClient]:
    async with ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                         pacer=Pacer(enabled=False), retry=FAST) as api:
        yield api


async def new_conversation(client: ApiClient) -> int:
    user = await client.endusers.create(display_name="Rater")
    return (await client.conversations.create_chat(user.id, str(uuid.uuid4()), "hi")).id


async def test_offer_submit_and_list(client: ApiClient) -> None:
    conversation_id = await new_conversation(client)
    offer = await client.ratings.offer(conversation_id, "Csat")
    assert offer.rating_type == "Csat" and offer.id
    statuses = await client.ratings.list(conversation_id)
    assert [(s.id, s.rating_status) for s in statuses] == [(offer.id, "Offered")]
    result = await client.ratings.submit(conversation_id, offer.id, 5, rating_type="Csat",
                                         comment="Quick and kind")
    assert result.rating_id == offer.id
    assert result.rating_result.type == "Csat" and result.rating_result.value == 5
    statuses = await client.ratings.list(conversation_id)
    assert statuses[0].rating_status == "Rated" and statuses[0].rating_score == 5
    assert await client.ratings.list_deprecated(conversation_id) == statuses


async def test_submit_a_ready_result(client: ApiClient) -> None:
    conversation_id = await new_conversation(client)
    offer = await client.ratings.offer(conversation_id, "Nps")
    result = await client.ratings.submit(conversation_id, offer.id,
                                         result=NpsResult(type="Nps", value=0))
    assert result.rating_result.value == 0


@pytest.mark.parametrize(("kind", "value"), [("Csat", 0), ("Csat", 6), ("Nps", 11),
                                             ("Nps", -1), ("ThumbsUpOrDown", 2)])
async def test_out_of_range_values_are_refused_before_sending(client: ApiClient, kind: str,
                                                              value: int) -> None:
    with pytest.raises(InvalidRequest) as caught:
        await client.ratings.submit(1, str(uuid.uuid4()), value, rating_type=kind)
    assert caught.value.status is None


async def test_errors(client: ApiClient) -> None:
    conversation_id = await new_conversation(client)
    offer = await client.ratings.offer(conversation_id, "ThumbsUpOrDown")
    with pytest.raises(InvalidRequest) as caught:  # offered as thumbs, answered as Csat
        await client.ratings.submit(conversation_id, offer.id, 3, rating_type="Csat")
    assert caught.value.status == 400
    await client.ratings.submit(conversation_id, offer.id, 1, rating_type="ThumbsUpOrDown")
    with pytest.raises(Conflict):
        await client.ratings.submit(conversation_id, offer.id, 0, rating_type="ThumbsUpOrDown")
    with pytest.raises(NotFound):
        await client.ratings.submit(conversation_id, str(uuid.uuid4()), 1,
                                    rating_type="ThumbsUpOrDown")
    with pytest.raises(NotFound):
        await client.ratings.offer(2**40, "Csat")
    with pytest.raises(NotFound):
        await client.ratings.list(2**40)
    with pytest.raises(InvalidRequest) as caught:
        await client.ratings.offer(conversation_id, "Stars")
    assert caught.value.status is None
    with pytest.raises(InvalidRequest) as caught:
        await client.ratings.offer(conversation_id, "Csat", user_id=str(uuid.uuid4()))
    assert caught.value.status == 400
    with pytest.raises(InvalidRequest) as caught:
        await client.ratings.submit(conversation_id, "rating-1", 1, rating_type="Csat")
    assert caught.value.status is None
