"""The sandbox's ratings: offer, submit, and the Offered → Rated statuses of a conversation."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest

from frontdesk.api.models import ConversationRating, RatingOffer, RatingResult
from frontdesk.sandbox import records
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.server import SandboxServer

UNKNOWN = "00000000-0000-4000-8000-00000000abcd"


def advance(sandbox: SandboxServer, seconds: float) -> None:
    """Move the sandbox's manual clock."""
    clock = sandbox.clock
    assert isinstance(clock, ManualClock)
    clock.advance(seconds)


def make_conversation(sandbox: SandboxServer, *, assigned: bool = True) -> dict[str, Any]:
    """A chat conversation with its end user, and an agent (assigned unless told not to)."""

    def write(ctx: SandboxContext) -> dict[str, Any]:
        now = ctx.now_iso()
        with ctx.db.tx():
            user = records.insert_user(ctx.db, kind="enduser", created_at=now,
                                       display_name="Ada")
            agent = records.insert_user(ctx.db, kind="agent", created_at=now,
                                        display_name="Grace", email=f"{ctx.new_id()}@a.test")
            csid = records.insert_conversation(
                ctx.db, type="ChatConversation", channel="WidgetChat", requester_id=user,
                created_at=now, language="da",
                assigned_agent_id=agent if assigned else None,
                assigned_at=now if assigned else None)
        return {"csid": csid, "user": user, "agent": agent}

    return sandbox.call(write)


def message(response: httpx2.Response) -> str:
    """The error message of a refused request."""
    body = response.json()
    assert set(body) == {"message"}
    return str(body["message"])


def offer(http: httpx2.Client, csid: int, rating_type: str = "Csat", **body: Any
          ) -> dict[str, Any]:
    response = http.post(f"/v1/conversations/{csid}/ratings/offer",
                         json={"ratingType": rating_type, **body})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


def test_offer_submit_and_statuses(http: httpx2.Client, sandbox: SandboxServer) -> None:
    conv = make_conversation(sandbox)
    made = offer(http, conv["csid"])
    RatingOffer.model_validate(made)
    assert made["userId"] == conv["user"]
    assert made["agentId"] == conv["agent"]
    assert made["ratingType"] == "Csat"
    assert made["offeredAt"] == "2026-01-05T09:00:00.000Z"

    statuses = http.get(f"/v1/conversations/{conv['csid']}/ratings").json()["data"]
    assert len(statuses) == 1
    first = ConversationRating.model_validate(statuses[0])
    assert first.rating_status == "Offered"
    assert first.rating_score is None
    assert first.conversation_channel == "WidgetChat"
    assert first.language == "da"
    assert first.timestamps == {"offered_at": "2026-01-05T09:00:00.000Z"}

    advance(sandbox, 60)
    response = http.post(f"/v1/conversations/{conv['csid']}/ratings/{made['id']}/submit",
                         json={"ratingResult": {"_type": "Csat", "value": 4},
                               "comment": "Quick and kind", "userId": None})
    assert response.status_code == 200, response.text
    result = RatingResult.model_validate(response.json()["data"])
    assert result.rating_id == made["id"]
    assert result.user_id == conv["user"]
    assert (result.rating_result.type, result.rating_result.value) == ("Csat", 4)
    assert result.comment == "Quick and kind"
    assert response.json()["data"]["submittedAt"] == "2026-01-05T09:01:00.000Z"

    for path in ("ratings", "rating"):
        rows = http.get(f"/v1/conversations/{conv['csid']}/{path}").json()["data"]
        rated = ConversationRating.model_validate(rows[0])
        assert rated.rating_status == "Rated"
        assert rated.rating_score == 4
        assert rated.rating_comment == "Quick and kind"
        assert rated.timestamps["rated_at"] == "2026-01-05T09:01:00.000Z"


def test_offer_defaults_and_explicit_people(http: httpx2.Client, sandbox: SandboxServer) -> None:
    conv = make_conversation(sandbox, assigned=False)
    made = offer(http, conv["csid"], "Nps")
    assert made["agentId"]  # nobody is assigned: the key's admin is picked
    chosen = offer(http, conv["csid"], "ThumbsUpOrDown", userId=conv["user"],
                   agentId=conv["agent"], offeredAt="2026-01-04T08:00:00Z")
    assert chosen["agentId"] == conv["agent"]
    assert chosen["offeredAt"] == "2026-01-04T08:00:00.000Z"
    rows = http.get(f"/v1/conversations/{conv['csid']}/ratings").json()["data"]
    assert [r["id"] for r in rows] == [chosen["id"], made["id"]]  # oldest offer first


