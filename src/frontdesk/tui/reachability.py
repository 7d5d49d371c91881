"""Every operation of the service, and how a person reaches it in the console.

For each key of :data:`frontdesk.api.OPERATIONS` one of:

* :class:`Reach` — a key (binding id) or a palette command of a screen of this package, named
  by its class; tests/tui/test_reachability.py checks that the class declares that binding or
  lists that palette title;
* :class:`Elsewhere` — a mode whose screen another part of the console owns, and what to press
  there (as the design describes it);
* :class:`NotDirect` — a one-line reason a person would not use the operation directly.

Deprecated operations stay reachable (a :class:`Reach`) and say "deprecated" where a person
sees them. The table is written by client method name and keyed by ``(METHOD, path)`` through
:func:`frontdesk.api.operations.operation`, so a renamed operation breaks it at import.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..api.operations import operation

__all__ = ["REACHABILITY", "Elsewhere", "NotDirect", "Reach", "Way"]

PEOPLE = "frontdesk.tui.screens.people.people:PeopleScreen"
PROFILE = "frontdesk.tui.screens.people.profile:EndUserProfileScreen"
ADMIN = "frontdesk.tui.screens.admin.admin:AdminScreen"
RATINGS = "frontdesk.tui.screens.inbox.ratings:RatingsScreen"
ATTRIBUTES = "frontdesk.tui.screens.shared.attributes_panel:AttributesPanel"
APP = "frontdesk.tui.app:FrontdeskApp"
THREAD = "frontdesk.tui.screens.inbox.thread:ThreadScreen"
COMPOSER = "frontdesk.tui.widgets.composer:Composer"
ARTICLE = "frontdesk.tui.screens.admin.article:ArticleScreen"
EDITOR = "frontdesk.tui.screens.admin.article_editor:ArticleEditor"
STATS = "frontdesk.tui.screens.stats.stats:StatsScreen"
TEAM = "frontdesk.tui.screens.team.team:TeamScreen"
INBOX = "frontdesk.tui.screens.inbox.inbox:InboxScreen"


@dataclass(frozen=True)
class Reach:
    """A key (``key``: a binding id) or a palette command (``palette``: its title) of the
    screen class ``screen`` (``"module:Class"``); ``note`` says where, for a person."""

    screen: str
    key: str | None = None
    palette: str | None = None
    note: str = ""


@dataclass(frozen=True)
class Elsewhere:
    """A mode whose screen another part of the console owns, and what to press there."""

    mode: str
    how: str


@dataclass(frozen=True)
class NotDirect:
    """Why a person would not use the operation directly."""

    reason: str


Way = Reach | Elsewhere | NotDirect

_BY_NAME: dict[str, Way] = {
    # -- anonymisation
    "anonymization.anonymize_conversation": Reach(
        ADMIN, palette="Anonymisation: anonymize a conversation",
        note="Admin → Anonymisation (id typed back, can close it first)"),
    "anonymization.anonymize_message": Elsewhere("Thread", "A anonymizes the focused message"),
    "anonymization.anonymize_enduser": Reach(
        PEOPLE, key="people.users.anonymize",
        note="People → End users, a (id typed back; offers to close open conversations)"),
    "anonymization.get_request": Reach(
        ADMIN, key="admin.anonymization.lookup",
        note="Admin → Anonymisation, g (any request by id); requests made here are followed "
             "live"),
    "anonymization.anonymize_deprecated": Reach(
        ADMIN, palette="Anonymize via the deprecated interface (deprecated)",
        note="deprecated; palette only, id typed back"),
    # -- conversations (the inbox and the thread)
    "conversations.close": Elsewhere("Inbox / Thread", "x closes (X without asking)"),
    "conversations.create": Elsewhere("Inbox", "n starts a new conversation"),
    "conversations.import_conversation": Elsewhere(
        "Inbox", "n, then import a conversation with its history"),
    "conversations.followup": Elsewhere("Inbox / Thread", "f follows up (1 h, 4 h, tomorrow, "
                                        "a typed time)"),
    "conversations.transfer": Elsewhere("Inbox / Thread", "T transfers to a queue"),
    "conversations.claim": Elsewhere("Inbox / Thread", "c claims (C takes it over)"),
    "conversations.get": Elsewhere("Inbox", "enter opens a thread; o opens one by id"),
    "conversations.reopen": Elsewhere("Inbox / Thread", "R reopens"),
    "custom_attributes.patch_conversation": Reach(
        ATTRIBUTES, key="attributes.save",
        note="Thread → a (custom attributes panel), ctrl+s"),
    # -- messages
    "messages.list": Elsewhere("Thread", "opening a thread; older messages load on scroll"),
    "messages.add": Elsewhere("Thread", "i writes a reply, ctrl+s sends it (via the outbox)"),
    # -- end users
    "endusers.create": Reach(PEOPLE, key="people.users.new", note="People → End users, n"),
    "endusers.get": Reach(PEOPLE, key="people.users.find",
                          note="People → End users, / by id (and every profile)"),
    "endusers.list": Reach(PEOPLE, key="people.users.find",
                           note="People → End users: the list, and / by email, phone or "
                                "external id"),
    "endusers.conversations": Reach(PROFILE, key="profile.more",
                                    note="People → End users, enter (the profile); m loads "
                                         "more"),
    "endusers.update": Reach(PEOPLE, key="people.users.edit",
                             note="People → End users, e (full update; what the form does "
                                  "not show is kept)"),
    "endusers.patch": Reach(PEOPLE, key="people.users.patch",
                            note="People → End users, E (only the edited fields; and u in "
                                 "a profile)"),
    "endusers.bulk_create": Reach(PEOPLE, key="people.users.bulk",
                                  note="People → End users, b (CSV lines without an id; a "
                                       "per-row report)"),
    "endusers.bulk_patch": Reach(PEOPLE, key="people.users.bulk",
                                 note="People → End users, b (CSV lines with an id: their "
                                      "non-empty cells)"),
    "endusers.bulk_update": NotDirect(
        "the CSV changes end users by patching the cells given (a full replacement of many "
        "at once would clear what a file leaves out); one full update is e in People"),
    "custom_attributes.patch_enduser": Reach(
        PROFILE, key="profile.attributes", note="People → End users → profile, e"),
    # -- ratings
    "ratings.offer": Reach(RATINGS, key="ratings.offer", note="Thread → ratings, o"),
    "ratings.submit": Reach(RATINGS, palette="Submit a rating result",
                            note="Thread → ratings, s or the palette (imports, testing)"),
    "ratings.list": Reach(RATINGS, key="ratings.refresh", note="Thread → ratings"),
    "ratings.list_deprecated": Reach(
        RATINGS, palette="Rating statuses via the deprecated path (deprecated)",
        note="deprecated path, kept reachable from the palette"),
    # -- tags
    "tags.list": Reach(ADMIN, key="admin.tags.inactive",
                       note="Admin → Tags (i adds deactivated ones)"),
    "tags.create": Reach(ADMIN, key="admin.tags.new", note="Admin → Tags, n"),
    "tags.get": Reach(ADMIN, key="admin.tags.toggle",
                      note="Admin → Tags: the tag is read again after space"),
    "tags.delete": Reach(ADMIN, key="admin.tags.delete", note="Admin → Tags, d (D)"),
    "tags.deactivate": Reach(ADMIN, key="admin.tags.toggle", note="Admin → Tags, space"),
    "tags.activate": Reach(ADMIN, key="admin.tags.toggle", note="Admin → Tags, space"),
    "tags.list_for_conversation": Elsewhere("Thread", "the tags in the thread's head"),
    "tags.tag_conversation": Elsewhere("Inbox / Thread", "t, the tag picker"),
    "tags.untag_conversation": Elsewhere("Inbox / Thread", "t, the tag picker"),
    "tags.bulk_tag_conversation": Elsewhere("Inbox / Thread", "B, tag by names (bulk)"),
    # -- agents
    "agents.list": Reach(PEOPLE, key="people.agents.filter",
                         note="People → Agents (the listing; / filters it)"),
    "agents.create": Reach(PEOPLE, key="people.agents.new", note="People → Agents, n"),
    "agents.bulk_update": NotDirect(
        "agents are edited one at a time from People (e); replacing many at once is a "
        "directory sync for scripts"),
    "agents.bulk_patch": NotDirect(
        "agents are changed one at a time from People (E); patching many at once is a "
        "directory sync for scripts"),
    "agents.bulk_create": Reach(PEOPLE, key="people.agents.bulk",
                                note="People → Agents, b (a CSV, per-row report)"),
    "agents.get": Reach(PEOPLE, key="people.agents.open", note="People → Agents, enter"),
    "agents.update": Reach(PEOPLE, key="people.agents.edit", note="People → Agents, e"),
    "agents.patch": Reach(PEOPLE, key="people.agents.patch", note="People → Agents, E"),
    "agents.downgrade": Reach(PEOPLE, key="people.agents.downgrade",
                              note="People → Agents, d (D without asking)"),
    "agents.teams": Reach(PEOPLE, key="people.agents.open",
                          note="People → Agents, enter (teams)"),
    "agents.list_presence": Reach(PEOPLE, key="people.reload",
                                  note="People → Agents, the presence column (and Team)"),
    "agents.presence": Reach(PEOPLE, key="people.agents.open",
                             note="People → Agents, enter (presence)"),
    "agents.set_working_channel": Reach(APP, key="app.presence",
                                        note="p anywhere: my working channels"),
    # -- teams
    "teams.list": Reach(ADMIN, key="admin.reload", note="Admin → Teams"),
    "teams.create": Reach(ADMIN, key="admin.teams.new", note="Admin → Teams, n"),
    "teams.get": NotDirect("the team list already carries all a team has (its id and name)"),
    "teams.delete": Reach(ADMIN, key="admin.teams.delete", note="Admin → Teams, d (D)"),
    "teams.members": Reach(ADMIN, key="admin.teams.members",
                           note="Admin → Teams: the highlighted team's members; m"),
    "teams.add_members": Reach(ADMIN, key="admin.teams.members",
                               note="Admin → Teams, m (tick several)"),
    "teams.remove_members": Reach(ADMIN, key="admin.teams.members",
                                  note="Admin → Teams, m (untick several)"),
    "teams.presence": Reach(ADMIN, key="admin.reload",
                            note="Admin → Teams: members' presence beside the list (and Team)"),
    # -- queues
    "queues.list": Reach(ADMIN, key="admin.reload", note="Admin → Queues (and Queues)"),
    "queues.create": Reach(ADMIN, key="admin.queues.new", note="Admin → Queues, n"),
    "queues.get": NotDirect("the queue list already carries every setting of a queue"),
    "queues.members": Reach(ADMIN, key="admin.queues.members",
                            note="Admin → Queues: members beside the list; m"),
    "queues.add_members": Reach(ADMIN, key="admin.queues.members",
                                note="Admin → Queues, m (tick several)"),
    "queues.remove_members": Reach(ADMIN, key="admin.queues.members",
                                   note="Admin → Queues, m (untick several)"),
    "queues.availability": Elsewhere("Queues", "each queue's availability on the chat "
                                     "channels"),
    "queues.conversation_position": Elsewhere("Queues", "queue position: type a conversation "
                                              "id"),
    # -- custom attributes
    "custom_attributes.list": Reach(ADMIN, key="admin.reload",
                                    note="Admin → Custom attributes (and every attributes "
                                         "panel)"),
    "custom_attributes.get": Reach(ADMIN, key="admin.attributes.open",
                                   note="Admin → Custom attributes, enter"),
    # -- contact endpoints and the deprecated listing
    "contact_endpoints.list": Reach(ADMIN, key="admin.reload", note="Admin → Contact endpoints"),
    "contact_endpoints.get": Reach(ADMIN, key="admin.endpoints.open",
                                   note="Admin → Contact endpoints, enter"),
    "integrations.list_endpoints": Reach(
        ADMIN, palette="Contact endpoints: list and read (and the deprecated listing)",
        note="deprecated listing under Admin → Contact endpoints, when an integrations URL "
             "is configured"),
    "integrations.get_endpoint": Reach(
        ADMIN, key="admin.endpoints.open",
        note="deprecated: enter on a row of the deprecated listing (integrations URL "
             "configured)"),
    # -- business hours
    "business_hours.list_schedules": Reach(ADMIN, key="admin.reload",
                                           note="Admin → Business hours"),
    "business_hours.definition": Reach(ADMIN, key="admin.reload",
                                       note="Admin → Business hours: the highlighted schedule"),
    "business_hours.upcoming": Reach(ADMIN, key="admin.hours.more",
                                     note="Admin → Business hours: the calendar, + / -"),
    "business_hours.status": Reach(ADMIN, key="admin.hours.at",
                                   note="Admin → Business hours: now, and a (open at a time); "
                                        "the header"),
    # -- templates, the organisation and its flows
    "templates.list": Reach(THREAD, key="thread.quick_response",
                            note="Thread, ctrl+o: the quick-response picker (and Admin → "
                                 "Quick responses: every template)"),
    "templates.delete": Reach(ADMIN, key="admin.templates.delete",
                              note="Admin → Quick responses, d (D without asking)"),
    "organization.get": Reach(ADMIN, palette="Organisation: name, id and status",
                              note="Admin → Organisation"),
    "flows.list": Reach(ADMIN, palette="Flows: every conversation flow",
                        note="Admin → Flows (every channel's)"),
    # -- internal notes, history and linked conversations (the thread)
    "notes.list": Reach(THREAD, key="thread.refresh",
                        note="Thread: notes shown among the messages, by time (r reads them "
                             "again)"),
    "notes.add": Reach(COMPOSER, key="composer.mode",
                       note="Thread → i, ctrl+n (Note), ctrl+s: through the outbox"),
    "notes.bulk_add": NotDirect("several notes at once is for imports: the console writes "
                                "one note at a time"),
    "activity_log.for_conversation": Reach(THREAD, key="thread.history",
                                           note="Thread → h (the conversation's history)"),
    "activity_log.list": Reach(TEAM, key="team.activity",
                               note="Team → a, or the palette: the organisation's activity, "
                                    "filtered as you type"),
    "links.link": Reach(THREAD, key="thread.link_parent",
                        note="Thread → L (the parent's number; errors in one line)"),
    "links.linked": Reach(THREAD, key="thread.linked",
                          note="Thread: the head shows parent and children; l opens one"),
    # -- search
    "search.conversations": Elsewhere("Inbox", "s searches the service by text"),
    "search.conversations_by_text": Reach(
        INBOX, palette="Search by text via the deprecated path (deprecated)",
        note="deprecated search by text, kept reachable from the inbox's palette"),
    # -- webhooks
    "webhooks.list": Reach(ADMIN, palette="Webhooks: new webhook",
                           note="Admin → Webhooks lists every subscription (r reloads)"),
    "webhooks.create": Reach(ADMIN, key="admin.webhooks.new",
                             note="Admin → Webhooks, n (a form, then the events picker)"),
    "webhooks.get": NotDirect("the webhook list already carries all a subscription has"),
    "webhooks.update": Reach(ADMIN, key="admin.webhooks.edit",
                             note="Admin → Webhooks: e edits, v events, space on/off"),
    "webhooks.delete": Reach(ADMIN, key="admin.webhooks.delete",
                             note="Admin → Webhooks, d (asks; D without asking)"),
    "webhooks.delivery_status": Reach(ADMIN, key="admin.webhooks.toggle",
                                      note="Admin → Webhooks: the highlighted webhook's last "
                                           "delivery of each event, beside the list"),
    "webhooks.delivery_log": Reach(ADMIN, key="admin.webhooks.log",
                                   note="Admin → Webhooks, l (or enter) on an event"),
    # -- analytics
    "analytics.records": Reach(STATS, key="stats.refresh",
                               note="Stats (6): every tile and its records table (r: now)"),
    "analytics.filter_values": Reach(STATS, key="stats.channel",
                                     note="Stats: q, c and t list queues, channels and teams"),
    **{name: NotDirect("Stats computes each tile from the records it shows, so a tile and its "
                       "records always agree; the catalogues describe what Stats already "
                       "knows") for name in (
        "analytics.list_metrics", "analytics.get_metric", "analytics.metric_data",
        "analytics.list_records", "analytics.get_record",
    )},
    # -- knowledge: Admin → Knowledge, an article's screen, the composer's finder
    "knowledge.list_collections": Reach(ADMIN, key="admin.reload", note="Admin → Knowledge"),
    "knowledge.catalog": Reach(ADMIN, key="admin.reload",
                               note="Admin → Knowledge: the tree (and the composer's finder)"),
    "knowledge.get_collection": Reach(ADMIN, key="admin.knowledge.open",
                                      note="Admin → Knowledge, enter on a collection"),
    "knowledge.get_category": Reach(ADMIN, key="admin.knowledge.open",
                                    note="Admin → Knowledge, enter on a category"),
    "knowledge.category_translations": Reach(ADMIN, key="admin.knowledge.open",
                                             note="Admin → Knowledge, enter on a category: "
                                                  "its title in every language"),
    "knowledge.create_article": Reach(ADMIN, key="admin.knowledge.new",
                                      note="Admin → Knowledge, n"),
    "knowledge.get_article": Reach(COMPOSER, key="composer.knowledge",
                                   note="ctrl+g in the composer; Admin → Knowledge, enter"),
    "knowledge.article_translations": Reach(ADMIN, key="admin.knowledge.open",
                                            note="Admin → Knowledge, enter on an article"),
    "knowledge.update_translations": Reach(ARTICLE, key="knowledge_article.edit",
                                           note="an article: e edits, a adds a translation"),
    "knowledge.publish_translation": Reach(ARTICLE, key="knowledge_article.publish",
                                           note="an article: p"),
    "knowledge.unpublish_translation": Reach(ARTICLE, key="knowledge_article.unpublish",
                                             note="an article: u (asks)"),
    "knowledge.delete_translation": Reach(ARTICLE, key="knowledge_article.delete_translation",
                                          note="an article: d (asks)"),
    "knowledge.publish_article": Reach(ARTICLE, key="knowledge_article.publish_all",
                                       note="an article: P"),
    "knowledge.unpublish_article": Reach(ARTICLE, key="knowledge_article.unpublish_all",
                                         note="an article: U (asks)"),
    "knowledge.update_article": Reach(ARTICLE, key="knowledge_article.own",
                                      note="an article: o makes me its owner"),
    "knowledge.delete_article": Reach(ARTICLE, key="knowledge_article.delete",
                                      note="an article: D (asks)"),
    "knowledge.move_article": Reach(ARTICLE, key="knowledge_article.move",
                                    note="an article: m, then a collection or category"),
    "knowledge.remove_parent": Reach(ARTICLE, key="knowledge_article.move",
                                     note="an article: m, then (out of every collection)"),
    "knowledge.upload_attachments": Reach(EDITOR, key="knowledge_editor.image",
                                          note="an article's editor: ctrl+a adds an image"),
}

#: ``(METHOD, path)`` → how a person reaches it.
REACHABILITY: dict[tuple[str, str], Way] = {
    operation(name).key: way for name, way in _BY_NAME.items()
}
