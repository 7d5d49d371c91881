"""The People and Admin stores against the sandbox: what each method sends, what it returns,
and what it refuses before sending."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer
from frontdesk.launch import local_store_path
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.agents_csv import parse_agents_csv
from frontdesk.store.errors import Refusal, Refused
from frontdesk.store.queue_settings import QueueSettings
from frontdesk.store.session import Session
from frontdesk.store.topics import anonymization_topic
from frontdesk.store.typed_time import parse_typed_time


class Counter:
    """Counts the requests that leave the client (wraps the real transport's send)."""

    def __init__(self, session: Session) -> None:
        transport = session.client._transport
        self.calls: list[str] = []
        original = transport.send

        async def send(op: Any, **kwargs: Any) -> Any:
            self.calls.append(op.label)
            return await original(op, **kwargs)

        transport.send = send  # type: ignore[method-assign]


@pytest.fixture
async def session(sandbox: SandboxServer) -> AsyncIterator[Session]:
    client = ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                       pacer=Pacer(enabled=False))
    from frontdesk.store.local import LocalStore

    made = Session(client=client, local=LocalStore(local_store_path("store-test")),
                   settings=Settings(), profile="store-test", identity=DEMO_AGENT_EMAIL)
    await made.resolve_me()
    yield made
    await made.live.stop()
    await client.aclose()
    made.local.close()


def _enduser(sandbox: SandboxServer, where: str = "1 = 1") -> dict[str, Any]:
    return sandbox.query(f"SELECT * FROM users WHERE kind = 'enduser' AND {where} "
                         "ORDER BY created_at, id LIMIT 1")[0]


# ---------------------------------------------------------------------- end users


async def test_find_end_users_by_each_kind(session: Session, sandbox: SandboxServer) -> None:
    people = session.people
    row = _enduser(sandbox, "external_id IS NOT NULL AND phone_number IS NOT NULL")
    assert [u.id for u in await people.find_endusers("email", row["email"])] == [row["id"]]
    assert [u.id for u in await people.find_endusers("phone", row["phone_number"])] == [row["id"]]
    assert [u.id for u in await people.find_endusers("external_id", row["external_id"])] \
        == [row["id"]]
    assert [u.id for u in await people.find_endusers("id", row["id"])] == [row["id"]]
    assert [u.id for u in await people.find_endusers("auto", row["id"])] == [row["id"]]
    assert await people.find_endusers("id", "4c1b1b3e-2a65-4f33-9e55-0d1c55a9b1a2") == []
    assert people.guess_kind("a@b.example") == "email"
    assert people.guess_kind("+45 1234 5678") == "phone"
    assert people.guess_kind("crm-000012") == "external_id"


async def test_find_refuses_what_cannot_match_before_sending(session: Session) -> None:
    people = session.people
    counter = Counter(session)
    with pytest.raises(Refused, match="UUID"):
        await people.find_endusers("id", "not-an-id")
    with pytest.raises(Refused, match="email"):
        await people.find_endusers("email", "nobody")
    with pytest.raises(Refused, match="Type"):
        await people.find_endusers("auto", "  ")
    assert counter.calls == []


async def test_create_end_user_and_refusals(session: Session, sandbox: SandboxServer) -> None:
    people = session.people
    user = await people.create_enduser({"display_name": "Ada Lovelace", "email": "ada@example.org",
                                        "external_id": "crm-ada", "phone_number": ""})
    rows = sandbox.query("SELECT display_name, email, external_id FROM users WHERE id = ?",
                         (user.id,))
    assert rows == [{"display_name": "Ada Lovelace", "email": "ada@example.org",
                     "external_id": "crm-ada"}]
    with pytest.raises(Refused, match="already exists"):  # the service's own words
        await people.create_enduser({"display_name": "Other", "external_id": "crm-ada"})
    with pytest.raises(Refused, match="at least"):
        await people.create_enduser({"display_name": " "})
    with pytest.raises(Refused, match="email"):
        await people.create_enduser({"email": "nope"})


