"""The sandbox's messages: listing a thread, adding messages, channel rules, attachments."""

from __future__ import annotations

import base64
import itertools
from typing import Any

import httpx2
import pytest
from factories_conversations import (
    Org,
    conversation,
    count_rows,
    create_chat,
    create_email,
    inbound,
    messages,
    org,
    outbound,
    stored_conversation,
    stored_messages,
    text,
)

from frontdesk.api.models import AddedMessage, Message
from frontdesk.sandbox import shapes
from frontdesk.sandbox.server import SandboxServer

PDF = "data:application/pdf;base64," + base64.b64encode(b"%PDF-1.4 tiny").decode()


@pytest.fixture
def world(sandbox: SandboxServer) -> Org:
    """A customer, two agents and two queues (one the default)."""
    return org(sandbox)


def _add(http: httpx2.Client, cid: int, body: Any) -> httpx2.Response:
    return http.post(f"/v1/conversations/{cid}/messages", json=body)


def _whatsapp(sandbox: SandboxServer, world: Org) -> int:
    return stored_conversation(sandbox, world.requester, channel="WhatsApp",
                               type="WhatsAppConversation", assigned_agent_id=world.agent)


# ---------------------------------------------------------------- list


def test_thread_is_oldest_first_and_matches_the_record_shape(
        sandbox: SandboxServer, http: httpx2.Client, world: Org) -> None:
    cid = create_chat(http, world.requester, inbound("one"))
    assert _add(http, cid, outbound(world.agent, "two", externalId="x-2")).status_code == 200
    assert _add(http, cid, inbound("three")).status_code == 200
    thread = messages(http, cid)
    parsed = [Message.model_validate(m) for m in thread]
    assert [p.attributes.body.value for p in parsed if p.attributes.body] == \
        ["one", "two", "three"]
    assert [p.external_id for p in parsed] == [None, "x-2", None]
    assert all(not p.model_extra for p in parsed)
    # the fast path answers exactly what shapes.message builds
    expected = sandbox.call(lambda ctx: [shapes.message(r) for r in ctx.db.all(
        "SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq", (cid,))])
    assert thread == expected


def test_listing_errors(http: httpx2.Client) -> None:
    assert http.get("/v1/conversations/abc/messages").status_code == 400
    response = http.get("/v1/conversations/424242/messages")
    assert response.status_code == 404
    assert response.json() == {"message": "Conversation 424242 could not be found"}


def test_a_thread_of_ten_thousand_messages(sandbox: SandboxServer, http: httpx2.Client,
                                           world: Org) -> None:
    cid = stored_conversation(sandbox, world.requester, channel="WidgetChat",
                              type="ChatConversation")
    stored_messages(sandbox, cid, world.requester, 10_000)
    thread = messages(http, cid)  # bench `sandbox` times a 10,000-message thread
    assert len(thread) == 10_000
    assert thread[0]["attributes"]["content"]["value"] == "message 0"
    assert thread[-1]["attributes"]["content"]["value"] == "message 9999"
    Message.model_validate(thread[-1])


# ---------------------------------------------------------------- add


def test_inbound_message_is_written_by_the_requester(http: httpx2.Client, world: Org) -> None:
    cid = create_chat(http, world.requester)
    response = _add(http, cid, inbound("Still waiting", externalId="cust-1"))
    assert response.status_code == 200, response.text
    added = AddedMessage.model_validate(response.json()["data"])
    assert not added.model_extra
    assert added.author_id == world.requester
    assert added.direction == "Inbound"
    assert added.external_id == "cust-1"
    assert added.content is not None and added.content.value == "Still waiting"
    assert response.json()["data"]["createdAt"].endswith("Z[GMT]")
    assert messages(http, cid)[-1]["id"] == added.message_id


def test_outbound_message_is_written_by_its_agent(http: httpx2.Client, world: Org) -> None:
    cid = create_chat(http, world.requester)
    response = _add(http, cid, outbound(world.agent, "On it"))
    assert response.status_code == 200
    assert response.json()["data"]["authorId"] == world.agent
    assert response.json()["data"]["direction"] == "Outbound"


@pytest.mark.parametrize("who", ["enduser", "unknown"])
def test_outbound_author_must_be_an_agent(sandbox: SandboxServer, http: httpx2.Client,
                                          world: Org, who: str) -> None:
    cid = create_chat(http, world.requester)
    author = world.requester if who == "enduser" else "00000000-0000-4000-8000-00000000abcd"
    before = count_rows(sandbox, "messages")
    response = _add(http, cid, outbound(author))
    assert response.status_code == 400
    assert count_rows(sandbox, "messages") == before


