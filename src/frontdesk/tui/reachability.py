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

PEOPLE = "frontdesk.tui.screens.people:PeopleScreen"
PROFILE = "frontdesk.tui.screens.people_profile:EndUserProfileScreen"
ADMIN = "frontdesk.tui.screens.admin:AdminScreen"
RATINGS = "frontdesk.tui.screens.ratings:RatingsScreen"
ATTRIBUTES = "frontdesk.tui.screens.attributes_panel:AttributesPanel"
APP = "frontdesk.tui.app:FrontdeskApp"
THREAD = "frontdesk.tui.screens.thread:ThreadScreen"
COMPOSER = "frontdesk.tui.widgets.composer:Composer"
TEAM = "frontdesk.tui.screens.team:TeamScreen"
_NOT_YET = "not in the console yet; available in the client and the sandbox"


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
    # -- the groups the spec lists without operations (published): client and sandbox only
    **{name: NotDirect(_NOT_YET) for name in (
        "endusers.update", "endusers.patch", "endusers.bulk_update", "endusers.bulk_patch",
        "endusers.bulk_create",
        "organization.get", "flows.list", "templates.list", "templates.delete",
    )},
}

#: ``(METHOD, path)`` → how a person reaches it.
REACHABILITY: dict[tuple[str, str], Way] = {
    operation(name).key: way for name, way in _BY_NAME.items()
}
