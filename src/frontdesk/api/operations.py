"""Every operation of the service, and the client method that performs it.

One table, :data:`OPERATION_TABLE`, names each operation by its method and its path template
exactly as the specification writes it, with the dotted name of the client method
(``"conversations.close"`` is ``client.conversations.close``), whether it is deprecated, which
interface serves it (the main one or the deprecated endpoint listing) and whether repeating it
is harmless. The resources look their operations up here, so the paths sent and the paths
documented cannot drift apart, and a test keeps the table complete against the spec.

Repeating a call is harmless (``idempotent``) for GET, PUT and DELETE; for PATCH except the
anonymise operations (each one files a new request); and for these POSTs: a search (read only),
creating a tag (an existing name returns that tag), bulk tagging (tagging twice leaves the
same tags), publishing or unpublishing a knowledge article or translation (the second time
changes nothing) and the two analytics POSTs, which only read. Adding a message becomes safe
per call, through its ``externalId``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "DEPRECATED_OPERATIONS",
    "GATEWAY_LEAST_ROLES",
    "GATEWAY_OPERATION_TABLE",
    "OPERATIONS",
    "OPERATION_TABLE",
    "Operation",
    "operation",
]

Interface = Literal["main", "integrations"]


@dataclass(frozen=True, slots=True)
class Operation:
    """One operation of the service and the client method that performs it."""

    method: str
    path: str
    name: str
    deprecated: bool = False
    interface: Interface = "main"
    idempotent: bool = False

    @property
    def key(self) -> tuple[str, str]:
        """``(METHOD, path template)``: the operation's identity in the spec."""
        return (self.method, self.path)

    @property
    def label(self) -> str:
        """``"PUT /v1/conversations/{conversationId}/claim"``: how errors and logs name it."""
        return f"{self.method} {self.path}"


