"""The sandbox database's tables and indexes (an index per lookup), created when missing.
Times are ISO-8601 UTC text with milliseconds; lists and nested objects are JSON text."""

from __future__ import annotations

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- End users and agents/admins are both users: downgrading an agent keeps the id.
CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('enduser', 'agent')),
    created_at TEXT NOT NULL,
    display_name TEXT,
    email TEXT,
    phone_number TEXT,
    external_id TEXT,
    first_name TEXT,
    last_name TEXT,
    middle_names TEXT,
    additional_emails TEXT,
    additional_phone_numbers TEXT,
    avatar_url TEXT,
    roles TEXT,
    anonymized_at TEXT
);
CREATE INDEX IF NOT EXISTS users_kind_created ON users (kind, created_at, id);
CREATE INDEX IF NOT EXISTS users_email ON users (email COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS users_phone ON users (phone_number);
CREATE INDEX IF NOT EXISTS users_external ON users (external_id);

CREATE TABLE IF NOT EXISTS presence (
    user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    connection_status TEXT NOT NULL DEFAULT 'Offline',
    presence_status TEXT NOT NULL DEFAULT 'Away',
    last_seen TEXT,
    channels TEXT NOT NULL DEFAULT '[]'
);

CREATE TABLE IF NOT EXISTS teams (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS team_members (
    team_id TEXT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    agent_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    added_at TEXT NOT NULL,
    PRIMARY KEY (team_id, agent_id)
);
CREATE INDEX IF NOT EXISTS team_members_agent ON team_members (agent_id);

CREATE TABLE IF NOT EXISTS queues (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    is_default INTEGER NOT NULL DEFAULT 0,
    settings TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS queue_members (
    queue_id TEXT NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
    agent_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    priority INTEGER,
    PRIMARY KEY (queue_id, agent_id)
);
CREATE INDEX IF NOT EXISTS queue_members_agent ON queue_members (agent_id);

CREATE TABLE IF NOT EXISTS conversations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    type TEXT NOT NULL,
    channel TEXT NOT NULL,
    requester_id TEXT NOT NULL REFERENCES users (id),
    created_at TEXT NOT NULL,
    direction TEXT,
    state TEXT NOT NULL,
    state_updated_at TEXT,
    assigned_agent_id TEXT REFERENCES users (id),
    assigned_at TEXT,
    queue_id TEXT REFERENCES queues (id),
    queued_at TEXT,
    followup_until TEXT,
    closed_at TEXT,
    last_activity_at TEXT,
    subject TEXT,
    to_email TEXT,
    from_email TEXT,
    integration_email TEXT,
    language TEXT,
    browser_info TEXT,
    from_number TEXT,
    to_number TEXT,
    link TEXT,
    external_id TEXT,
    anonymized_at TEXT,
    last_queue_id TEXT
);
CREATE INDEX IF NOT EXISTS conversations_requester ON conversations (requester_id, id);
CREATE INDEX IF NOT EXISTS conversations_agent ON conversations (assigned_agent_id, state);
CREATE INDEX IF NOT EXISTS conversations_queue ON conversations (queue_id, queued_at, id);
CREATE INDEX IF NOT EXISTS conversations_state ON conversations (state, followup_until);
CREATE INDEX IF NOT EXISTS conversations_activity ON conversations (last_activity_at);

CREATE TABLE IF NOT EXISTS messages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    author_id TEXT NOT NULL,
    external_id TEXT,
    created_at TEXT NOT NULL,
    direction TEXT NOT NULL,
    attributes TEXT NOT NULL,
    body_text TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS messages_conversation ON messages (conversation_id, seq);
CREATE UNIQUE INDEX IF NOT EXISTS messages_external
    ON messages (conversation_id, external_id) WHERE external_id IS NOT NULL;

CREATE TABLE IF NOT EXISTS tags (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    color TEXT,
    state TEXT NOT NULL DEFAULT 'Active' CHECK (state IN ('Active', 'Inactive')),
    created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS tags_name ON tags (name COLLATE NOCASE);
CREATE TABLE IF NOT EXISTS conversation_tags (
    conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    tag_id TEXT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    tagged_at TEXT NOT NULL,
    PRIMARY KEY (conversation_id, tag_id)
);
CREATE INDEX IF NOT EXISTS conversation_tags_tag ON conversation_tags (tag_id);

CREATE TABLE IF NOT EXISTS ratings (
    id TEXT PRIMARY KEY,
    conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL,
    agent_id TEXT,
    rating_type TEXT NOT NULL,
    offered_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'Offered',
    score INTEGER,
    comment TEXT,
    submitted_at TEXT,
    language TEXT
);
CREATE INDEX IF NOT EXISTS ratings_conversation ON ratings (conversation_id, offered_at);

CREATE TABLE IF NOT EXISTS custom_attribute_definitions (
    id TEXT PRIMARY KEY,
    entity_type TEXT NOT NULL CHECK (entity_type IN ('Contact', 'Conversation')),
    identifier TEXT NOT NULL,
    label TEXT NOT NULL,
    input_definition TEXT NOT NULL,
    description TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT,
    is_required INTEGER NOT NULL DEFAULT 0,
    is_archived INTEGER NOT NULL DEFAULT 0,
    is_deactivated INTEGER NOT NULL DEFAULT 0,
    position INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS custom_attribute_values (
    entity_type TEXT NOT NULL,
    entity_id TEXT NOT NULL,
    attribute_id TEXT NOT NULL REFERENCES custom_attribute_definitions (id) ON DELETE CASCADE,
    value TEXT NOT NULL,
    PRIMARY KEY (entity_type, entity_id, attribute_id)
);

CREATE TABLE IF NOT EXISTS contact_endpoints (
    key TEXT PRIMARY KEY,
    type TEXT NOT NULL CHECK (type IN ('EmailEndpoint', 'TelephonyEndpoint')),
    name TEXT,
    sender_override TEXT,
    functionality TEXT,
    legacy_id TEXT NOT NULL UNIQUE,
    internal_email_address TEXT,
    position INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS schedules (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    timezone TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS schedule_entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    schedule_id TEXT NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('Regular', 'Exception', 'Holiday')),
    name TEXT NOT NULL,
    day_of_week INTEGER,
    status TEXT NOT NULL CHECK (status IN ('Open', 'Closed')),
    intervals TEXT NOT NULL DEFAULT '[]',
    start_date TEXT NOT NULL,
    recurring TEXT
);
CREATE INDEX IF NOT EXISTS schedule_entries_schedule ON schedule_entries (schedule_id, kind);

CREATE TABLE IF NOT EXISTS anonymization_requests (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL CHECK (type IN ('Conversation', 'Message', 'User')),
    target_entity_id TEXT NOT NULL,
    requested_by TEXT NOT NULL,
    initiated_at TEXT NOT NULL,
    processed_at TEXT
);
CREATE INDEX IF NOT EXISTS anonymization_pending
    ON anonymization_requests (processed_at, initiated_at);

-- Asynchronous work (bulk tagging, anonymisation): done by the worker when due.
CREATE TABLE IF NOT EXISTS jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    due_at TEXT NOT NULL,
    done_at TEXT
);
CREATE INDEX IF NOT EXISTS jobs_due ON jobs (done_at, due_at);

-- Webhook subscriptions, and every attempt to deliver an event to one (the delivery log).
CREATE TABLE IF NOT EXISTS webhooks (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    events TEXT NOT NULL DEFAULT '[]',
    authorization TEXT,
    custom_headers TEXT NOT NULL DEFAULT '{}',
    secret_key TEXT NOT NULL,
    enabled INTEGER NOT NULL DEFAULT 1,
    filters TEXT,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    updated_by TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS webhook_deliveries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event TEXT NOT NULL,
    event_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    delivered_at TEXT NOT NULL,
    success INTEGER NOT NULL,
    response_code INTEGER NOT NULL,
    response_text TEXT NOT NULL,
    payload TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_event
    ON webhook_deliveries (webhook_id, event, seq);

-- Internal notes of a conversation (never shown to the customer).
CREATE TABLE IF NOT EXISTS notes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    author_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    message TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS notes_conversation ON notes (conversation_id, created_at, seq);

-- What happened to conversations, recorded where the rules and routes change them.
CREATE TABLE IF NOT EXISTS activity_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    conversation_id INTEGER NOT NULL,
    at TEXT NOT NULL,
    type TEXT NOT NULL,
    author_id TEXT,
    attributes TEXT
);
CREATE INDEX IF NOT EXISTS activity_log_conversation ON activity_log (conversation_id, seq);

-- A child conversation names its parent in its link; the parent finds its children here.
CREATE INDEX IF NOT EXISTS conversations_parent
    ON conversations (json_extract(link, '$.parentId')) WHERE link IS NOT NULL;

-- Conversation flows: how conversations arriving at a contact endpoint are routed.
CREATE TABLE IF NOT EXISTS flows (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    channel TEXT NOT NULL,
    contact_endpoint_id TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS flows_channel ON flows (channel, position);

-- Templates: quick responses and email auto-replies, with their translations (JSON).
CREATE TABLE IF NOT EXISTS templates (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL CHECK (type IN ('EmailAutoReply', 'QuickResponse')),
    name TEXT NOT NULL,
    content TEXT NOT NULL,
    subject TEXT,
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_edited_by TEXT,
    last_edited_at TEXT,
    translations TEXT
);
CREATE INDEX IF NOT EXISTS templates_type ON templates (type, created_at, id);
CREATE INDEX IF NOT EXISTS templates_created ON templates (created_at, id);

-- Knowledge: collections hold categories (which nest); articles sit in a category, at a
-- collection's top or nowhere; each article has per language a draft and a published version.
CREATE TABLE IF NOT EXISTS knowledge_collections (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    description TEXT,
    internal INTEGER NOT NULL DEFAULT 0,
    position INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS knowledge_categories (
    id TEXT PRIMARY KEY,
    collection_id TEXT NOT NULL,
    parent_id TEXT,
    titles TEXT NOT NULL,
    is_locked INTEGER NOT NULL DEFAULT 0,
    position INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS knowledge_categories_collection
    ON knowledge_categories (collection_id, position);
CREATE TABLE IF NOT EXISTS knowledge_articles (
    id TEXT PRIMARY KEY,
    collection_id TEXT,
    category_id TEXT,
    tags TEXT NOT NULL DEFAULT '[]',
    pre_release INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    updated_by TEXT NOT NULL,
    owned_by TEXT NOT NULL,
    indexed_at TEXT,
    indexed_by TEXT
);
CREATE INDEX IF NOT EXISTS knowledge_articles_collection
    ON knowledge_articles (collection_id, category_id);
CREATE TABLE IF NOT EXISTS knowledge_translations (
    article_id TEXT NOT NULL,
    language TEXT NOT NULL,
    version TEXT NOT NULL CHECK (version IN ('draft', 'published')),
    title TEXT NOT NULL,
    html TEXT NOT NULL,
    plaintext TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    updated_by TEXT NOT NULL,
    PRIMARY KEY (article_id, language, version)
);

-- Attachments sent as data: URLs, copied into the sandbox and served at /files/{id}.
CREATE TABLE IF NOT EXISTS attachments (
    id TEXT PRIMARY KEY,
    content_type TEXT NOT NULL,
    data BLOB NOT NULL,
    name TEXT,
    created_at TEXT NOT NULL
);
"""