@pytest.mark.parametrize(("kind", "value"), [
    ("Csat", 0), ("Csat", 6), ("Nps", -1), ("Nps", 11), ("ThumbsUpOrDown", 2),
])
def test_out_of_range_values_are_400(http: httpx2.Client, sandbox: SandboxServer, kind: str,
                                     value: int) -> None:
    conv = make_conversation(sandbox)
    made = offer(http, conv["csid"], kind)
    response = http.post(f"/v1/conversations/{conv['csid']}/ratings/{made['id']}/submit",
                         json={"ratingResult": {"_type": kind, "value": value}})
    assert response.status_code == 400
    assert "value" in message(response)
    status = http.get(f"/v1/conversations/{conv['csid']}/ratings").json()["data"][0]
    assert status["ratingStatus"] == "Offered"


@pytest.mark.parametrize(("kind", "value"), [
    ("Csat", 1), ("Csat", 5), ("Nps", 0), ("Nps", 10), ("ThumbsUpOrDown", 0),
    ("ThumbsUpOrDown", 1),
])
def test_values_at_the_bounds_are_accepted(http: httpx2.Client, sandbox: SandboxServer,
                                           kind: str, value: int) -> None:
    conv = make_conversation(sandbox)
    made = offer(http, conv["csid"], kind)
    response = http.post(f"/v1/conversations/{conv['csid']}/ratings/{made['id']}/submit",
                         json={"ratingResult": {"_type": kind, "value": value}})
    assert response.status_code == 200, response.text
    assert response.json()["data"]["ratingResult"] == {"_type": kind, "value": value}


def test_submit_errors(http: httpx2.Client, sandbox: SandboxServer) -> None:
    conv = make_conversation(sandbox)
    other = make_conversation(sandbox)
    made = offer(http, conv["csid"], "Csat")
    url = f"/v1/conversations/{conv['csid']}/ratings/{made['id']}/submit"
    csat = {"ratingResult": {"_type": "Csat", "value": 3}}

    wrong_type = http.post(url, json={"ratingResult": {"_type": "Nps", "value": 3}})
    assert wrong_type.status_code == 400
    assert "offered as Csat" in message(wrong_type)

    elsewhere = http.post(f"/v1/conversations/{other['csid']}/ratings/{made['id']}/submit",
                          json=csat)
    assert elsewhere.status_code == 404
    unknown = http.post(f"/v1/conversations/{conv['csid']}/ratings/{UNKNOWN}/submit",
                        json=csat)
    assert unknown.status_code == 404
    assert http.post(f"/v1/conversations/999999/ratings/{made['id']}/submit",
                     json=csat).status_code == 404
    assert http.post(f"/v1/conversations/{conv['csid']}/ratings/not-a-uuid/submit",
                     json=csat).status_code == 400
    assert http.post(url, json={"ratingResult": {"_type": "Stars", "value": 3}}
                     ).status_code == 400
    assert http.post(url, json={}).status_code == 400
    assert http.post(url, json={**csat, "comment": 1}).status_code == 400

    assert http.post(url, json=csat).status_code == 200
    again = http.post(url, json={"ratingResult": {"_type": "Csat", "value": 5}})
    assert again.status_code == 409
    assert "already been rated" in message(again)
    rows = http.get(f"/v1/conversations/{conv['csid']}/ratings").json()["data"]
    assert rows[0]["ratingScore"] == 3  # the first answer stands


def test_offer_errors(http: httpx2.Client, sandbox: SandboxServer) -> None:
    conv = make_conversation(sandbox)
    url = f"/v1/conversations/{conv['csid']}/ratings/offer"
    assert http.post("/v1/conversations/999999/ratings/offer",
                     json={"ratingType": "Csat"}).status_code == 404
    assert http.post("/v1/conversations/abc/ratings/offer",
                     json={"ratingType": "Csat"}).status_code == 400
    assert http.post(url, json={"ratingType": "Stars"}).status_code == 400
    assert http.post(url, json={}).status_code == 400
    unknown_user = http.post(url, json={"ratingType": "Csat", "userId": UNKNOWN})
    assert unknown_user.status_code == 400
    assert "does not exist" in message(unknown_user)
    unknown_agent = http.post(url, json={"ratingType": "Csat", "agentId": UNKNOWN})
    assert unknown_agent.status_code == 400
    not_agent = http.post(url, json={"ratingType": "Csat", "agentId": conv["user"]})
    assert not_agent.status_code == 400
    assert http.post(url, json={"ratingType": "Csat", "agentId": "x"}).status_code == 400
    assert http.get(f"/v1/conversations/{conv['csid']}/ratings").json() == {"data": []}
    assert http.get("/v1/conversations/999999/ratings").status_code == 404
    assert http.get("/v1/conversations/999999/rating").status_code == 404


def test_deprecated_rating_path_is_marked(http: httpx2.Client) -> None:
    doc = http.get("/openapi.json").json()
    assert doc["paths"]["/v1/conversations/{conversationId}/rating"]["get"]["deprecated"]
    submit = doc["paths"]["/v1/conversations/{conversationId}/ratings/{ratingId}/submit"]
    assert {"404", "409"} <= set(submit["post"]["responses"])