async def test_profile_and_attributes(session: Session, sandbox: SandboxServer) -> None:
    people = session.people
    row = sandbox.query("SELECT requester_id FROM conversations GROUP BY requester_id "
                        "ORDER BY COUNT(*) DESC LIMIT 1")[0]
    profile = await people.profile(row["requester_id"])
    assert profile.conversations
    assert {d.entity_type for d in profile.definitions} == {"Contact"}
    tier = next(d for d in profile.definitions if d.identifier == "customer_tier")
    values = await people.patch_attributes("Contact", row["requester_id"], {tier.id: ["pro"]})
    assert any(v.identifier == "customer_tier" and v.value == ["pro"] for v in values)
    stored = sandbox.query("SELECT value FROM custom_attribute_values WHERE entity_id = ? "
                           "AND attribute_id = ?", (row["requester_id"], tier.id))
    assert stored and "pro" in stored[0]["value"]
    with pytest.raises(Refused, match="Nothing changed"):
        await people.patch_attributes("Contact", row["requester_id"], {})


async def test_anonymize_needs_force_then_is_followed(session: Session,
                                                       sandbox: SandboxServer) -> None:
    people = session.people
    user_id = sandbox.query("SELECT requester_id FROM conversations WHERE state != 'Closed' "
                            "LIMIT 1")[0]["requester_id"]
    with pytest.raises(Refused) as refused:
        await people.anonymize_enduser(user_id)
    assert refused.value.kind is Refusal.NEEDS_FORCE
    status = await people.anonymize_enduser(user_id, force=True)
    assert sandbox.query("SELECT type, target_entity_id FROM anonymization_requests "
                         "WHERE id = ?", (status.id,)) == [{"type": "User",
                                                            "target_entity_id": user_id}]
    topic = anonymization_topic(status.id)
    assert session.live.topic(topic) is not None
    assert session.admin.requests_made_here()[0].id == status.id
    assert isinstance(sandbox.clock, ManualClock)
    sandbox.clock.advance(5)
    sandbox.run_pending()
    current = await session.live.refresh(topic)
    assert current is not None and current.processed
    assert session.admin.requests_made_here()[0].processed


# ---------------------------------------------------------------------- agents


async def test_agents_filter_by_both_is_refused_before_sending(session: Session) -> None:
    people = session.people
    counter = Counter(session)
    with pytest.raises(Refused, match="not both"):
        await people.list_agents(email="a@b.example", phone="+4511223344")
    assert counter.calls == []
    found = await people.list_agents(email=DEMO_AGENT_EMAIL)
    assert [a.email for a in found] == [DEMO_AGENT_EMAIL]


def test_csv_rows_are_checked_line_by_line() -> None:
    rows = parse_agents_csv(
        "displayName,email,phoneNumber,additionalEmails\n"
        "Ann,ann@example.org,+4512345678,a1@example.org;a2@example.org\n"
        ",nobody@example.org,,\n"
        "\n"
        "Bob,not-an-email,,\n"
        "Ann again,ANN@example.org,,\n"
    )
    assert [(r.line, r.refusal) for r in rows] == [
        (2, ""), (3, "no display name"), (5, "the email address is not valid"),
        (6, "the same email address as line 2")]
    assert rows[0].agent is not None
    assert rows[0].agent.additional_emails == ["a1@example.org", "a2@example.org"]
    with pytest.raises(Refused, match="Unknown column"):
        parse_agents_csv("displayName,email,shoeSize\n")
    with pytest.raises(Refused, match="at least displayName and email"):
        parse_agents_csv("displayName\nAnn\n")


