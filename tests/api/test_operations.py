"""OPERATIONS stays complete: every operation of the spec (the four beyond it, and the published
operations of the groups the spec lists without operations) maps to a client method that exists
and is async, and nothing else is in the map."""

from __future__ import annotations

import inspect

import pytest

from frontdesk.api import DEPRECATED_OPERATIONS, OPERATION_TABLE, OPERATIONS, ApiClient

# Typed out from the spec's tables, as the spec writes each path.
SPEC_OPERATIONS: list[tuple[str, str]] = [
    # operations with known shapes
    ("PATCH", "/v1/conversations/{conversationId}/anonymize"),
    ("PATCH", "/v1/conversations/{conversationId}/messages/{messageId}/anonymize"),
    ("PUT", "/v1/conversations/{conversationId}/close"),
    ("POST", "/v1/conversations/{conversationId}/ratings/{ratingId}/submit"),
    ("GET", "/v1/endpoints"),
    ("GET", "/v1/endpoints/{id}"),
    # conversations
    ("POST", "/v1/conversations"),
    ("POST", "/v1/conversations/import"),
    ("PUT", "/v1/conversations/{conversationId}/followup"),
    ("PUT", "/v1/conversations/{conversationId}/transfer/queue"),
    ("PUT", "/v1/conversations/{conversationId}/claim"),
    ("PATCH", "/v1/conversations/{conversationId}/custom-attributes"),
    # messages
    ("GET", "/v1/conversations/{conversationId}/messages"),
    ("POST", "/v1/conversations/{conversationId}/messages"),
    # end users
    ("POST", "/v1/endusers"),
    ("GET", "/v1/endusers/{userId}"),
    ("GET", "/v1/endusers/{userId}/conversations"),
    ("PATCH", "/v1/endusers/{userId}/custom-attributes"),
    ("PATCH", "/v1/endusers/{userId}/anonymize"),
    # ratings
    ("POST", "/v1/conversations/{conversationId}/ratings/offer"),
    ("GET", "/v1/conversations/{conversationId}/ratings"),
    ("GET", "/v1/conversations/{conversationId}/rating"),
    # tags
    ("GET", "/v1/tags"),
    ("POST", "/v1/tags"),
    ("GET", "/v1/tags/{tagId}"),
    ("DELETE", "/v1/tags/{tagId}"),
    ("PATCH", "/v1/tags/{tagId}/deactivate"),
    ("PATCH", "/v1/tags/{tagId}/activate"),
    ("GET", "/v1/conversations/{conversationId}/tags"),
    ("PUT", "/v1/conversations/{conversationId}/tags/{tagId}"),
    ("DELETE", "/v1/conversations/{conversationId}/tags/{tagId}"),
    ("POST", "/v1/conversations/{conversationId}/tags/bulk"),
    # agents
    ("GET", "/v1/agents"),
    ("POST", "/v1/agents"),
    ("PUT", "/v1/agents"),
    ("PATCH", "/v1/agents"),
    ("POST", "/v1/agents/bulk"),
    ("GET", "/v1/agents/{agentId}"),
    ("PUT", "/v1/agents/{agentId}"),
    ("PATCH", "/v1/agents/{agentId}"),
    ("DELETE", "/v1/agents/{agentId}"),
    ("GET", "/v1/agents/{agentId}/teams"),
    ("GET", "/v1/agents/presence"),
    ("GET", "/v1/agents/{agentId}/presence"),
    ("PUT", "/v1/agents/{agentId}/presence/working-channel"),
    # teams
    ("GET", "/v1/teams"),
    ("POST", "/v1/teams"),
    ("GET", "/v1/teams/{teamId}"),
    ("DELETE", "/v1/teams/{teamId}"),
    ("GET", "/v1/teams/{teamId}/agents"),
    ("PATCH", "/v1/teams/{teamId}/agents"),
    ("DELETE", "/v1/teams/{teamId}/agents"),
    ("GET", "/v1/teams/{teamId}/presence"),
    # queues
    ("GET", "/v1/queues"),
    ("POST", "/v1/queues"),
    ("GET", "/v1/queues/{queueId}"),
    ("GET", "/v1/queues/{queueId}/members"),
    ("PATCH", "/v1/queues/{queueId}/members"),
    ("DELETE", "/v1/queues/{queueId}/members"),
    ("GET", "/v1/queues/{queueId}/availability"),
    ("GET", "/v1/queues/conversation-position/{csid}"),
    # custom attributes
    ("GET", "/v1/custom-attributes"),
    ("GET", "/v1/custom-attributes/{customAttributeId}"),
    # contact endpoints
    ("GET", "/v1/contact-endpoints"),
    ("GET", "/v1/contact-endpoints/{contactEndpointId}"),
    # business hours
    ("GET", "/v1/business-hours/schedules"),
    ("GET", "/v1/business-hours/schedules/{scheduleId}/definition"),
    ("GET", "/v1/business-hours/schedules/{scheduleId}/upcoming"),
    ("GET", "/v1/business-hours/schedules/{scheduleId}/status"),
    # anonymization
    ("GET", "/v1/anonymization/request/{requestId}"),
    ("POST", "/v1/anonymization"),
]

