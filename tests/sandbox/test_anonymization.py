"""Anonymisation: requests for conversations, messages and end users, and the real scrubbing."""

from __future__ import annotations

import json
from typing import Any

import httpx2
import pytest

from frontdesk.api.models import AnonymizationRequestStatus, Message
from frontdesk.sandbox import records
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.scrub import ANONYMIZED_NAME, ANONYMIZED_TEXT, scrub_attributes
from frontdesk.sandbox.server import SandboxServer

UNKNOWN = "00000000-0000-4000-8000-00000000abcd"


def advance(sandbox: SandboxServer, seconds: float) -> None:
    """Move the sandbox's manual clock."""
    clock = sandbox.clock
    assert isinstance(clock, ManualClock)
    clock.advance(seconds)
SECRET = "my card is 4111 1111 1111 1111"


def chat(text: str, direction: str = "Inbound", **extra: Any) -> dict[str, Any]:
    return {"_type": "ChatAttributes", "direction": direction, "isAutomated": False,
            "content": {"value": text, "_type": "Text"}, "attachments": [], **extra}


def make_world(sandbox: SandboxServer, *, state: str = "Closed") -> dict[str, Any]:
    """An end user with a custom attribute, and two conversations of theirs: an email one
    (subject, addresses, a stored attachment, an attribute value, a rated comment) in
    ``state``, and a closed chat."""

    def write(ctx: SandboxContext) -> dict[str, Any]:
        db = ctx.db
        now = ctx.now_iso()
        with db.tx():
            user = records.insert_user(
                db, kind="enduser", created_at=now, display_name="Ada Lovelace",
                email="ada@example.test", phone_number="+4512345678", external_id="crm-1",
                first_name="Ada", last_name="Lovelace", additional_emails=["a@l.test"])
            agent = records.insert_user(db, kind="agent", created_at=now,
                                        email=f"{ctx.new_id()}@agents.test")
            text_def = records.insert_attribute_definition(
                db, entity_type="Conversation", identifier=f"order_{ctx.new_id()[:6]}",
                label="Order", input_definition={"_type": "Text"}, created_at=now)
            contact_def = records.insert_attribute_definition(
                db, entity_type="Contact", identifier=f"acct_{ctx.new_id()[:6]}",
                label="Account", input_definition={"_type": "Text"}, created_at=now)
            email_csid = records.insert_conversation(
                db, type="EmailConversation", channel="Email", requester_id=user,
                created_at=now, state=state, subject="About my card",
                from_email="ada@example.test", to_email="help@shop.test",
                integration_email="help@shop.test", assigned_agent_id=agent,
                assigned_at=now)
            file_id = ctx.new_id()
            db.run("INSERT INTO attachments (id, content_type, data, name, created_at) "
                   "VALUES (?, 'text/plain', ?, 'card.txt', ?)", (file_id, b"secret", now))
            inbound = records.insert_message(
                db, conversation_id=email_csid, author_id=user, created_at=now,
                direction="Inbound", attributes={
                    "_type": "EmailAttributes", "direction": "Inbound", "isAutoReply": False,
                    "emailContent": {"_type": "Regular",
                                     "content": {"value": SECRET, "_type": "Html"}},
                    "from": {"email": "ada@example.test", "name": "Ada"},
                    "to": [{"email": "help@shop.test"}], "cc": [{"email": "bob@b.test"}],
                    "bcc": [], "subject": "About my card",
                    "attachments": [{"url": f"http://sandbox/files/{file_id}",
                                     "prettyName": "card.txt"}],
                })
            reply = records.insert_message(
                db, conversation_id=email_csid, author_id=agent, created_at=now,
                direction="Outbound", attributes=chat("We will call you, Ada", "Outbound"))
            chat_csid = records.insert_conversation(
                db, type="ChatConversation", channel="WidgetChat", requester_id=user,
                created_at=now, state="Closed", browser_info={"name": "Firefox",
                                                              "ipAddress": "10.1.2.3"})
            chat_message = records.insert_message(
                db, conversation_id=chat_csid, author_id=user, created_at=now,
                direction="Inbound", attributes=chat("call me on +4512345678"))
            records.set_attribute_value(db, entity_type="Conversation", entity_id=email_csid,
                                        attribute_id=text_def, value="ORD-1")
            records.set_attribute_value(db, entity_type="Contact", entity_id=user,
                                        attribute_id=contact_def, value="ACC-1")
            records.insert_rating_offer(db, conversation_id=email_csid, user_id=user,
                                        rating_type="Csat", offered_at=now, score=2,
                                        comment="Ada here, not happy", submitted_at=now)
        return {"user": user, "agent": agent, "email": email_csid, "chat": chat_csid,
                "inbound": inbound, "reply": reply, "chat_message": chat_message,
                "file": file_id, "api_user": ctx.api_user_id}

    return sandbox.call(write)