async def test_bulk_create_reports_every_line(session: Session, sandbox: SandboxServer,
                                              tmp_path: Path) -> None:
    people = session.people
    csv_file = tmp_path / "agents.csv"
    csv_file.write_text("displayName,email,phoneNumber\n"
                        "New One,new.one@example.org,+4511111111\n"
                        f"Dup,{DEMO_AGENT_EMAIL},\n"
                        ",missing@example.org,\n"
                        "New Two,new.two@example.org,\n", encoding="utf-8")
    report = await people.bulk_create_csv(str(csv_file))
    assert [(r.line, r.ok) for r in report.rows] == [(2, True), (3, False), (4, False),
                                                      (5, True)]
    assert "already exists" in report.rows[1].detail
    assert "no display name" in report.rows[2].detail
    assert report.created == 2 and report.failed == 2
    emails = {r["email"] for r in sandbox.query("SELECT email FROM users WHERE kind = 'agent'")}
    assert {"new.one@example.org", "new.two@example.org"} <= emails
    assert "missing@example.org" not in emails
    with pytest.raises(Refused, match="no file"):
        await people.bulk_create_csv(str(tmp_path / "absent.csv"))


async def test_a_csv_too_large_or_not_a_file_is_refused_before_reading_it_all(
        session: Session, sandbox: SandboxServer, tmp_path: Path) -> None:
    """``/dev/zero`` filled memory and 100,000 agents were created unasked: a device, a file
    over 5 MB or over 10,000 lines, or one that is not UTF-8 text is refused in one line,
    and nothing is sent."""
    from frontdesk.store.csv_files import MAX_BYTES, MAX_ROWS

    people = session.people
    before = len(sandbox.query("SELECT id FROM users"))
    with pytest.raises(Refused, match="not a regular file"):
        await people.read_csv("/dev/zero")
    huge = tmp_path / "huge.csv"
    huge.write_bytes(b"displayName,email\n" + b"x" * MAX_BYTES)
    with pytest.raises(Refused, match="larger than 5 MB"):
        await people.read_csv(str(huge))
    many = tmp_path / "many.csv"
    many.write_text("displayName,email\n" + "".join(
        f"A{n},a{n}@example.org\n" for n in range(MAX_ROWS + 1)), encoding="utf-8")
    with pytest.raises(Refused, match="more than 10,000 agents"):
        await people.read_csv(str(many))
    binary = tmp_path / "photo.csv"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    with pytest.raises(Refused, match="not a text file in UTF-8"):
        await people.read_csv(str(binary))
    rows = await people.read_csv(
        str(_write(tmp_path / "ok.csv", "displayName,email\nAnn,ann@example.org\n")))
    assert [(r.line, r.agent is not None) for r in rows] == [(2, True)]
    assert len(sandbox.query("SELECT id FROM users")) == before  # reading sends nothing


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


async def test_agent_create_update_patch_detail_downgrade(session: Session,
                                                          sandbox: SandboxServer) -> None:
    people = session.people
    agent = await people.create_agent({"display_name": "Zed", "email": "zed@example.org",
                                       "phone_number": "+4599887766", "first_name": "Z"})
    counter = Counter(session)
    with pytest.raises(Refused, match="Nothing changed"):
        await people.patch_agent(agent, {"display_name": "Zed", "phone_number": "+4599887766"})
    with pytest.raises(Refused, match="full update"):
        await people.patch_agent(agent, {"phone_number": ""})
    assert counter.calls == []
    patched = await people.patch_agent(agent, {"display_name": "Zed Z", "first_name": "Z"})
    assert counter.calls == ["PATCH /v1/agents/{agentId}"]
    assert patched.display_name == "Zed Z" and patched.phone_number == "+4599887766"
    updated = await people.update_agent(agent.id, {"display_name": "Zed", "phone_number": ""})
    assert updated.phone_number is None and updated.first_name is None
    detail = await people.agent_detail(agent.id)
    assert detail.agent.id == agent.id and detail.teams == []
    assert detail.presence is not None
    await people.downgrade_agent(agent.id)
    assert sandbox.query("SELECT kind FROM users WHERE id = ?", (agent.id,)) == [
        {"kind": "enduser"}]
    with pytest.raises(Refused, match="display name"):
        await people.create_agent({"email": "x@example.org"})


# ---------------------------------------------------------------------- admin