@pytest.mark.parametrize("body", [
    {}, {"_type": "Inbound"}, {"_type": "Sideways", "content": {"value": "x", "_type": "Text"}},
    {"_type": "Inbound", "content": {"value": "x", "_type": "Rtf"}},
    {"_type": "Outbound", "agentId": "00000000-0000-4000-8000-000000000001"},
    {"_type": "Inbound", "content": {"value": "x", "_type": "Text"}, "externalId": ""},
    {"_type": "Inbound", "content": {"value": "x", "_type": "Text"},
     "attachments": [{"url": "ftp://example.com/x"}]},
])
def test_malformed_messages_are_400(http: httpx2.Client, world: Org, body: Any) -> None:
    cid = create_chat(http, world.requester)
    response = _add(http, cid, body)
    assert response.status_code == 400
    assert response.json()["message"].startswith("Invalid value in request")


def test_times_strictly_increase_under_a_frozen_clock(http: httpx2.Client, world: Org) -> None:
    cid = create_chat(http, world.requester)
    for n in range(4):
        assert _add(http, cid, inbound(f"m{n}")).status_code == 200
    times = [Message.model_validate(m).created_at for m in messages(http, cid)]
    assert all(a < b for a, b in itertools.pairwise(times))
    assert len(set(times)) == 5


def test_duplicate_external_id_is_refused_naming_the_first(
        sandbox: SandboxServer, http: httpx2.Client, world: Org) -> None:
    cid = create_chat(http, world.requester)
    first = _add(http, cid, outbound(world.agent, "Reply", externalId="send-1"))
    assert first.status_code == 200
    message_id = first.json()["data"]["messageId"]
    again = _add(http, cid, outbound(world.agent, "Reply", externalId="send-1"))
    assert again.status_code == 400
    assert "duplicate externalid" in again.json()["message"].lower()
    assert message_id in again.json()["message"]
    assert sum(m.get("externalId") == "send-1" for m in messages(http, cid)) == 1
    # the same externalId is fine in another conversation
    other = create_chat(http, world.requester)
    assert _add(http, other, outbound(world.agent, "Reply", externalId="send-1")
                ).status_code == 200


def test_inbound_message_reopens_a_closed_conversation(http: httpx2.Client,
                                                       world: Org) -> None:
    cid = create_chat(http, world.requester, outbound(world.agent))
    assert http.put(f"/v1/conversations/{cid}/close").status_code == 204
    assert _add(http, cid, outbound(world.agent, "Anything else?")).status_code == 200
    assert conversation(http, cid)["state"] == "Closed"
    assert _add(http, cid, inbound("Yes, one more thing")).status_code == 200
    record = conversation(http, cid)
    assert record["state"] == "Open"
    assert record["queue"]["id"] == world.default_queue
    assert "assignment" not in record


# ---------------------------------------------------------------- channel rules


def test_sms_takes_outbound_messages_only(sandbox: SandboxServer, http: httpx2.Client,
                                          world: Org) -> None:
    cid = stored_conversation(sandbox, world.requester, channel="Sms", type="SmsConversation")
    response = _add(http, cid, inbound("hi"))
    assert response.status_code == 400
    assert "outbound" in response.json()["message"]
    response = _add(http, cid, outbound(world.agent, "Your code: 1234"))
    assert response.status_code == 200
    assert messages(http, cid)[-1]["attributes"]["_type"] == "SmsAttributes"


@pytest.mark.parametrize(("body", "problem"), [
    ({"_type": "Inbound", "content": text("hi", "Markdown")}, "outbound"),
    ({"content": text("hi")}, "Markdown"),
    ({"content": text("hi", "Html")}, "Markdown"),
    ({"attachments": [{"url": PDF, "prettyName": "a.pdf"}, {"url": PDF, "prettyName": "b.pdf"}]},
     "at most one"),
    ({"attachments": [{"url": "https://files.example/tool.exe"}]}, ".jpg"),
    ({"attachments": [{"url": PDF}]}, "file name"),
])
def test_whatsapp_rules(sandbox: SandboxServer, http: httpx2.Client, world: Org,
                        body: dict[str, Any], problem: str) -> None:
    cid = _whatsapp(sandbox, world)
    if body.get("_type") != "Inbound":
        body = {"_type": "Outbound", "agentId": world.agent, **body}
    response = _add(http, cid, body)
    assert response.status_code == 400
    assert problem in response.json()["message"]
    assert messages(http, cid) == []


@pytest.mark.parametrize("body", [
    {"content": text("**Hello** _there_", "Markdown")},
    {"attachments": [{"url": PDF, "prettyName": "invoice.PDF"}]},
    {"content": text("see", "Markdown"), "attachments": [{"url": "https://x.example/a.png"}]},
])
def test_whatsapp_accepts_markdown_and_one_allowed_attachment(
        sandbox: SandboxServer, http: httpx2.Client, world: Org, body: dict[str, Any]) -> None:
    cid = _whatsapp(sandbox, world)
    response = _add(http, cid, {"_type": "Outbound", "agentId": world.agent, **body})
    assert response.status_code == 200, response.text
    [message] = messages(http, cid)
    assert message["attributes"]["_type"] == "WhatsAppAttributes"