def _op(
    method: str,
    path: str,
    name: str,
    *,
    deprecated: bool = False,
    interface: Interface = "main",
    idempotent: bool | None = None,
) -> Operation:
    if idempotent is None:
        idempotent = method in ("GET", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS")
    return Operation(method, path, name, deprecated, interface, idempotent)


_C = "/v1/conversations/{conversationId}"
_W = "/v1/webhooks/{webhookSubscriptionId}"
_K = "/v1/knowledge"
_A = f"{_K}/articles/{{articleId}}"

#: Every operation, in the order of the specification; then the four beyond it, and the
#: published operations of the groups the spec lists without operations.
OPERATION_TABLE: tuple[Operation, ...] = (
    # -- operations with known shapes
    _op("PATCH", f"{_C}/anonymize", "anonymization.anonymize_conversation", idempotent=False),
    _op("PATCH", f"{_C}/messages/{{messageId}}/anonymize", "anonymization.anonymize_message",
        idempotent=False),
    _op("PUT", f"{_C}/close", "conversations.close"),
    _op("POST", f"{_C}/ratings/{{ratingId}}/submit", "ratings.submit"),
    _op("GET", "/v1/endpoints", "integrations.list_endpoints", deprecated=True,
        interface="integrations"),
    _op("GET", "/v1/endpoints/{id}", "integrations.get_endpoint", deprecated=True,
        interface="integrations"),
    # -- conversations
    _op("POST", "/v1/conversations", "conversations.create"),
    _op("POST", "/v1/conversations/import", "conversations.import_conversation"),
    _op("PUT", f"{_C}/followup", "conversations.followup"),
    _op("PUT", f"{_C}/transfer/queue", "conversations.transfer"),
    _op("PUT", f"{_C}/claim", "conversations.claim"),
    _op("PATCH", f"{_C}/custom-attributes", "custom_attributes.patch_conversation"),
    # -- messages
    _op("GET", f"{_C}/messages", "messages.list"),
    _op("POST", f"{_C}/messages", "messages.add"),
    # -- end users
    _op("POST", "/v1/endusers", "endusers.create"),
    _op("GET", "/v1/endusers/{userId}", "endusers.get"),
    _op("GET", "/v1/endusers/{userId}/conversations", "endusers.conversations"),
    _op("PATCH", "/v1/endusers/{userId}/custom-attributes", "custom_attributes.patch_enduser"),
    _op("PATCH", "/v1/endusers/{userId}/anonymize", "anonymization.anonymize_enduser",
        idempotent=False),
    # -- ratings
    _op("POST", f"{_C}/ratings/offer", "ratings.offer"),
    _op("GET", f"{_C}/ratings", "ratings.list"),
    _op("GET", f"{_C}/rating", "ratings.list_deprecated", deprecated=True),
    # -- tags
    _op("GET", "/v1/tags", "tags.list"),
    _op("POST", "/v1/tags", "tags.create", idempotent=True),
    _op("GET", "/v1/tags/{tagId}", "tags.get"),
    _op("DELETE", "/v1/tags/{tagId}", "tags.delete"),
    _op("PATCH", "/v1/tags/{tagId}/deactivate", "tags.deactivate"),
    _op("PATCH", "/v1/tags/{tagId}/activate", "tags.activate"),
    _op("GET", f"{_C}/tags", "tags.list_for_conversation"),
    _op("PUT", f"{_C}/tags/{{tagId}}", "tags.tag_conversation"),
    _op("DELETE", f"{_C}/tags/{{tagId}}", "tags.untag_conversation"),
    _op("POST", f"{_C}/tags/bulk", "tags.bulk_tag_conversation", idempotent=True),
    # -- agents
    _op("GET", "/v1/agents", "agents.list"),
    _op("POST", "/v1/agents", "agents.create"),
    _op("PUT", "/v1/agents", "agents.bulk_update"),
    _op("PATCH", "/v1/agents", "agents.bulk_patch"),
    _op("POST", "/v1/agents/bulk", "agents.bulk_create"),
    _op("GET", "/v1/agents/{agentId}", "agents.get"),
    _op("PUT", "/v1/agents/{agentId}", "agents.update"),
    _op("PATCH", "/v1/agents/{agentId}", "agents.patch"),
    _op("DELETE", "/v1/agents/{agentId}", "agents.downgrade"),
    _op("GET", "/v1/agents/{agentId}/teams", "agents.teams"),
    _op("GET", "/v1/agents/presence", "agents.list_presence"),
    _op("GET", "/v1/agents/{agentId}/presence", "agents.presence"),
    _op("PUT", "/v1/agents/{agentId}/presence/working-channel", "agents.set_working_channel"),
    # -- teams
    _op("GET", "/v1/teams", "teams.list"),
    _op("POST", "/v1/teams", "teams.create"),
    _op("GET", "/v1/teams/{teamId}", "teams.get"),
    _op("DELETE", "/v1/teams/{teamId}", "teams.delete"),
    _op("GET", "/v1/teams/{teamId}/agents", "teams.members"),
    _op("PATCH", "/v1/teams/{teamId}/agents", "teams.add_members"),
    _op("DELETE", "/v1/teams/{teamId}/agents", "teams.remove_members"),
    _op("GET", "/v1/teams/{teamId}/presence", "teams.presence"),
    # -- queues
    _op("GET", "/v1/queues", "queues.list"),
    _op("POST", "/v1/queues", "queues.create"),
    _op("GET", "/v1/queues/{queueId}", "queues.get"),
    _op("GET", "/v1/queues/{queueId}/members", "queues.members"),
    _op("PATCH", "/v1/queues/{queueId}/members", "queues.add_members"),
    _op("DELETE", "/v1/queues/{queueId}/members", "queues.remove_members"),
    _op("GET", "/v1/queues/{queueId}/availability", "queues.availability"),
    _op("GET", "/v1/queues/conversation-position/{csid}", "queues.conversation_position"),
    # -- custom attributes
    _op("GET", "/v1/custom-attributes", "custom_attributes.list"),
    _op("GET", "/v1/custom-attributes/{customAttributeId}", "custom_attributes.get"),
    # -- contact endpoints
    _op("GET", "/v1/contact-endpoints", "contact_endpoints.list"),
    _op("GET", "/v1/contact-endpoints/{contactEndpointId}", "contact_endpoints.get"),
    # -- business hours
    _op("GET", "/v1/business-hours/schedules", "business_hours.list_schedules"),
    _op("GET", "/v1/business-hours/schedules/{scheduleId}/definition",
        "business_hours.definition"),
    _op("GET", "/v1/business-hours/schedules/{scheduleId}/upcoming", "business_hours.upcoming"),
    _op("GET", "/v1/business-hours/schedules/{scheduleId}/status", "business_hours.status"),
    # -- anonymization
    _op("GET", "/v1/anonymization/request/{requestId}", "anonymization.get_request"),
    _op("POST", "/v1/anonymization", "anonymization.anonymize_deprecated", deprecated=True),
    # -- beyond the spec: published by the service, used where it has them
    _op("GET", _C, "conversations.get"),
    _op("PUT", f"{_C}/reopen", "conversations.reopen"),
    _op("GET", "/v1/endusers", "endusers.list"),
    _op("POST", "/v1/search/conversations", "search.conversations", idempotent=True),
    _op("GET", "/v1/search/conversations", "search.conversations_by_text", deprecated=True),
    # -- beyond the spec's tables: groups the spec names without operations, as published
    _op("GET", f"{_C}/notes", "notes.list"),
    _op("POST", f"{_C}/notes", "notes.add"),
    _op("POST", f"{_C}/notes/bulk", "notes.bulk_add"),
    _op("GET", f"{_C}/activitylog", "activity_log.for_conversation"),
    _op("GET", "/v1/conversations/activitylog", "activity_log.list"),
    _op("PUT", f"{_C}/link", "links.link"),
    _op("GET", f"{_C}/linked", "links.linked"),
    _op("PUT", "/v1/endusers/{userId}", "endusers.update"),
    _op("PATCH", "/v1/endusers/{userId}", "endusers.patch"),
    _op("PUT", "/v1/endusers", "endusers.bulk_update"),
    _op("PATCH", "/v1/endusers", "endusers.bulk_patch"),
    _op("POST", "/v1/endusers/bulk", "endusers.bulk_create"),
    _op("GET", "/v1/organization", "organization.get"),
    _op("GET", "/v1/conversations/flows", "flows.list"),
    _op("GET", "/v1/templates", "templates.list"),
    _op("DELETE", "/v1/templates/{templateId}", "templates.delete"),
    _op("GET", "/v1/webhooks", "webhooks.list"),
    _op("POST", "/v1/webhooks", "webhooks.create"),
    _op("GET", _W, "webhooks.get"),
    _op("PATCH", _W, "webhooks.update"),
    _op("DELETE", _W, "webhooks.delete"),
    _op("GET", f"{_W}/delivery-status", "webhooks.delivery_status"),
    _op("GET", f"{_W}/delivery-status/logs/{{event}}", "webhooks.delivery_log"),
    _op("GET", "/v1/analytics/metrics", "analytics.list_metrics"),
    _op("POST", "/v1/analytics/metrics", "analytics.metric_data", idempotent=True),
    _op("GET", "/v1/analytics/metrics/{metricId}", "analytics.get_metric"),
    _op("GET", "/v1/analytics/filter/{filterAttribute}", "analytics.filter_values"),
    _op("GET", "/v1/analytics/records", "analytics.list_records"),
    _op("POST", "/v1/analytics/records", "analytics.records", idempotent=True),
    _op("GET", "/v1/analytics/records/{recordId}", "analytics.get_record"),
    # knowledge: the help centre
    _op("GET", "/v1/knowledge/collections", "knowledge.list_collections"),
    _op("GET", f"{_K}/collections/{{collectionId}}", "knowledge.get_collection"),
    _op("GET", f"{_K}/collections/{{collectionId}}/catalog", "knowledge.catalog"),
    _op("GET", f"{_K}/categories/{{categoryId}}", "knowledge.get_category"),
    _op("GET", f"{_K}/categories/{{categoryId}}/translations",
        "knowledge.category_translations"),
    _op("POST", f"{_K}/articles", "knowledge.create_article"),
    _op("GET", _A, "knowledge.get_article"),
    _op("PATCH", _A, "knowledge.update_article"),
    _op("DELETE", _A, "knowledge.delete_article"),
    _op("GET", f"{_A}/translations", "knowledge.article_translations"),
    _op("PATCH", f"{_A}/translations", "knowledge.update_translations"),
    _op("POST", f"{_A}/translations/{{languageId}}/publish", "knowledge.publish_translation",
        idempotent=True),
    _op("POST", f"{_A}/translations/{{languageId}}/unpublish",
        "knowledge.unpublish_translation", idempotent=True),
    _op("DELETE", f"{_A}/translations/{{languageId}}", "knowledge.delete_translation"),
    _op("POST", f"{_A}/publish", "knowledge.publish_article", idempotent=True),
    _op("POST", f"{_A}/unpublish", "knowledge.unpublish_article", idempotent=True),
    _op("PATCH", f"{_A}/parent/{{parentId}}", "knowledge.move_article"),
    _op("DELETE", f"{_A}/parent", "knowledge.remove_parent"),
    _op("POST", f"{_K}/articles/attachments", "knowledge.upload_attachments"),
)

#: The team gateway's own operations (``client.gateway``): served by a gateway in front of
#: the service, at the same origin as the service's paths, never by the service itself. Kept
#: apart from :data:`OPERATION_TABLE`, which is the service's alone (and complete against its
#: specification), so roles, reachability and the sandbox never count them.
GATEWAY_OPERATION_TABLE: tuple[Operation, ...] = (
    _op("GET", "/gateway/v1/health", "gateway.health"),
    _op("GET", "/gateway/v1/me", "gateway.me"),
    _op("GET", "/gateway/v1/audit", "gateway.audit"),
    _op("GET", "/gateway/v1/changes", "gateway.changes"),
)

#: The least role (``api.roles.Role``'s value) for each of the gateway's own operations;
#: the service's are in ``api.roles.ROLE_TABLE``. Every member may ask who they are; only an
#: admin reads the audit.
GATEWAY_LEAST_ROLES: dict[str, str] = {
    "gateway.health": "agent",
    "gateway.me": "agent",
    "gateway.audit": "admin",
    "gateway.changes": "agent",
}

#: ``(METHOD, path template)`` → dotted client method name.
OPERATIONS: dict[tuple[str, str], str] = {op.key: op.name for op in OPERATION_TABLE}

#: The operations the spec marks deprecated.
DEPRECATED_OPERATIONS: frozenset[tuple[str, str]] = frozenset(
    op.key for op in OPERATION_TABLE if op.deprecated
)

_BY_NAME: dict[str, Operation] = {op.name: op
                                  for op in (*OPERATION_TABLE, *GATEWAY_OPERATION_TABLE)}


def operation(name: str) -> Operation:
    """The operation performed by the client method ``name`` (``"tags.create"``; the
    gateway's own too, ``"gateway.me"``)."""
    return _BY_NAME[name]
