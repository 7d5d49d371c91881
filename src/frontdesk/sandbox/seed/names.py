"""Names the demo organisation is built from: the console's demo agent, the admin,
the conversation channels and states, and the columns the seed writes."""

from __future__ import annotations

from .. import demo_text as text

DEMO_AGENT_EMAIL = "demo.agent@" + text.DOMAIN
"""The agent the console signs in as in the demo; the simulator leaves their work alone."""
ADMIN_EMAIL = "admin@" + text.DOMAIN

#: Channels of the demo conversations and their conversation ``_type``.
CONVERSATION_TYPES = {
    "Email": "EmailConversation",
    "ContactForm": "ContactFormConversation",
    "WidgetChat": "ChatConversation",
    "WhatsApp": "WhatsAppConversation",
    "Sms": "SmsConversation",
    "PstnPhone": "PstnPhoneConversation",
}
CHANNELS = tuple(CONVERSATION_TYPES)
STATES = ("Open", "Pending", "AwaitingPending", "Closed")
WORKING_CHANNELS = ("Email", "InteractiveChat", "Messaging", "Speak")

CONVERSATION_COLUMNS = (
    "id", "type", "channel", "requester_id", "created_at", "direction", "state",
    "state_updated_at", "assigned_agent_id", "assigned_at", "queue_id", "queued_at",
    "followup_until", "closed_at", "last_activity_at", "subject", "to_email", "from_email",
    "integration_email", "language", "browser_info", "from_number", "to_number", "link",
    "external_id", "anonymized_at", "last_queue_id",
)
MESSAGE_COLUMNS = ("id", "conversation_id", "author_id", "external_id", "created_at",
                   "direction", "attributes", "body_text")