async def test_tags_lifecycle(session: Session, sandbox: SandboxServer) -> None:
    admin = session.admin
    tag = await admin.create_tag("priority-x", "#112233")
    assert tag.active
    tag = await admin.set_tag_active(tag, False)
    assert sandbox.query("SELECT state FROM tags WHERE id = ?", (tag.id,)) == [
        {"state": "Inactive"}]
    assert tag.id not in {t.id for t in await admin.list_tags()}
    assert tag.id in {t.id for t in await admin.list_tags(include_deactivated=True)}
    tag = await admin.set_tag_active(tag, True)
    assert tag.active
    await admin.delete_tag(tag.id)
    assert sandbox.query("SELECT 1 FROM tags WHERE id = ?", (tag.id,)) == []
    with pytest.raises(Refused, match="#rrggbb"):
        await admin.create_tag("x", "red")


async def test_team_and_queue_members(session: Session, sandbox: SandboxServer) -> None:
    admin = session.admin
    agents = [r["id"] for r in sandbox.query(
        "SELECT id FROM users WHERE kind = 'agent' ORDER BY created_at LIMIT 3")]
    team = await admin.create_team("Night shift")
    change = await admin.change_team_members(team.id, agents[:2], [])
    assert sorted(change.added) == sorted(agents[:2])
    await admin.change_team_members(team.id, [], agents[:1])
    members = sandbox.query("SELECT agent_id FROM team_members WHERE team_id = ?", (team.id,))
    assert [m["agent_id"] for m in members] == [agents[1]]
    assert len(await admin.team_presence(team.id)) == 1
    with pytest.raises(Refused, match="Nothing changed"):
        await admin.change_team_members(team.id, [], [])
    await admin.delete_team(team.id)
    assert sandbox.query("SELECT 1 FROM teams WHERE id = ?", (team.id,)) == []

    settings = QueueSettings.from_form({"name": "Weekend", "priority": "7",
                                        "offer_timeout": "40", "offer_algorithm": "LongestIdle",
                                        "is_do_not_offer_enabled": True,
                                        "is_preferred_agent_enabled": True,
                                        "preferred_agent_offline_timeout": "120"})
    queue = await admin.create_queue(settings)
    assert queue.priority == 7 and queue.offer_timeout == 40
    assert queue.offering_algorithm == "LongestIdle" and queue.is_do_not_offer_enabled
    assert queue.is_preferred_agent_enabled and queue.preferred_agent_offline_timeout == 120
    change = await admin.change_queue_members(queue.id, agents, [])
    assert sorted(change.added) == sorted(agents)
    rows = sandbox.query("SELECT agent_id FROM queue_members WHERE queue_id = ?", (queue.id,))
    assert sorted(r["agent_id"] for r in rows) == sorted(agents)
    with pytest.raises(Refused, match="priority"):
        QueueSettings.from_form({"name": "x", "priority": "high"})


async def test_business_hours_calendar_and_status(session: Session) -> None:
    admin = session.admin
    schedules = await admin.list_schedules()
    copenhagen = next(s for s in schedules if s.name == "Copenhagen support")
    definition = await admin.definition(copenhagen.id)
    calendar = await admin.calendar(copenhagen.id, 14, definition)
    assert len(calendar.days) == 14
    assert calendar.days[0].day.isoformat() == "2026-01-05"
    by_day = {d.day.isoformat(): d for d in calendar.days}
    assert by_day["2026-01-05"].is_open and by_day["2026-01-05"].intervals == [("08:00", "17:00")]
    assert not by_day["2026-01-10"].is_open  # a Saturday
    assert by_day["2026-01-15"].intervals == [("08:00", "12:00")]  # the training day
    status = await admin.status_at_text(copenhagen.id, "2026-01-10 12:00", definition.timezone)
    assert not status.is_open
    status = await admin.status_at_text(copenhagen.id, "2026-01-07 12:00", definition.timezone)
    assert status.is_open
    with pytest.raises(Refused, match="1 to 90"):
        await admin.calendar(copenhagen.id, 91)