def message(response: httpx2.Response) -> str:
    body = response.json()
    assert set(body) == {"message"}
    return str(body["message"])


def attributes(sandbox: SandboxServer, message_id: str) -> dict[str, Any]:
    row = sandbox.query("SELECT attributes FROM messages WHERE id = ?", (message_id,))[0]
    value: dict[str, Any] = json.loads(row["attributes"])
    return value


def process(sandbox: SandboxServer) -> None:
    """Let the asynchronous work fall due and do it."""
    advance(sandbox, 5)
    sandbox.run_pending()


def accepted(response: httpx2.Response) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    AnonymizationRequestStatus.model_validate(data)
    assert "processedAt" not in data
    return data


def test_conversation_end_to_end(http: httpx2.Client, sandbox: SandboxServer) -> None:
    world = make_world(sandbox)
    status = accepted(http.patch(f"/v1/conversations/{world['email']}/anonymize"))
    assert status["_type"] == "Conversation"
    assert status["entityType"] == "ConversationAnonymizationType"
    assert status["targetEntityId"] == str(world["email"])
    assert status["requestedBy"] == world["api_user"]
    assert status["initiatedAt"] == "2026-01-05T09:00:00.000Z[GMT]"
    url = f"/v1/anonymization/request/{status['id']}"
    assert http.get(url).json()["data"] == status
    assert attributes(sandbox, world["inbound"])["emailContent"]["content"]["value"] == SECRET

    process(sandbox)
    done = http.get(url).json()["data"]
    assert done["processedAt"] == "2026-01-05T09:00:05.000Z[GMT]"
    assert AnonymizationRequestStatus.model_validate(done).processed

    inbound = attributes(sandbox, world["inbound"])
    assert inbound["emailContent"]["content"]["value"] == ANONYMIZED_TEXT
    assert SECRET not in json.dumps(inbound)
    assert "ada@example.test" not in json.dumps(inbound)
    assert (inbound["to"], inbound["cc"], inbound["attachments"]) == ([], [], [])
    assert "subject" not in inbound
    assert inbound["_type"] == "EmailAttributes"
    Message.model_validate({"id": world["inbound"], "authorId": world["user"],
                            "createdAt": "2026-01-05T09:00:00Z", "attributes": inbound})
    assert attributes(sandbox, world["reply"])["content"] == {"value": ANONYMIZED_TEXT,
                                                               "_type": "Text"}
    assert sandbox.query("SELECT body_text FROM messages WHERE conversation_id = ?",
                         (world["email"],)) == [{"body_text": ""}, {"body_text": ""}]
    assert sandbox.query("SELECT 1 FROM attachments WHERE id = ?", (world["file"],)) == []
    conversation = sandbox.query("SELECT * FROM conversations WHERE id = ?",
                                 (world["email"],))[0]
    assert conversation["type"] == "AnonymizedConversation"
    assert conversation["anonymized_at"] == "2026-01-05T09:00:05.000Z"
    assert (conversation["subject"], conversation["from_email"], conversation["to_email"]) == (
        None, None, None)
    assert sandbox.query("SELECT * FROM custom_attribute_values WHERE entity_type = "
                         "'Conversation' AND entity_id = ?", (str(world["email"]),)) == []
    assert sandbox.query("SELECT comment, score FROM ratings WHERE conversation_id = ?",
                         (world["email"],)) == [{"comment": None, "score": 2}]
    # the end user and their other conversation are untouched
    user = sandbox.query("SELECT display_name, email FROM users WHERE id = ?",
                         (world["user"],))
    assert user == [{"display_name": "Ada Lovelace", "email": "ada@example.test"}]
    assert attributes(sandbox, world["chat_message"])["content"]["value"].startswith("call me")


