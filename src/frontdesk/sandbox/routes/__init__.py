"""The sandbox's routes: one module per API group (the deprecated listing is mounted apart)."""

from . import (
    agents,
    anonymization,
    business_hours,
    contact_endpoints,
    conversations,
    custom_attributes,
    endusers,
    integrations,
    messages,
    queues,
    ratings,
    search,
    tags,
    teams,
)

#: Routers of the main interface, in the order of the specification.
ROUTERS = [
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
]

__all__ = ["ROUTERS", "integrations"]