def test_parse_typed_time_forms() -> None:
    zone = ZoneInfo("Europe/Copenhagen")
    now = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)  # a Monday, 10:00 in Copenhagen
    assert parse_typed_time("14:30", zone, now) == datetime(2026, 1, 5, 14, 30, tzinfo=zone)
    assert parse_typed_time("tomorrow 09:00", zone, now) == datetime(2026, 1, 6, 9, 0, tzinfo=zone)
    assert parse_typed_time("fri 08:00", zone, now) == datetime(2026, 1, 9, 8, 0, tzinfo=zone)
    assert parse_typed_time("2026-02-01 12:00", zone, now) == datetime(2026, 2, 1, 12, tzinfo=zone)
    assert parse_typed_time("2026-02-01T12:00:00Z", zone, now) == datetime(2026, 2, 1, 12,
                                                                           tzinfo=UTC)
    for bad in ("", "noon", "25:00", "+", "tomorrow 24:00"):
        with pytest.raises(Refused):
            parse_typed_time(bad, zone, now)
    # one grammar for every typed time: the follow-up picker's forms read here too
    assert parse_typed_time("+1h30m", zone, now) == now + timedelta(hours=1, minutes=30)
    assert parse_typed_time("09:00", zone, now) == datetime(2026, 1, 5, 9, 0, tzinfo=zone)
    assert parse_typed_time("09:00", zone, now, next_clock=True) == datetime(2026, 1, 6, 9, 0,
                                                                             tzinfo=zone)


async def test_endpoints_definitions_and_deprecated_listing(session: Session) -> None:
    admin = session.admin
    endpoints = await admin.list_contact_endpoints()
    assert endpoints[0].type == "EmailEndpoint"
    assert (await admin.get_contact_endpoint(endpoints[0].key)).key == endpoints[0].key
    assert admin.integrations_configured
    legacy = await admin.list_deprecated_endpoints()
    assert len(legacy) == len(endpoints)
    first = legacy[0].email_address
    assert first is not None
    assert (await admin.get_deprecated_endpoint(first.id)).email_address is not None
    bare = ApiClient(session.client.base_url, "key", pacer=Pacer(enabled=False))
    try:
        session.client, kept = bare, session.client
        assert not admin.integrations_configured
        with pytest.raises(Refused, match="integrations URL"):
            await admin.list_deprecated_endpoints()
    finally:
        session.client = kept
        await bare.aclose()
    definitions = await admin.list_definitions()
    assert definitions[0].entity_type == "Contact"
    assert (await admin.get_definition(definitions[0].id)).id == definitions[0].id


async def test_anonymisation_requests_and_ratings(session: Session,
                                                  sandbox: SandboxServer) -> None:
    admin = session.admin
    closed = sandbox.query("SELECT id FROM conversations WHERE state = 'Closed' "
                           "AND type != 'AnonymizedConversation' LIMIT 1")[0]["id"]
    status = await admin.anonymize_deprecated("Conversation", str(closed), False)
    assert admin.requests_made_here()[0].id == status.id
    assert isinstance(sandbox.clock, ManualClock)
    sandbox.clock.advance(5)
    sandbox.run_pending()
    assert (await admin.refresh_requests())[0].processed
    other = sandbox.query("SELECT id FROM anonymization_requests WHERE id != ? LIMIT 1",
                          (status.id,))[0]["id"]
    assert (await admin.lookup_request(other)).id == other
    with pytest.raises(Refused, match="UUID"):
        await admin.lookup_request("12")

    conversation = sandbox.query("SELECT id FROM conversations WHERE state = 'Open' "
                                 "LIMIT 1")[0]["id"]
    offer = await admin.offer_rating(conversation, "Nps")
    statuses = await admin.rating_statuses(conversation)
    assert any(s.id == offer.id and s.rating_status == "Offered" for s in statuses)
    with pytest.raises(Refused, match=r"0 .* to 10"):
        await admin.submit_rating(conversation, offer.id, "Nps", "11")
    result = await admin.submit_rating(conversation, offer.id, "Nps", "9", "great")
    assert result.rating_result.value == 9
    old = await admin.rating_statuses_deprecated(conversation)
    assert any(s.id == offer.id and s.rating_status == "Rated" for s in old)