def test_open_conversation_needs_force(http: httpx2.Client, sandbox: SandboxServer) -> None:
    world = make_world(sandbox, state="Open")
    refused = http.patch(f"/v1/conversations/{world['email']}/anonymize")
    assert refused.status_code == 409
    assert "not closed" in message(refused)
    assert http.patch(f"/v1/conversations/{world['email']}/anonymize",
                      params={"force": "false"}).status_code == 409
    requests = "SELECT * FROM anonymization_requests WHERE target_entity_id = ?"
    assert sandbox.query(requests, (str(world["email"]),)) == []
    jobs = sandbox.query("SELECT * FROM jobs WHERE kind = 'anonymize' AND done_at IS NULL")

    accepted(http.patch(f"/v1/conversations/{world['email']}/anonymize",
                        params={"force": "true"}))
    assert len(sandbox.query(requests, (str(world["email"]),))) == 1
    assert len(sandbox.query("SELECT * FROM jobs WHERE kind = 'anonymize' AND done_at IS NULL"
                             )) == len(jobs) + 1
    row = sandbox.query("SELECT state, queue_id FROM conversations WHERE id = ?",
                        (world["email"],))[0]
    assert row == {"state": "Closed", "queue_id": None}  # closed at once, scrubbed later
    process(sandbox)
    assert sandbox.query("SELECT type FROM conversations WHERE id = ?",
                         (world["email"],)) == [{"type": "AnonymizedConversation"}]


def test_conversation_errors(http: httpx2.Client) -> None:
    assert http.patch("/v1/conversations/999999/anonymize").status_code == 404
    assert http.patch("/v1/conversations/0/anonymize").status_code == 400
    assert http.patch("/v1/conversations/abc/anonymize").status_code == 400
    assert http.patch("/v1/conversations/1/anonymize",
                      params={"force": "maybe"}).status_code == 400


def test_one_message(http: httpx2.Client, sandbox: SandboxServer) -> None:
    world = make_world(sandbox, state="Open")
    url = f"/v1/conversations/{world['email']}/messages/{world['reply']}/anonymize"
    status = accepted(http.patch(url))
    assert status["_type"] == "Message"
    assert status["entityType"] == "MessageAnonymizationType"
    assert status["targetEntityId"] == f"{world['email']}_{world['reply']}"
    process(sandbox)
    assert "processedAt" in http.get(f"/v1/anonymization/request/{status['id']}").json()["data"]
    assert attributes(sandbox, world["reply"])["content"]["value"] == ANONYMIZED_TEXT
    assert SECRET in json.dumps(attributes(sandbox, world["inbound"]))  # only that message
    assert sandbox.query("SELECT state, type FROM conversations WHERE id = ?",
                         (world["email"],)) == [{"state": "Open", "type": "EmailConversation"}]

    base = f"/v1/conversations/{world['email']}/messages"
    assert http.patch(f"{base}/{UNKNOWN}/anonymize").status_code == 404
    elsewhere = http.patch(f"{base}/{world['chat_message']}/anonymize")
    assert elsewhere.status_code == 404
    assert "Message" in message(elsewhere)
    assert http.patch(f"{base}/not-a-uuid/anonymize").status_code == 400
    assert http.patch(f"/v1/conversations/999999/messages/{world['reply']}/anonymize"
                      ).status_code == 404


def test_end_user(http: httpx2.Client, sandbox: SandboxServer) -> None:
    world = make_world(sandbox, state="Pending")
    url = f"/v1/endusers/{world['user']}/anonymize"
    refused = http.patch(url)
    assert refused.status_code == 409
    assert str(world["email"]) in message(refused)
    status = accepted(http.patch(url, params={"force": True}))
    assert (status["_type"], status["entityType"], status["targetEntityId"]) == (
        "User", "UserAnonymizationType", world["user"])
    assert sandbox.query("SELECT state FROM conversations WHERE id = ?",
                         (world["email"],)) == [{"state": "Closed"}]
    process(sandbox)
    user = sandbox.query("SELECT * FROM users WHERE id = ?", (world["user"],))[0]
    assert user["display_name"] == ANONYMIZED_NAME
    for column in ("email", "phone_number", "external_id", "first_name", "last_name",
                   "additional_emails"):
        assert user[column] is None, column
    assert user["anonymized_at"] == "2026-01-05T09:00:05.000Z"
    assert sandbox.query("SELECT * FROM custom_attribute_values WHERE entity_id = ?",
                         (world["user"],)) == []
    conversations = sandbox.query("SELECT type, browser_info FROM conversations "
                                  "WHERE requester_id = ? ORDER BY id", (world["user"],))
    assert conversations == [{"type": "AnonymizedConversation", "browser_info": None}] * 2
    assert "+4512345678" not in json.dumps(attributes(sandbox, world["chat_message"]))
    # an anonymised end user's attributes cannot be set again
    assert http.patch(f"/v1/endusers/{world['user']}/custom-attributes",
                      json={}).status_code == 400


