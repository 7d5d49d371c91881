"""The sandbox's linked conversations: a child names its parent, the parent lists its
children, and the published limits hold (one parent, no grandchildren, 100 children)."""

from __future__ import annotations

import httpx2
from factories_conversations import create_chat, org, stored_conversation

from frontdesk.api.models import Conversation
from frontdesk.sandbox.server import SandboxServer


def test_linking_and_its_limits(http: httpx2.Client, sandbox: SandboxServer) -> None:
    world = org(sandbox)
    parent, child, other, grandchild = (create_chat(http, world.requester) for _ in range(4))

    def link(cid: int, parent_id: object, link_type: object = "SideConversation"
             ) -> httpx2.Response:
        return http.put(f"/v1/conversations/{cid}/link",
                        json={"parentId": parent_id, "linkType": link_type})

    assert http.get(f"/v1/conversations/{parent}/linked").json() == {"data": []}
    assert link(child, parent).status_code == 204
    assert link(other, parent, "Related").status_code == 204
    children = http.get(f"/v1/conversations/{parent}/linked").json()["data"]
    assert [c["id"] for c in children] == [child, other]
    assert [Conversation.model_validate(c).link.type for c in children  # type: ignore[union-attr]
            ] == ["SideConversation", "Related"]
    assert all(c["link"]["parentId"] == parent for c in children)
    assert http.get(f"/v1/conversations/{child}").json()["data"]["link"] == {
        "parentId": parent, "_type": "SideConversation"}
    assert link(child, parent, "Related").status_code == 204  # same parent: the type changes
    log = http.get(f"/v1/conversations/{parent}/activitylog").json()["data"]
    assert {"child": child, "parent": parent, "linkType": "Related"} in [
        e.get("attributes") for e in log if e["_type"] == "ConversationLinkedFromChild"]

    refusals = {
        "own parent": link(parent, parent),
        "second parent": link(child, other),
        "child as parent": link(grandchild, child),
        "parent as child": link(parent, grandchild),
        "unknown parent": link(grandchild, 987654321),
        "unknown type": link(grandchild, parent, "Sibling"),
        "parent as text": link(grandchild, str(parent)),
        "no parent": http.put(f"/v1/conversations/{grandchild}/link",
                              json={"linkType": "Related"}),
    }
    for case, response in refusals.items():
        assert response.status_code == 400, (case, response.text)
        assert set(response.json()) == {"message"}
    assert link(987654321, parent).status_code == 404
    assert http.get("/v1/conversations/987654321/linked").status_code == 404
    assert http.get(f"/v1/conversations/{grandchild}").json()["data"].get("link") is None


def test_a_parent_takes_at_most_100_children(http: httpx2.Client,
                                             sandbox: SandboxServer) -> None:
    world = org(sandbox)
    parent = create_chat(http, world.requester)
    for _ in range(100):
        cid = stored_conversation(sandbox, world.requester, channel="WidgetChat",
                                  type="ChatConversation", state="Open",
                                  link=f'{{"parentId": {parent}, "_type": "Related"}}')
    assert len(http.get(f"/v1/conversations/{parent}/linked").json()["data"]) == 100
    extra = create_chat(http, world.requester)
    refused = http.put(f"/v1/conversations/{extra}/link",
                       json={"parentId": parent, "linkType": "Related"})
    assert refused.status_code == 400 and "100" in refused.json()["message"]
    again = http.put(f"/v1/conversations/{cid}/link",
                     json={"parentId": parent, "linkType": "SideConversation"})
    assert again.status_code == 204  # an existing child may change its link's type
