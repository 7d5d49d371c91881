"""The demo organisation: deterministic, complete (every channel and state), consistent with
the contract, fast to build; the empty organisation keeps only its fixed parts."""

from __future__ import annotations

import random
import re
import sqlite3
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from frontdesk.api import models
from frontdesk.sandbox import shapes
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.db import Database, dumps, loads
from frontdesk.sandbox.records import message_text
from frontdesk.sandbox.seed import (
    ADMIN_EMAIL,
    CHANNELS,
    DEMO_AGENT_EMAIL,
    bulk_messages,
    ensure_seeded,
    large,
    summary,
)
from frontdesk.sandbox.seed.state import Person

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
NOW_ISO = "2026-01-05T09:00:00.000Z"
# Control characters (but newline), ESC, the 8-bit CSI and the right-to-left override.
HOSTILE = re.compile("[\x00-\x09\x0b-\x1f\x7f\x9b\u202e]")

def one(db: Database, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Row:
    """The first row of a query, which must exist."""
    row = db.one(sql, params)
    assert row is not None, sql
    return row


def _seed(path: Path, **options: Any) -> float:
    started = time.perf_counter()
    ensure_seeded(path, now=NOW, **options)
    return time.perf_counter() - started


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    """The small demo organisation with seed 7, open for reading."""
    path = tmp_path_factory.mktemp("seed") / "demo.db"
    elapsed = _seed(path, seed=7)
    print(f"\nsmall seed: {elapsed:.2f} s")
    db = Database(path)
    yield db
    db.close()


def _rows(db: Database, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    return [dict(r) for r in db.all(sql, params)]


def test_same_seed_and_now_give_the_same_rows(tmp_path: Path) -> None:
    first, second, other = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "c.db"
    timings = [_seed(first, seed=3), _seed(second, seed=3), _seed(other, seed=4)]
    print(f"\nsmall seed timings: {', '.join(f'{t:.2f} s' for t in timings)}")
    assert summary(first) == summary(second)
    query = "SELECT * FROM conversations ORDER BY id LIMIT 10"
    with_a, with_b, with_c = Database(first), Database(second), Database(other)
    try:
        assert _rows(with_a, query) == _rows(with_b, query)
        assert _rows(with_a, "SELECT * FROM messages ORDER BY seq LIMIT 50") == \
            _rows(with_b, "SELECT * FROM messages ORDER BY seq LIMIT 50")
        assert _rows(with_a, query) != _rows(with_c, query)
        # the fixed parts are the same in every organisation
        fixed = "SELECT * FROM custom_attribute_definitions ORDER BY id"
        assert _rows(with_a, fixed) == _rows(with_c, fixed)
    finally:
        for db in (with_a, with_b, with_c):
            db.close()


def test_seeding_twice_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "sandbox.db"
    _seed(path, seed=5)
    before = summary(path)
    db = Database(path)
    first = _rows(db, "SELECT * FROM conversations ORDER BY id LIMIT 10")
    db.close()
    ensure_seeded(path, seed=6, now=datetime(2027, 1, 1, tzinfo=UTC))
    ensure_seeded(path, seed=None, empty=True)
    assert summary(path) == before
    db = Database(path)
    try:
        assert _rows(db, "SELECT * FROM conversations ORDER BY id LIMIT 10") == first
        assert db.get_meta("seeded") == "5"
    finally:
        db.close()


def test_counts_of_the_small_organisation(demo_db: Database) -> None:
    counts = summary(demo_db)
    assert counts["conversations"] == 1000
    assert counts["tags"] == 40
    assert counts["teams"] == 4
    assert counts["queues"] == 5
    assert counts["contact_endpoints"] == 5
    assert counts["schedules"] == 3
    assert counts["messages"] > 3000
    assert counts["ratings"] > 0
    assert counts["anonymization_requests"] >= 3
    kinds = {r["kind"]: r["n"] for r in demo_db.all(
        "SELECT kind, COUNT(*) AS n FROM users GROUP BY kind")}
    assert kinds["enduser"] == 200
    assert 20 <= kinds["agent"] <= 30
    assert one(demo_db, "SELECT COUNT(*) AS n FROM queues WHERE is_default = 1")["n"] == 1
    assert demo_db.get_meta("chat_channels") is None


def test_every_channel_in_every_state(demo_db: Database) -> None:
    seen = {(r["channel"], r["kind"]) for r in demo_db.all(
        "SELECT channel, CASE WHEN state = 'Open' AND queue_id IS NOT NULL THEN 'queued' "
        "WHEN state = 'Open' THEN 'assigned' ELSE state END AS kind FROM conversations "
        "WHERE type != 'AnonymizedConversation'")}
    for channel in CHANNELS:
        for kind in ("queued", "assigned", "Pending", "AwaitingPending", "Closed"):
            assert (channel, kind) in seen, (channel, kind)
    per_state = {r["state"]: r["n"] for r in demo_db.all(
        "SELECT state, COUNT(*) AS n FROM conversations GROUP BY state")}
    print(f"\nconversations per state: {per_state}")
    per_channel = {r["channel"]: r["n"] for r in demo_db.all(
        "SELECT channel, COUNT(*) AS n FROM conversations GROUP BY channel")}
    print(f"conversations per channel: {per_channel}")


def test_state_columns_are_consistent(demo_db: Database) -> None:
    rows = demo_db.all("SELECT * FROM conversations")
    for row in rows:
        assert not (row["queue_id"] and row["assigned_agent_id"]), row["id"]
        assert row["created_at"] <= NOW_ISO and row["last_activity_at"] <= NOW_ISO
        if row["state"] == "Closed":
            assert row["queue_id"] is None and row["closed_at"] is not None
            assert row["closed_at"] <= NOW_ISO
        elif row["state"] == "Pending":
            assert row["followup_until"] > NOW_ISO
        if row["queue_id"] is not None:
            assert row["queued_at"] is not None and row["state"] == "Open"
        if row["assigned_agent_id"] is not None:
            assert row["assigned_at"] is not None
    orphans = demo_db.all(
        "SELECT m.id FROM messages m LEFT JOIN users u ON u.id = m.author_id WHERE u.id IS NULL")
    assert orphans == []
    late = demo_db.all("SELECT id FROM messages WHERE created_at > ?", (NOW_ISO,))
    assert late == []
    links = demo_db.all("SELECT id, link FROM conversations WHERE link IS NOT NULL")
    assert links and all(loads(r["link"])["parentId"] < r["id"] for r in links)


def test_demo_agent_has_work_on_every_channel(demo_db: Database) -> None:
    agent = demo_db.one("SELECT * FROM users WHERE email = ?", (DEMO_AGENT_EMAIL,))
    assert agent is not None and agent["kind"] == "agent"
    channels = {r["channel"] for r in demo_db.all(
        "SELECT channel FROM conversations WHERE assigned_agent_id = ? AND state = 'Open'",
        (agent["id"],))}
    assert channels == set(CHANNELS)
    presence = demo_db.one("SELECT * FROM presence WHERE user_id = ?", (agent["id"],))
    assert presence is not None and presence["connection_status"] == "Online"
    assert one(demo_db, "SELECT COUNT(*) AS n FROM team_members WHERE agent_id = ?",
                       (agent["id"],))["n"] >= 1


def test_threads_long_and_short(demo_db: Database) -> None:
    lengths = [r["n"] for r in demo_db.all(
        "SELECT COUNT(*) AS n FROM messages GROUP BY conversation_id")]
    assert len(lengths) == 1000
    assert min(lengths) == 1 and max(lengths) == 300
    assert sorted(lengths)[len(lengths) // 2] <= 8  # most are short


def test_message_bodies_use_every_markdown_construct_and_html(demo_db: Database) -> None:
    markdown = "\n".join(
        r["value"] for r in demo_db.all(
            "SELECT json_extract(attributes, '$.content.value') AS value FROM messages "
            "WHERE json_extract(attributes, '$.content._type') = 'Markdown'"))
    for construct in (r"\*\*\*[^*]+\*\*\*", r"(?<!\*)\*\*[^*]+\*\*(?!\*)", r"\b_[^_]+_\b",
                      r"~~[^~]+~~", r"(?m)^> ", r"(?m)^1\. ", r"(?m)^- ", r"`[^`]+`"):
        assert re.search(construct, markdown), construct
    kinds = {r["kind"] for r in demo_db.all(
        "SELECT DISTINCT json_extract(attributes, '$._type') AS kind FROM messages")}
    assert {"EmailAttributes", "ContactFormAttributes", "ChatAttributes", "WhatsAppAttributes",
            "SmsAttributes", "PhoneAttributes"} <= kinds
    html = demo_db.one(
        "SELECT COUNT(*) AS n FROM messages WHERE "
        "json_extract(attributes, '$.emailContent.content._type') = 'Html'")
    assert html is not None and html["n"] > 100
    attachments = demo_db.one(
        "SELECT COUNT(*) AS n FROM messages WHERE json_array_length(attributes, "
        "'$.attachments') > 0")
    assert attachments is not None and attachments["n"] > 10
    forms = {r["kind"] for r in demo_db.all(
        "SELECT DISTINCT json_extract(m.attributes, '$._type') AS kind FROM messages m "
        "JOIN conversations c ON c.id = m.conversation_id WHERE c.channel = 'ContactForm'")}
    assert forms == {"EmailAttributes", "ContactFormAttributes"}


def test_text_has_non_ascii_but_nothing_hostile(demo_db: Database) -> None:
    texts = [str(v) for r in demo_db.all(
        "SELECT display_name AS a, email AS b, NULL AS c FROM users UNION ALL "
        "SELECT subject, NULL, NULL FROM conversations UNION ALL "
        "SELECT name, color, NULL FROM tags UNION ALL "
        "SELECT attributes, body_text, NULL FROM messages") for v in tuple(r) if v is not None]
    joined = "\n".join(texts)
    for word in ("Ærø", "José", "東京"):
        assert word in joined
    assert not HOSTILE.search(joined)


def test_records_match_the_contract(demo_db: Database) -> None:
    ctx = SandboxContext(db=demo_db, clock=ManualClock(NOW))
    for row in demo_db.all("SELECT * FROM conversations"):
        models.Conversation.model_validate(shapes.conversation(ctx, row))
    # PhoneAttributes carry ``from``/``to`` as numbers (text), which the flat
    # MessageAttributes model does not take yet: checked by shape below instead.
    for row in demo_db.all("SELECT * FROM messages WHERE json_extract(attributes, '$._type') "
                           "!= 'PhoneAttributes' ORDER BY seq LIMIT 4000"):
        message = models.Message.model_validate(shapes.message(row))
        assert message.attributes.direction in ("Inbound", "Outbound")
    for row in demo_db.all("SELECT attributes FROM messages WHERE json_extract(attributes, "
                           "'$._type') = 'PhoneAttributes'"):
        phone = loads(row["attributes"])
        assert set(phone) == {"_type", "from", "to", "direction", "duration"}
        assert isinstance(phone["duration"], int)
    for row in demo_db.all("SELECT * FROM users WHERE kind = 'enduser'"):
        models.EndUser.model_validate(shapes.enduser(ctx, row))
    for row in demo_db.all("SELECT * FROM users WHERE kind = 'agent'"):
        models.Agent.model_validate(shapes.agent(row))
    for row in demo_db.all("SELECT * FROM presence"):
        models.UserPresence.model_validate(shapes.presence(row, NOW_ISO))
    for row in demo_db.all("SELECT * FROM tags"):
        models.Tag.model_validate(shapes.tag(row))


def test_custom_attribute_values_follow_their_definitions(demo_db: Database) -> None:
    definitions = {r["id"]: r for r in demo_db.all("SELECT * FROM custom_attribute_definitions")}

    def paths(options: list[dict[str, Any]], prefix: tuple[str, ...] = ()
              ) -> set[tuple[str, ...]]:
        out: set[tuple[str, ...]] = set()
        for option in options:
            path = (*prefix, option["value"])
            out.add(path)
            out |= paths(option["nestedOptions"], path)
        return out

    rows = demo_db.all("SELECT * FROM custom_attribute_values")
    assert {r["entity_type"] for r in rows} == {"Contact", "Conversation"}
    for row in rows:
        definition = definitions[row["attribute_id"]]
        assert definition["entity_type"] == row["entity_type"]
        assert not definition["is_archived"]
        value = loads(row["value"])
        kind = loads(definition["input_definition"])
        if kind["_type"] == "Select":
            assert tuple(value) in paths(kind["options"])
        else:
            assert isinstance(value, str)


def test_ratings_and_anonymisations(demo_db: Database) -> None:
    statuses = {r["status"] for r in demo_db.all("SELECT status FROM ratings")}
    assert statuses == {"Offered", "Rated"}
    for row in demo_db.all("SELECT * FROM ratings"):
        conversation = demo_db.one("SELECT * FROM conversations WHERE id = ?",
                                   (row["conversation_id"],))
        assert conversation is not None and conversation["state"] == "Closed"
        assert row["offered_at"] <= NOW_ISO
        if row["status"] == "Rated":
            assert row["score"] is not None and row["submitted_at"] <= NOW_ISO
    requests = demo_db.all("SELECT * FROM anonymization_requests")
    assert {r["type"] for r in requests} == {"Conversation", "Message", "User"}
    assert all(r["processed_at"] is not None for r in requests)
    for request in requests:
        if request["type"] == "Conversation":
            row = one(demo_db, "SELECT * FROM conversations WHERE id = ?",
                      (int(request["target_entity_id"]),))
            assert row["type"] == "AnonymizedConversation"
        if request["type"] == "User":
            row = one(demo_db, "SELECT * FROM users WHERE id = ?", (request["target_entity_id"],))
            assert row["anonymized_at"] and row["email"] is None


def test_the_empty_organisation(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    _seed(path, seed=None)
    counts = summary(path)
    nonempty = {name for name, n in counts.items() if n}
    assert nonempty == {"meta", "users", "presence", "contact_endpoints", "flows",
                        "custom_attribute_definitions", "schedules", "schedule_entries"}
    db = Database(path)
    try:
        admin = db.one("SELECT * FROM users")
        assert admin is not None and admin["email"] == ADMIN_EMAIL
        assert loads(admin["roles"]) == ["Admin"] and admin["kind"] == "agent"
        assert db.get_meta("api_user_id") == admin["id"]
        assert db.get_meta("organization_id")
        endpoints = db.all("SELECT * FROM contact_endpoints ORDER BY position")
        assert [r["type"] for r in endpoints].count("EmailEndpoint") == 3
        for row in endpoints:
            if row["type"] == "TelephonyEndpoint":
                assert re.fullmatch(r"\+[1-9]\d{6,14}", row["key"])
            else:
                assert row["internal_email_address"]
        zones = {r["timezone"] for r in db.all("SELECT timezone FROM schedules")}
        assert zones == {"Europe/Copenhagen", "America/New_York", "Asia/Tokyo"}
        kinds = {r["kind"] for r in db.all("SELECT kind FROM schedule_entries")}
        assert kinds == {"Regular", "Exception", "Holiday"}
        holiday = db.one("SELECT * FROM schedule_entries WHERE name = 'Christmas Day'")
        assert holiday is not None and holiday["status"] == "Closed"
        assert loads(holiday["recurring"]) == {"dayOfMonth": 25, "monthOfYear": 12}
        definitions = db.all("SELECT * FROM custom_attribute_definitions")
        assert {r["entity_type"] for r in definitions} == {"Contact", "Conversation"}
        assert sum(r["is_archived"] for r in definitions) == 1
        for row in definitions:
            models.InputDefinition.model_validate(loads(row["input_definition"]))
        product = loads(one(db, "SELECT input_definition FROM custom_attribute_definitions "
                               "WHERE identifier = 'product'")["input_definition"])
        nested = [o for top in product["options"] for o in top["nestedOptions"]]
        assert any(o["isDeactivated"] for o in nested)
        assert db.get_meta("seeded") == "empty"
    finally:
        db.close()
    # empty=True with a seed is the same organisation
    other = tmp_path / "empty2.db"
    _seed(other, seed=9, empty=True)
    assert summary(other) == counts


def test_the_large_organisation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The large scale's build at a twentieth of its size (its sizes are three constants,
    its rows made by the same code), written in several batches: every invariant of the
    full build (``make bench`` builds it whole: 101,001 conversations, ~1.05 million
    messages) holds."""
    assert (large.END_USERS, large.CONVERSATIONS, large.BIG_THREAD) == (
        10_000, 100_000, 10_000)  # the scale the benchmarks measure
    conversations, big_thread = 5_000, 1_000
    monkeypatch.setattr(large, "END_USERS", 500)
    monkeypatch.setattr(large, "CONVERSATIONS", conversations)
    monkeypatch.setattr(large, "BIG_THREAD", big_thread)
    monkeypatch.setattr(large, "BULK_BATCH", 20_000)  # a few batches, as in the full build
    path = tmp_path / "large.db"
    elapsed = _seed(path, seed=2, scale="large")
    print(f"\nlarge seed at 1/20: {elapsed:.1f} s")
    counts = summary(path)
    assert counts["conversations"] == 1000 + conversations + 1
    assert counts["messages"] >= 10 * conversations
    db = Database(path)
    try:
        assert one(db, "PRAGMA journal_mode")[0] == "wal"  # back to WAL after the build
        big = int(db.get_meta("big_thread_id") or 0)
        row = db.one("SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?", (big,))
        assert row is not None and row["n"] == big_thread
        # the short threads: varied lengths, ~10 messages on average
        short = one(db, "SELECT COUNT(*) AS threads, AVG(n) AS mean, MIN(n) AS low, "
                        "MAX(n) AS high FROM (SELECT COUNT(*) AS n FROM messages "
                        "WHERE conversation_id > 1000 AND conversation_id < ? "
                        "GROUP BY conversation_id)", (big,))
        assert short["threads"] == conversations
        assert 9 <= short["mean"] <= 11 and short["low"] == 1 and short["high"] == 60
        assert one(db, "SELECT COUNT(*) AS n FROM conversations WHERE queue_id IS NOT NULL "
                      "AND assigned_agent_id IS NOT NULL")["n"] == 0
        assert one(db, "SELECT MAX(created_at) AS t FROM messages")["t"] <= NOW_ISO
        assert one(db, "SELECT MAX(closed_at) AS t FROM conversations")["t"] <= NOW_ISO
        # within a thread (every short one here): times increase; customer and agent take
        # turns, the customer first; waiting threads hold the customer's lines only
        sample = ("FROM (SELECT m.*, c.queue_id, LAG(m.created_at) OVER w AS before, "
                  "LAG(m.direction) OVER w AS previous, ROW_NUMBER() OVER w AS place "
                  "FROM messages m JOIN conversations c ON c.id = m.conversation_id "
                  f"WHERE m.conversation_id BETWEEN 1001 AND {1000 + conversations} "
                  "WINDOW w AS (PARTITION BY m.conversation_id ORDER BY m.seq))")
        assert one(db, f"SELECT COUNT(*) AS n {sample} WHERE before >= created_at")["n"] == 0
        assert one(db, f"SELECT COUNT(*) AS n {sample} WHERE queue_id IS NULL AND "
                      "direction = previous")["n"] == 0
        assert one(db, f"SELECT COUNT(*) AS n {sample} WHERE direction != 'Inbound' AND "
                      "(place = 1 OR queue_id IS NOT NULL)")["n"] == 0
        # pending: the agent wrote last
        assert one(db, "SELECT COUNT(*) AS n FROM conversations c WHERE state = 'Pending' "
                      "AND id > 1000 AND (SELECT direction FROM messages WHERE "
                      "conversation_id = c.id ORDER BY seq DESC LIMIT 1) != 'Outbound'"
                   )["n"] == 0
        # what the service sends, on every channel
        for row in db.all("SELECT m.* FROM messages m JOIN conversations c "
                          "ON c.id = m.conversation_id WHERE m.conversation_id > 1000 AND "
                          "c.channel != 'PstnPhone' ORDER BY m.seq LIMIT 3000"):
            model = models.Message.model_validate(shapes.message(row))
            assert model.attributes.direction == row["direction"]
        for row in db.all("SELECT attributes, direction, body_text FROM messages WHERE "
                          "conversation_id > 1000 AND json_extract(attributes, '$._type') = "
                          "'PhoneAttributes' LIMIT 500"):
            phone = loads(row["attributes"])
            ours = phone["from"] if row["direction"] == "Outbound" else phone["to"]
            assert ours == "+4570201234" and row["body_text"] == ""
    finally:
        db.close()


def test_the_large_scale_helpers_match_the_generic_encoding() -> None:
    """The large scale's shortcuts (UUID text, e-mail attributes spliced around a body
    encoded once) give what ``uuid`` and ``dumps`` give."""
    rng = random.Random(5)
    for _ in range(2000):
        bits = rng.getrandbits(128)
        assert bulk_messages.fast_uuid(bits) == str(uuid.UUID(int=bits, version=4))
    person = Person("u1", "Zoë", 'Zoë "Ærø" Østergård', "zoe@example.com", "+4512345678")
    lines = ["Hej, what's the status of ORD-12345?", "Tak — 東京 <ok> & \\ \"quoted\""]
    htmls = ["<p>A & B</p>", "<p>東京</p>"]
    bodies = bulk_messages.BulkBodies(random.Random(1), lines, lines, htmls)
    for channel in ("Email", "ContactForm", "WidgetChat", "WhatsApp", "Sms", "PstnPhone"):
        for subject in ("Order ORD-1 — \"late\"", None):
            thread = bodies.thread(channel, person, subject)
            for outbound in (False, True, False, True):
                stored, body = thread(outbound)
                attributes = loads(stored)
                assert stored == dumps(attributes)
                assert body == message_text(attributes)
                assert attributes["direction"] == ("Outbound" if outbound else "Inbound")
                if channel in ("Email", "ContactForm"):
                    value = attributes["emailContent"]["content"]["value"]
                    assert stored == dumps(bulk_messages._email_attributes(person, subject,
                                                                        outbound, value))


def test_each_conversations_history_follows_its_life(demo_db: Database) -> None:
    """The log holds what each seeded conversation went through, in order: its creation
    first, a claim when an agent took a customer's conversation, every message, its tags, a
    follow-up, its close, a rating offered and given."""
    from frontdesk.sandbox import activity

    ctx = SandboxContext(db=demo_db, clock=ManualClock(NOW))
    log: dict[int, list[sqlite3.Row]] = {}
    for row in demo_db.all("SELECT * FROM activity_log ORDER BY seq"):
        log.setdefault(int(row["conversation_id"]), []).append(row)
    people: dict[str, Any] = {}
    seqs = [r["seq"] for rows in log.values() for r in rows]
    times = [r["at"] for r in sorted((r for rows in log.values() for r in rows),
                                      key=lambda r: r["seq"])]
    assert len(seqs) > 12_000
    assert times[:-50] == sorted(times[:-50])  # in time order (the anonymisations come last)
    for row in demo_db.all("SELECT * FROM conversations WHERE type != 'AnonymizedConversation'"):
        entries = log[int(row["id"])]
        kinds = [e["type"] for e in entries]
        assert [e["at"] for e in entries] == sorted(e["at"] for e in entries)
        assert entries[0]["at"] == row["created_at"]
        assert kinds[0] == ("ConversationCreatedByAgent" if row["direction"] == "Outbound"
                            else "ConversationCreatedByCustomer")
        messages = demo_db.all("SELECT id, created_at, author_id FROM messages "
                               "WHERE conversation_id = ? ORDER BY seq", (row["id"],))
        added = [(loads(e["attributes"])["messageId"], e["at"], e["author_id"])
                 for e in entries if e["type"].startswith("MessageAdded")]
        assert added == [(m["id"], m["created_at"], m["author_id"]) for m in messages]
        claimed = [e for e in entries if e["type"] == "ConversationClaimed"]
        if row["assigned_agent_id"] and row["direction"] != "Outbound":
            assert [(e["at"], e["author_id"]) for e in claimed] == [
                (row["assigned_at"], row["assigned_agent_id"])]
        else:
            assert claimed == []
        closed = [e["at"] for e in entries if e["type"] == "ConversationClosed"]
        assert closed == ([row["closed_at"]] if row["state"] == "Closed" else [])
        assert ("FollowupAdded" in kinds) == (row["state"] == "Pending")
        tagged = demo_db.one("SELECT COUNT(*) AS n FROM conversation_tags "
                             "WHERE conversation_id = ?", (row["id"],))
        assert tagged is not None and kinds.count("TagAdded") == tagged["n"]
        rated = demo_db.one("SELECT COUNT(*) AS n FROM ratings WHERE conversation_id = ? "
                            "AND status = 'Rated'", (row["id"],))
        assert rated is not None and kinds.count("ConversationRated") == rated["n"]
        for entry in entries[:3]:
            models.ActivityLogEntry.model_validate(activity.entry(ctx, entry, people))