# Published by the service beyond the spec (the contract's "beyond the spec" row).
BEYOND_SPEC: list[tuple[str, str]] = [
    ("GET", "/v1/conversations/{conversationId}"),
    ("PUT", "/v1/conversations/{conversationId}/reopen"),
    ("GET", "/v1/endusers"),
    ("POST", "/v1/search/conversations"),
    ("GET", "/v1/search/conversations"),  # published as deprecated: POST replaces it
]

# The groups the spec lists without operations, as the vendor's OpenAPI publishes them
# (internal notes, activity log, linked conversations, end users in full, organization,
# flows, templates, webhooks, analytics).
BEYOND_TABLES: list[tuple[str, str]] = [
    ("GET", "/v1/conversations/{conversationId}/notes"),
    ("POST", "/v1/conversations/{conversationId}/notes"),
    ("POST", "/v1/conversations/{conversationId}/notes/bulk"),
    ("GET", "/v1/conversations/{conversationId}/activitylog"),
    ("GET", "/v1/conversations/activitylog"),
    ("PUT", "/v1/conversations/{conversationId}/link"),
    ("GET", "/v1/conversations/{conversationId}/linked"),
    ("PUT", "/v1/endusers/{userId}"),
    ("PATCH", "/v1/endusers/{userId}"),
    ("PUT", "/v1/endusers"),
    ("PATCH", "/v1/endusers"),
    ("POST", "/v1/endusers/bulk"),
    ("GET", "/v1/organization"),
    ("GET", "/v1/conversations/flows"),
    ("GET", "/v1/templates"),
    ("DELETE", "/v1/templates/{templateId}"),
    ("GET", "/v1/webhooks"),
    ("POST", "/v1/webhooks"),
    ("GET", "/v1/webhooks/{webhookSubscriptionId}"),
    ("PATCH", "/v1/webhooks/{webhookSubscriptionId}"),
    ("DELETE", "/v1/webhooks/{webhookSubscriptionId}"),
    ("GET", "/v1/webhooks/{webhookSubscriptionId}/delivery-status"),
    ("GET", "/v1/webhooks/{webhookSubscriptionId}/delivery-status/logs/{event}"),
    ("GET", "/v1/analytics/metrics"),
    ("POST", "/v1/analytics/metrics"),
    ("GET", "/v1/analytics/metrics/{metricId}"),
    ("GET", "/v1/analytics/filter/{filterAttribute}"),
    ("GET", "/v1/analytics/records"),
    ("POST", "/v1/analytics/records"),
    ("GET", "/v1/analytics/records/{recordId}"),
]

# The help centre (the vendor's /beta/knowledge/… paths, served under /v1).
KNOWLEDGE: list[tuple[str, str]] = [
    ("GET", "/v1/knowledge/collections"),
    ("GET", "/v1/knowledge/collections/{collectionId}"),
    ("GET", "/v1/knowledge/collections/{collectionId}/catalog"),
    ("GET", "/v1/knowledge/categories/{categoryId}"),
    ("GET", "/v1/knowledge/categories/{categoryId}/translations"),
    ("POST", "/v1/knowledge/articles"),
    ("GET", "/v1/knowledge/articles/{articleId}"),
    ("PATCH", "/v1/knowledge/articles/{articleId}"),
    ("DELETE", "/v1/knowledge/articles/{articleId}"),
    ("GET", "/v1/knowledge/articles/{articleId}/translations"),
    ("PATCH", "/v1/knowledge/articles/{articleId}/translations"),
    ("POST", "/v1/knowledge/articles/{articleId}/translations/{languageId}/publish"),
    ("POST", "/v1/knowledge/articles/{articleId}/translations/{languageId}/unpublish"),
    ("DELETE", "/v1/knowledge/articles/{articleId}/translations/{languageId}"),
    ("POST", "/v1/knowledge/articles/{articleId}/publish"),
    ("POST", "/v1/knowledge/articles/{articleId}/unpublish"),
    ("PATCH", "/v1/knowledge/articles/{articleId}/parent/{parentId}"),
    ("DELETE", "/v1/knowledge/articles/{articleId}/parent"),
    ("POST", "/v1/knowledge/articles/attachments"),
]