def test_end_user_errors(http: httpx2.Client, sandbox: SandboxServer) -> None:
    world = make_world(sandbox)
    assert http.patch(f"/v1/endusers/{UNKNOWN}/anonymize").status_code == 404
    assert http.patch(f"/v1/endusers/{world['agent']}/anonymize").status_code == 404
    assert http.patch("/v1/endusers/nope/anonymize").status_code == 400
    # every conversation closed: no force needed
    accepted(http.patch(f"/v1/endusers/{world['user']}/anonymize"))


def test_request_status_errors(http: httpx2.Client) -> None:
    missing = http.get(f"/v1/anonymization/request/{UNKNOWN}")
    assert missing.status_code == 404
    assert "Anonymization request" in message(missing)
    assert http.get("/v1/anonymization/request/123").status_code == 400


def test_deprecated_post(http: httpx2.Client, sandbox: SandboxServer) -> None:
    world = make_world(sandbox, state="Open")
    post = "/v1/anonymization"
    refused = http.post(post, json={"entityId": str(world["email"]), "_type": "Conversation"})
    assert refused.status_code == 409
    forced = accepted(http.post(post, json={"entityId": str(world["email"]),
                                            "_type": "Conversation",
                                            "forceAnonymization": True}))
    assert forced["targetEntityId"] == str(world["email"])
    one = accepted(http.post(post, json={
        "entityId": f"{world['chat']}_{world['chat_message']}", "_type": "Message",
        "entityType": "MessageAnonymizationType"}))
    assert one["entityType"] == "MessageAnonymizationType"
    user = accepted(http.post(post, json={"entityId": world["user"], "_type": "User",
                                          "forceAnonymization": True}))
    assert user["_type"] == "User"
    process(sandbox)
    for status in (forced, one, user):
        got = http.get(f"/v1/anonymization/request/{status['id']}").json()["data"]
        assert "processedAt" in got

    for body in (
        {"entityId": "12a", "_type": "Conversation"},
        {"entityId": world["user"], "_type": "Conversation"},
        {"entityId": "99999999999999999999", "_type": "Conversation"},
        {"entityId": str(world["chat"]), "_type": "Message"},
        {"entityId": f"{world['chat']}-{world['chat_message']}", "_type": "Message"},
        {"entityId": "42", "_type": "User"},
        {"entityId": world["user"], "_type": "Agent"},
        {"entityId": world["user"]},
        {"entityId": "", "_type": "User"},
        {"entityId": world["user"], "_type": "User", "entityType": "MessageAnonymizationType"},
        {"entityId": world["user"], "_type": "User", "forceAnonymization": "yes"},
    ):
        response = http.post(post, json=body)
        assert response.status_code == 400, body
        assert message(response)
    assert http.post(post, json={"entityId": "999999", "_type": "Conversation"}
                     ).status_code == 404
    assert http.post(post, json={"entityId": f"{world['email']}_{UNKNOWN}", "_type": "Message"}
                     ).status_code == 404
    assert http.post(post, json={"entityId": UNKNOWN, "_type": "User"}).status_code == 404


def test_openapi_marks_the_deprecated_post(http: httpx2.Client) -> None:
    paths = http.get("/openapi.json").json()["paths"]
    assert paths["/v1/anonymization"]["post"]["deprecated"] is True
    assert "409" in paths["/v1/conversations/{conversationId}/anonymize"]["patch"]["responses"]


@pytest.mark.parametrize("attrs", [
    {"_type": "PhoneAttributes", "from": "+4511", "to": "+4522", "direction": "Inbound",
     "duration": 30},
    {"_type": "CallRecordingAttributes", "recording": "http://x/rec.mp3", "duration": 3},
    {"_type": "MessengerFormAttributes", "formSubmission": {"values": {"name": "Ada"}},
     "direction": "Inbound"},
    {"_type": "EmailAttributes", "emailContent": {"_type": "TooLarge",
                                                  "file": {"url": "http://x/big.eml"}},
     "from": {"email": "a@b.test"}, "isAutoReply": False, "originalContentUrl": {"url": "u"}},
])
def test_scrubbed_attributes_keep_their_required_members(attrs: dict[str, Any]) -> None:
    scrubbed = scrub_attributes(attrs)
    assert scrubbed["_type"] == attrs["_type"]
    text = json.dumps(scrubbed)
    for secret in ("+4511", "+4522", "rec.mp3", "Ada", "a@b.test", "big.eml"):
        assert secret not in text
    required = {"PhoneAttributes": {"from", "to"}, "CallRecordingAttributes": {"recording"},
                "MessengerFormAttributes": {"formSubmission"},
                "EmailAttributes": {"from", "isAutoReply", "emailContent"}}[attrs["_type"]]
    assert required <= set(scrubbed)