@pytest.mark.parametrize(("channel", "type_"), [
    ("PstnPhone", "PstnPhoneConversation"), ("Callback", "PstnPhoneConversation"),
    ("Voicemail", "PstnPhoneConversation"),
])
def test_phone_channels_take_no_messages(sandbox: SandboxServer, http: httpx2.Client,
                                         world: Org, channel: str, type_: str) -> None:
    cid = stored_conversation(sandbox, world.requester, channel=channel, type=type_)
    for body in (inbound(), outbound(world.agent)):
        response = _add(http, cid, body)
        assert response.status_code == 400
        assert "this channel does not take messages" in response.json()["message"]


def test_anonymized_conversation_takes_no_messages(sandbox: SandboxServer, http: httpx2.Client,
                                                   world: Org) -> None:
    cid = stored_conversation(sandbox, world.requester, channel="WidgetChat",
                              type="AnonymizedConversation", state="Closed",
                              anonymized_at="2026-01-01T00:00:00.000Z")
    response = _add(http, cid, inbound())
    assert response.status_code == 400
    assert "anonymized" in response.json()["message"]


def test_email_reply_with_cc(sandbox: SandboxServer, http: httpx2.Client, world: Org) -> None:
    cid = create_email(http, world.requester)
    response = _add(http, cid, outbound(world.agent, "Looping in my colleague",
                                        cc=[world.other_agent]))
    assert response.status_code == 200, response.text
    message = Message.model_validate(messages(http, cid)[-1])
    assert message.attributes.type == "EmailAttributes"
    email = sandbox.query("SELECT email FROM users WHERE id = ?",
                          (world.other_agent,))[0]["email"]
    assert [c.email for c in message.attributes.cc or []] == [email]
    unknown = _add(http, cid, outbound(world.agent, "x",
                                       cc=["00000000-0000-4000-8000-00000000abcd"]))
    assert unknown.status_code == 400


def test_cc_is_for_email_only(http: httpx2.Client, world: Org) -> None:
    cid = create_chat(http, world.requester)
    response = _add(http, cid, outbound(world.agent, "x", cc=[world.other_agent]))
    assert response.status_code == 400
    assert "email" in response.json()["message"]


# ---------------------------------------------------------------- attachments


def test_data_url_attachment_is_stored_and_served(sandbox: SandboxServer, http: httpx2.Client,
                                                  world: Org) -> None:
    cid = create_chat(http, world.requester)
    payload = b"\x89PNG\r\n\x1a\n fake image"
    url = "data:image/png;base64," + base64.b64encode(payload).decode()
    response = _add(http, cid, inbound("photo", attachments=[
        {"url": url, "prettyName": "broken lamp.png"},
        {"url": "https://cdn.example/manual.pdf", "prettyName": "manual.pdf"},
    ]))
    assert response.status_code == 200, response.text
    stored, linked = messages(http, cid)[-1]["attributes"]["attachments"]
    assert linked == {"url": "https://cdn.example/manual.pdf", "prettyName": "manual.pdf"}
    assert stored["prettyName"] == "broken lamp.png"
    assert stored["url"].startswith(sandbox.base_url + "/files/")
    served = http.get(stored["url"])
    assert served.status_code == 200
    assert served.content == payload
    assert served.headers["content-type"] == "image/png"
    assert served.headers["x-content-type-options"] == "nosniff"
    assert 'filename="broken lamp.png"' in served.headers["content-disposition"]
    # the files need the key too
    assert httpx2.get(stored["url"]).status_code == 401


def test_plain_data_url_is_percent_decoded(http: httpx2.Client, world: Org) -> None:
    cid = create_chat(http, world.requester)
    response = _add(http, cid, inbound("note", attachments=[{"url": "data:,hello%20world"}]))
    assert response.status_code == 200
    [stored] = messages(http, cid)[-1]["attributes"]["attachments"]
    served = http.get(stored["url"])
    assert served.content == b"hello world"
    assert served.headers["content-type"].startswith("text/plain")


@pytest.mark.parametrize("url", ["data:image/png;base64,@@@not-base64@@@",
                                 "data:image/png;base64", "data:bad type;base64,aGk="])
def test_malformed_data_urls_are_400(sandbox: SandboxServer, http: httpx2.Client, world: Org,
                                     url: str) -> None:
    cid = create_chat(http, world.requester)
    before = (count_rows(sandbox, "messages"), count_rows(sandbox, "attachments"))
    response = _add(http, cid, inbound("x", attachments=[{"url": url}]))
    assert response.status_code == 400
    assert (count_rows(sandbox, "messages"), count_rows(sandbox, "attachments")) == before


def test_unknown_and_malformed_files(http: httpx2.Client) -> None:
    assert http.get("/files/00000000-0000-4000-8000-00000000abcd").status_code == 404
    assert http.get("/files/passwd").status_code == 400
