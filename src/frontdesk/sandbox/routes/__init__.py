"""The sandbox's routes: one module per API group (the deprecated listing is mounted apart)."""

from . import (
    activity_log,
    agents,
    analytics,
    anonymization,
    business_hours,
    contact_endpoints,
    conversations,
    custom_attributes,
    endusers,
    flows,
    integrations,
    knowledge,
    links,
    messages,
    notes,
    organization,
    queues,
    ratings,
    search,
    tags,
    teams,
    templates,
    webhooks,
)

#: Routers of the main interface, in the order of the specification.
ROUTERS = [
    # literal paths under /v1/conversations before the conversation-id routes
    activity_log.router,
    flows.router,
    conversations.router,
    messages.router,
    endusers.router,
    agents.router,
    teams.router,
    queues.router,
    tags.router,
    ratings.router,
    custom_attributes.router,
    contact_endpoints.router,
    business_hours.router,
    anonymization.router,
    search.router,
    # the groups the spec lists without operations, as published
    notes.router,
    links.router,
    organization.router,
    templates.router,
    webhooks.router,
    knowledge.router,
    analytics.router,
]

__all__ = ["ROUTERS", "integrations"]