# The spec's "Versioning" section.
SPEC_DEPRECATED = {
    ("GET", "/v1/conversations/{conversationId}/rating"),
    ("POST", "/v1/anonymization"),
    ("GET", "/v1/endpoints"),
    ("GET", "/v1/endpoints/{id}"),
}
#: Deprecated where the service publishes it, beyond the spec.
PUBLISHED_DEPRECATED = {("GET", "/v1/search/conversations")}


def test_the_spec_list_has_no_duplicates() -> None:
    everything = SPEC_OPERATIONS + BEYOND_SPEC + BEYOND_TABLES + KNOWLEDGE
    assert len(everything) == len(set(everything)) == 125


def test_every_spec_operation_is_mapped() -> None:
    missing = [op for op in SPEC_OPERATIONS + BEYOND_SPEC + BEYOND_TABLES + KNOWLEDGE
               if op not in OPERATIONS]
    assert missing == []


def test_nothing_is_mapped_that_the_spec_does_not_name() -> None:
    known = set(SPEC_OPERATIONS + BEYOND_SPEC + BEYOND_TABLES + KNOWLEDGE)
    extra = [op for op in OPERATIONS if op not in known]
    assert extra == []


def test_names_are_unique_and_dotted() -> None:
    names = list(OPERATIONS.values())
    assert len(names) == len(set(names))
    for name in names:
        group, _, method = name.partition(".")
        assert group and method and "." not in method, name


def test_deprecated_operations_are_the_specs() -> None:
    assert set(DEPRECATED_OPERATIONS) == SPEC_DEPRECATED | PUBLISHED_DEPRECATED
    for op in OPERATION_TABLE:
        assert op.deprecated == (op.key in SPEC_DEPRECATED | PUBLISHED_DEPRECATED)


def test_deprecated_methods_say_so_in_their_docstring() -> None:
    client = ApiClient("http://127.0.0.1:9", "k", "http://127.0.0.1:9/integrations")
    for key in SPEC_DEPRECATED | PUBLISHED_DEPRECATED:
        group, method = OPERATIONS[key].split(".")
        doc = inspect.getdoc(getattr(getattr(client, group), method)) or ""
        assert "deprecated" in doc.lower(), OPERATIONS[key]


def test_the_endpoint_listing_is_served_by_the_integrations_interface() -> None:
    for op in OPERATION_TABLE:
        expected = "integrations" if op.path.startswith("/v1/endpoints") else "main"
        assert op.interface == expected, op.name


@pytest.mark.parametrize("key", sorted(OPERATIONS))
def test_each_named_method_exists_and_is_async(key: tuple[str, str]) -> None:
    client = ApiClient("http://127.0.0.1:9", "k", "http://127.0.0.1:9/integrations")
    group, method = OPERATIONS[key].split(".")
    resource = getattr(client, group)
    function = getattr(type(resource), method)
    assert inspect.iscoroutinefunction(function) or inspect.isasyncgenfunction(function), key
    assert "priority" in inspect.signature(function).parameters, key


def test_idempotency_follows_the_rules() -> None:
    for op in OPERATION_TABLE:
        if op.method in ("GET", "PUT", "DELETE"):
            assert op.idempotent, op.name
        elif op.method == "PATCH":
            assert op.idempotent == (not op.path.endswith("/anonymize")), op.name
    safe_posts = {op.name for op in OPERATION_TABLE if op.method == "POST" and op.idempotent}
    assert safe_posts == {"search.conversations", "tags.create", "tags.bulk_tag_conversation",
                          "analytics.metric_data", "analytics.records",
                          "knowledge.publish_translation", "knowledge.unpublish_translation",
                          "knowledge.publish_article", "knowledge.unpublish_article"}
