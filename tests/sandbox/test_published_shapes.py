"""The sandbox's answers for the groups beyond the spec's tables fit the service's published
schemas (a copy lives in published/beyond_tables.json, its source and changes named there)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import httpx2
import jsonschema_rs
from factories_conversations import create_chat, org, outbound, tag

from frontdesk.sandbox.server import SandboxServer

PUBLISHED = json.loads((Path(__file__).parent / "published" / "beyond_tables.json").read_text())

#: The published attribute schema of each kind of log entry the sandbox writes with details.
ATTRIBUTES = {
    "NoteAdded": "NoteAddedAttribute",
    "TagAdded": "TagAddedAttribute",
    "TagRemoved": "TagRemovedAttribute",
    "MessageAddedByAgent": "MessageAddedAttribute",
    "MessageAddedByCustomer": "MessageAddedAttribute",
    "TransferSuccessful": "ConversationTransferredAttribute",
    "ConversationRatingOffered": "ConversationRatingOfferedAttribute",
    "ConversationRated": "ConversationRatedAttribute",
    "ConversationLinkedToParent": "ConversationLinkedAttribute",
    "ConversationLinkedFromChild": "ConversationLinkedAttribute",
    "ConversationClaimed": "ConversationClaimedAttribute",
    "ConversationCreatedByCustomer": "ConversationCreatedAttribute",
    "ConversationCreatedByAgent": "ConversationCreatedAttribute",
    "ConversationMessageRedacted": "MessageRedactedAttribute",
}


@cache
def _validator(name: str) -> Any:
    return jsonschema_rs.validator_for(
        {"$ref": f"#/components/schemas/{name}", "components": PUBLISHED["components"]})


def fits(value: Any, name: str) -> None:
    """``value`` fits the published schema ``name`` (every problem named when not)."""
    problems = [f"{'/'.join(map(str, e.instance_path))}: {e.message}"
                for e in _validator(name).iter_errors(value)]
    assert problems == [], (name, value)


def _data(response: httpx2.Response) -> Any:
    assert response.status_code == 200, response.text
    return response.json()["data"]


def test_answers_fit_the_published_schemas(http: httpx2.Client, sandbox: SandboxServer) -> None:
    world = org(sandbox)
    cid, child = create_chat(http, world.requester), create_chat(http, world.requester)
    base = f"/v1/conversations/{cid}"
    vip = tag(sandbox, name="vip-shapes")
    http.put(f"{base}/claim", json={"agentId": world.agent})
    http.put(f"{base}/claim", json={"agentId": world.other_agent, "force": True})
    http.post(f"{base}/messages", json=outbound(world.other_agent))
    http.put(f"{base}/tags/{vip}")
    http.delete(f"{base}/tags/{vip}")
    http.put(f"{base}/transfer/queue", json={"queueId": world.queue})
    http.put(f"/v1/conversations/{child}/link", json={"parentId": cid, "linkType": "Related"})
    offer = _data(http.post(f"{base}/ratings/offer", json={"ratingType": "Nps"}))
    fits(offer, "RatingOffer")
    http.post(f"{base}/ratings/{offer['id']}/submit",
              json={"ratingResult": {"_type": "Nps", "value": 9}, "comment": "Fine"})
    fits(_data(http.post(f"{base}/notes", json={"message": "Shapes"})), "InternalNoteData")
    for note in _data(http.get(f"{base}/notes")):
        fits(note, "InternalNoteData")
    outcomes = _data(http.post(f"{base}/notes/bulk", json={"data": [
        {"message": "ok"}, {"message": "no", "agentId": world.requester}]}))
    fits(outcomes[0], "BulkActionSuccess_ErrorResponse_InternalNoteData")
    fits(outcomes[1], "BulkActionFailure_ErrorResponse_InternalNoteData")

    entries = _data(http.get(f"{base}/activitylog")) + _data(
        http.get("/v1/conversations/activitylog", params={"pageLimit": 500}))
    kinds = set()
    for entry in entries:
        fits(entry, "ActivityLogEntry")
        if entry["_type"] in ATTRIBUTES and "attributes" in entry:
            fits(entry["attributes"], ATTRIBUTES[entry["_type"]])
            kinds.add(entry["_type"])
    assert {"NoteAdded", "TagAdded", "TransferSuccessful", "ConversationRated",
            "ConversationLinkedFromChild", "MessageAddedByAgent"} <= kinds

    fits(_data(http.get("/v1/organization")), "OrganizationDetails")
    for channel in ("PstnPhone", "Email", "WidgetChat"):
        for flow in _data(http.get("/v1/conversations/flows", params={"channel": channel})):
            fits(flow, "ConversationFlow")
    templates = _data(http.get("/v1/templates", params={"pageLimit": 500}))
    assert templates
    for template in templates:
        fits(template, template["_type"])
