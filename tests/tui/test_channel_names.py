"""One display name per channel on every screen, however the service names it."""

from __future__ import annotations

from datetime import UTC, datetime

from frontdesk.api.models import UserPresence
from frontdesk.channels import BOT_CHANNELS, CHANNEL_NAMES
from frontdesk.store.session import describe_presence
from frontdesk.tui.screens.people import agents as people_agents
from frontdesk.tui.screens.team import team
from frontdesk.tui.widgets import conversation_cells, message_view, thread_head


def test_a_chat_is_chat_everywhere() -> None:
    assert conversation_cells.channel_label("WidgetChat") == "💬 Chat"
    assert thread_head.channel_label("WidgetChat") == "Chat"
    assert message_view.channel_name("ChatAttributes") == "Chat"
    assert team.channel_label("InteractiveChat") == "Chat"
    presence = UserPresence.model_validate({
        "userId": "00000000-0000-4000-8000-000000000001", "connectionStatus": "Online",
        "presenceStatus": "Working", "activeChannels": ["Email", "InteractiveChat"],
        "lastSeen": datetime(2026, 1, 5, 9, 0, tzinfo=UTC).isoformat(),
        "requestTime": datetime(2026, 1, 5, 9, 0, tzinfo=UTC).isoformat()})
    assert describe_presence(presence) == "● Working · Email, Chat"
    assert people_agents.presence_text(presence) == "● Working · Email, Chat"
    assert people_agents.presence_cell(presence).plain == "● Working · Email Chat"


def test_every_known_channel_has_one_name_that_fits_the_inbox_column() -> None:
    for channel in CHANNEL_NAMES.keys() - BOT_CHANNELS:
        label = conversation_cells.channel_label(channel)
        assert conversation_cells.fit(label, 9).rstrip() == label, channel
    for channel in ("Sms", "PstnPhone", "ContactForm", "FacebookMessenger", "Voicemail"):
        assert thread_head.channel_label(channel) in conversation_cells.channel_label(channel)


def test_rows_of_calls_say_so_rather_than_nothing() -> None:
    from frontdesk.store.replies import SILENT_CHANNELS

    assert conversation_cells.silent_text("PstnPhone") == "Phone call, no messages"
    assert conversation_cells.silent_text("Voicemail") == "Voicemail, no messages"
    assert SILENT_CHANNELS == {"Callback": "Callback", "PstnPhone": "Phone",
                               "Twitter": "Twitter", "Voicemail": "Voicemail"}


def test_the_head_names_the_customers_address_not_ours() -> None:
    from frontdesk.api.models import Conversation

    def record(direction: str) -> Conversation:
        return Conversation.model_validate({
            "id": 7, "_type": "EmailConversation", "channel": "Email", "direction": direction,
            "requesterId": "00000000-0000-4000-8000-000000000002",
            "createdAt": "2026-01-05T09:00:00.000Z",
            "fromEmail": "ours@acme.example" if direction == "Outbound" else "ann@example.org",
            "toEmail": "ann@example.org" if direction == "Outbound" else "ours@acme.example"})

    assert thread_head.customer_contact(record("Outbound"))[0] == "ann@example.org"
    assert thread_head.customer_contact(record("Inbound"))[0] == "ann@example.org"
