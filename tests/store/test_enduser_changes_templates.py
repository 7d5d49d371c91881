"""End-user edits and CSV, quick responses (placeholders, languages, delete), and the
organisation with its flows, at the store level against the sandbox."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer
from frontdesk.launch import local_store_path
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.enduser_changes import (
    bulk_endusers_csv,
    parse_endusers_csv,
    patch_enduser,
    update_enduser,
)
from frontdesk.store.errors import Refused
from frontdesk.store.session import Session
from frontdesk.store.templates import fill_placeholders, matching


class Sent:
    """The requests that leave the client, with their bodies (wraps the real transport)."""

    def __init__(self, session: Session) -> None:
        transport = session.client._transport
        self.calls: list[tuple[str, Any]] = []
        original = transport.send

        async def send(op: Any, **kwargs: Any) -> Any:
            self.calls.append((op.label, kwargs.get("body")))
            return await original(op, **kwargs)

        transport.send = send  # type: ignore[method-assign]


@pytest.fixture
async def session(sandbox: SandboxServer) -> AsyncIterator[Session]:
    client = ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                       pacer=Pacer(enabled=False))
    from frontdesk.store.local import LocalStore

    made = Session(client=client, local=LocalStore(local_store_path("store-desk-admin")),
                   settings=Settings(), profile="store-desk-admin", identity=DEMO_AGENT_EMAIL)
    await made.resolve_me()
    yield made
    await made.live.stop()
    await client.aclose()
    made.local.close()


def _enduser(sandbox: SandboxServer, where: str) -> dict[str, Any]:
    return sandbox.query(f"SELECT * FROM users WHERE kind = 'enduser' AND anonymized_at IS NULL "
                         f"AND {where} ORDER BY created_at, id LIMIT 1")[0]


async def test_patch_sends_only_what_changed_and_update_keeps_hidden_fields(
        session: Session, sandbox: SandboxServer) -> None:
    people = session.people
    row = _enduser(sandbox, "email IS NOT NULL AND phone_number IS NOT NULL "
                            "AND external_id IS NOT NULL")
    user = await people.get_enduser(row["id"])
    form = {"display_name": user.display_name or "", "email": user.email or "",
            "phone_number": user.phone_number or "", "external_id": user.external_id or "",
            "first_name": user.first_name or "", "last_name": user.last_name or ""}
    sent = Sent(session)
    with pytest.raises(Refused, match="Nothing changed"):
        await patch_enduser(people, user, form)
    with pytest.raises(Refused, match="email address"):
        await patch_enduser(people, user, {**form, "email": "not-an-email"})
    with pytest.raises(Refused, match="cannot be emptied"):
        await patch_enduser(people, user, {**form, "display_name": " "})
    assert sent.calls == []
    changed = await patch_enduser(people, user, {**form, "last_name": "Kowalska",
                                                 "external_id": ""})
    assert sent.calls == [("PATCH /v1/endusers/{userId}",
                           {"lastName": "Kowalska", "externalId": None})]
    assert changed.last_name == "Kowalska" and changed.external_id is None
    assert changed.email == user.email and changed.phone_number == user.phone_number
    # a full update: what the form shows, plus what it does not show, kept
    user = await session.client.endusers.patch(user.id, avatar_url="https://example.org/a.png")
    updated = await update_enduser(people, user, {**form, "phone_number": "",
                                                  "display_name": "Renamed"})
    assert updated.display_name == "Renamed" and updated.phone_number is None
    assert updated.avatar_url == "https://example.org/a.png"
    assert session.directory.names[user.id] == "Renamed"


async def test_csv_creates_and_updates_with_a_report_per_line(
        session: Session, sandbox: SandboxServer, tmp_path: Path) -> None:
    people = session.people
    known = _enduser(sandbox, "email IS NOT NULL")
    absent = "4c1b1b3e-2a65-4f33-9e55-0d1c55a9b1a2"
    rows = parse_endusers_csv(
        "id,displayName,email,externalId,additionalEmails\n"
        f"{known['id']},Changed Name,,,\n"
        ",Nia New,nia@example.org,crm-1,n1@example.org;n2@example.org\n"
        "not-a-uuid,X,,,\n"
        ",Nia Twice,NIA@example.org,,\n"
        ",,,,\n"
        f"{absent},Ghost,,,\n"
        ",Bad Mail,bad-mail,,\n")
    assert [(r.line, r.kind, r.refusal) for r in rows] == [
        (2, "update", ""), (3, "create", ""),
        (4, "update", "the id is not an end user id (a UUID)"),
        (5, "create", "the same email address as line 3"), (7, "update", ""),
        (8, "create", "the email address is not valid")]
    assert rows[1].fields["additional_emails"] == ["n1@example.org", "n2@example.org"]
    with pytest.raises(Refused, match="Unknown column"):
        parse_endusers_csv("id,shoeSize\n")
    csv_file = tmp_path / "endusers.csv"
    csv_file.write_text(
        "id,displayName,email,externalId\n"
        f"{known['id']},Changed Name,,\n"
        ",Nia New,nia@example.org,crm-1\n"
        f"{absent},Ghost,,\n"
        ",Bad Mail,bad-mail,\n", encoding="utf-8")
    report = await bulk_endusers_csv(people, str(csv_file))
    assert [(r.line, r.ok, r.detail) for r in report.rows][:2] == [
        (2, True, "updated"), (3, True, "created")]
    assert not report.rows[2].ok and "not" in report.rows[2].detail.lower()
    assert report.rows[3].detail.startswith("not sent:")
    stored = sandbox.query("SELECT display_name, email FROM users WHERE id = ?", (known["id"],))
    assert stored == [{"display_name": "Changed Name", "email": known["email"]}]
    created = sandbox.query("SELECT id FROM users WHERE email = 'nia@example.org'")
    assert [r["id"] for r in created] == [report.rows[1].agent_id]
    with pytest.raises(Refused, match="no file"):
        await bulk_endusers_csv(people, str(tmp_path / "absent.csv"))


def test_placeholders_are_filled_or_left_as_written() -> None:
    text = "Hi {{requester_firstname}}, case {{ csid }}. {{agent_firstname}} {{unknown}}"
    assert fill_placeholders(text, customer="Ana", agent="Sam", conversation_id=42) == \
        "Hi Ana, case 42. Sam {{unknown}}"
    assert fill_placeholders(text, agent="Sam") == \
        "Hi {{requester_firstname}}, case {{ csid }}. Sam {{unknown}}"


async def test_quick_responses_languages_names_and_delete(session: Session,
                                                          sandbox: SandboxServer) -> None:
    store = session.templates
    entries = await store.quick_responses()
    titles = [e.title for e in entries]
    assert "Greeting" in titles and "Greeting · da" in titles and "Greeting · de" in titles
    assert not any(t.startswith("We got your email") for t in titles)  # an auto-reply
    switched_off = sandbox.query("SELECT translations FROM templates "
                                 "WHERE name = '30-day return policy'")
    assert switched_off  # the seed switches one translation off: it is not offered
    assert len([t for t in titles if t.startswith("30-day return policy")]) == 3
    assert [e.title for e in matching(entries, "HOLA")] == ["Greeting · es"]
    assert [e.title for e in matching(entries, "refund statement")] == ["Refund issued"]
    # the conversation's language first; a typed word that is a locale ranks that one first
    greetings = matching(entries, "greeting")
    assert matching(entries, "greeting", language="de-DE")[0].title == "Greeting · de"
    assert matching(entries, "greeting de")[0].title == "Greeting · de"
    assert matching(entries, "greeting de", language="da")[0].title == "Greeting · de"
    assert sorted(e.key for e in matching(entries, "greeting", language="de")) == \
        sorted(e.key for e in greetings)  # ranked, nothing dropped
    conversation = sandbox.query("SELECT c.id, u.first_name FROM conversations c JOIN users u "
                                 "ON u.id = c.requester_id WHERE u.first_name IS NOT NULL "
                                 "ORDER BY c.id LIMIT 1")[0]
    customer, mine = await store.names_for(conversation["id"])
    assert customer == conversation["first_name"]
    assert session.me is not None and mine and mine in session.me.display_name
    every = await store.list_all()
    kinds = {t.type for t in every}
    assert kinds == {"QuickResponse", "EmailAutoReply"}
    greeting = next(t for t in every if t.name == "Greeting")
    await store.delete(greeting.id)
    assert "Greeting" not in [e.title for e in await store.quick_responses()]
    with pytest.raises(Refused, match="Could not delete"):
        await store.delete(greeting.id)


async def test_organization_and_every_channels_flows(session: Session) -> None:
    store = session.organization
    org = await store.organization()
    assert org.name == "Acme Demo" and org.subdomain == "acme-demo" and org.status == "Active"
    flows = await store.flows()
    assert flows.unread == {}
    names = [f.name for f in flows.flows]
    assert "Copenhagen hotline" in names and "Website chat" in names and len(names) == 10
    assert {f.channel for f in flows.flows} >= {"PstnPhone", "Email", "WidgetChat"}
