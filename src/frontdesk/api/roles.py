"""The team gateway's roles, and the least role that may perform each operation of the service.

A member of a team signs in to the gateway with a personal key that carries one :class:`Role`.
:data:`ROLE_TABLE` maps every operation name of :data:`~frontdesk.api.operations.OPERATION_TABLE`
(``"conversations.close"``) to the least role allowed to perform it: an agent reads what the
console needs and works conversations, end users and their own presence; a supervisor adds
analytics, the activity log, acting on others' conversations, and team and queue membership; an
admin may do everything. An operation missing from the table is refused to every role, so a new
operation stays closed until someone decides who may perform it. The gateway enforces the table
and the console hides what a member's role may not do; both read it from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from frontdesk.api.operations import OPERATION_TABLE

__all__ = ["ROLE_TABLE", "Role", "required_role"]


class Role(StrEnum):
    """A member's role at the gateway, in increasing order of rights."""

    AGENT = "agent"
    SUPERVISOR = "supervisor"
    ADMIN = "admin"

    @property
    def rank(self) -> int:
        """0 for an agent, 1 for a supervisor, 2 for an admin: the order of rights."""
        return _RANKS[self]

    def allows(self, needed: Role) -> bool:
        """Whether a member with this role may do what ``needed`` is required for."""
        return self.rank >= needed.rank


_RANKS: dict[Role, int] = {Role.AGENT: 0, Role.SUPERVISOR: 1, Role.ADMIN: 2}

_A, _S, _D = Role.AGENT, Role.SUPERVISOR, Role.ADMIN

_TABLE: dict[str, Role] = {
    # conversations: an agent works them; importing history is the organisation's business
    "conversations.get": _A,
    "conversations.create": _A,
    "conversations.import_conversation": _D,
    "conversations.claim": _A,
    "conversations.close": _A,
    "conversations.reopen": _A,
    "conversations.transfer": _A,
    "conversations.followup": _A,
    "search.conversations": _A,
    "search.conversations_by_text": _A,
    # messages and notes
    "messages.list": _A,
    "messages.add": _A,
    "notes.list": _A,
    "notes.add": _A,
    "notes.bulk_add": _A,
    # links between conversations
    "links.link": _A,
    "links.linked": _A,
    # ratings: offering one is an agent's; submitting is the customer's, never a member's
    "ratings.offer": _A,
    "ratings.list": _A,
    "ratings.list_deprecated": _A,
    "ratings.submit": _D,
    # tags: on conversations for agents, the tag list itself for admins
    "tags.list": _A,
    "tags.get": _A,
    "tags.list_for_conversation": _A,
    "tags.tag_conversation": _A,
    "tags.untag_conversation": _A,
    "tags.bulk_tag_conversation": _A,
    "tags.create": _S,
    "tags.delete": _D,
    "tags.deactivate": _D,
    "tags.activate": _D,
    # custom attributes
    "custom_attributes.list": _A,
    "custom_attributes.get": _A,
    "custom_attributes.patch_conversation": _A,
    "custom_attributes.patch_enduser": _A,
    # end users: agents create and edit them one at a time; bulk edits are a supervisor's
    "endusers.list": _A,
    "endusers.get": _A,
    "endusers.conversations": _A,
    "endusers.create": _A,
    "endusers.update": _A,
    "endusers.patch": _A,
    "endusers.bulk_create": _S,
    "endusers.bulk_update": _S,
    "endusers.bulk_patch": _S,
    # anonymisation: irreversible, an admin's
    "anonymization.anonymize_conversation": _D,
    "anonymization.anonymize_message": _D,
    "anonymization.anonymize_enduser": _D,
    "anonymization.anonymize_deprecated": _D,
    "anonymization.get_request": _D,
    # agents: reading them and one's own working channel for agents; the people for admins
    "agents.list": _A,
    "agents.get": _A,
    "agents.teams": _A,
    "agents.list_presence": _A,
    "agents.presence": _A,
    "agents.set_working_channel": _A,
    "agents.create": _D,
    "agents.bulk_update": _D,
    "agents.bulk_patch": _D,
    "agents.bulk_create": _D,
    "agents.update": _D,
    "agents.patch": _D,
    "agents.downgrade": _D,
    # teams and queues: reading for agents, membership for supervisors, creating for admins
    "teams.list": _A,
    "teams.get": _A,
    "teams.members": _A,
    "teams.presence": _A,
    "teams.add_members": _S,
    "teams.remove_members": _S,
    "teams.create": _D,
    "teams.delete": _D,
    "queues.list": _A,
    "queues.get": _A,
    "queues.members": _A,
    "queues.availability": _A,
    "queues.conversation_position": _A,
    "queues.add_members": _S,
    "queues.remove_members": _S,
    "queues.create": _D,
    # the organisation's settings, read by the console
    "contact_endpoints.list": _A,
    "contact_endpoints.get": _A,
    "business_hours.list_schedules": _A,
    "business_hours.definition": _A,
    "business_hours.upcoming": _A,
    "business_hours.status": _A,
    "organization.get": _A,
    "flows.list": _A,
    "templates.list": _A,
    "templates.delete": _D,
    "integrations.list_endpoints": _A,
    "integrations.get_endpoint": _A,
    # the activity log and analytics: a supervisor's
    "activity_log.for_conversation": _S,
    "activity_log.list": _S,
    "analytics.list_metrics": _S,
    "analytics.metric_data": _S,
    "analytics.get_metric": _S,
    "analytics.filter_values": _S,
    "analytics.list_records": _S,
    "analytics.records": _S,
    "analytics.get_record": _S,
    # webhooks carry secrets: an admin's
    "webhooks.list": _D,
    "webhooks.create": _D,
    "webhooks.get": _D,
    "webhooks.update": _D,
    "webhooks.delete": _D,
    "webhooks.delivery_status": _D,
    "webhooks.delivery_log": _D,
    # knowledge: agents read the help centre, admins edit it
    "knowledge.list_collections": _A,
    "knowledge.get_collection": _A,
    "knowledge.catalog": _A,
    "knowledge.get_category": _A,
    "knowledge.category_translations": _A,
    "knowledge.get_article": _A,
    "knowledge.article_translations": _A,
    "knowledge.create_article": _D,
    "knowledge.update_article": _D,
    "knowledge.delete_article": _D,
    "knowledge.update_translations": _D,
    "knowledge.publish_translation": _D,
    "knowledge.unpublish_translation": _D,
    "knowledge.delete_translation": _D,
    "knowledge.publish_article": _D,
    "knowledge.unpublish_article": _D,
    "knowledge.move_article": _D,
    "knowledge.remove_parent": _D,
    "knowledge.upload_attachments": _D,
}

#: Operation name (``"conversations.close"``) → the least role that may perform it.
ROLE_TABLE: Mapping[str, Role] = MappingProxyType(
    {op.name: _TABLE[op.name] for op in OPERATION_TABLE if op.name in _TABLE}
)


def required_role(operation_name: str) -> Role | None:
    """The least role that may perform ``operation_name``; None when no role may."""
    return ROLE_TABLE.get(operation_name)
