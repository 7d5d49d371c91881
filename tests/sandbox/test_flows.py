"""The sandbox's conversation flows: one channel's at a time, PstnPhone by default."""

from __future__ import annotations

import httpx2

from frontdesk.api.models import ConversationFlow


def test_flows_by_channel(http: httpx2.Client) -> None:
    default = http.get("/v1/conversations/flows")
    assert default.status_code == 200, default.text
    phone = [ConversationFlow.model_validate(f) for f in default.json()["data"]]
    assert [f.contact_endpoint_id for f in phone] == ["+4570201234", "+12025550143"]
    assert {f.channel for f in phone} == {"PstnPhone"}
    email = http.get("/v1/conversations/flows", params={"channel": "Email"}).json()["data"]
    assert [f["contactEndpointId"] for f in email] == [
        "support@acme-demo.example", "billing@acme-demo.example", "partners@acme-demo.example"]
    endpoints = {e["address"] for e in http.get("/v1/contact-endpoints").json()["data"]
                 if "address" in e}
    assert {f["contactEndpointId"] for f in email} <= endpoints
    assert http.get("/v1/conversations/flows", params={"channel": "Twitter"}).json() == {
        "data": []}
    refused = http.get("/v1/conversations/flows", params={"channel": "Fax"})
    assert refused.status_code == 400 and set(refused.json()) == {"message"}
    assert http.post("/v1/conversations/flows").status_code == 405
