"""The sandbox's contact endpoints: the list, its type filter, and one by address or number."""

from __future__ import annotations

import uuid
from typing import Any

import httpx2
import pytest

from frontdesk.api.models import ContactEndpoint
from frontdesk.sandbox import records
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.server import SandboxServer


def make_endpoints(sandbox: SandboxServer) -> dict[str, str]:
    """An email endpoint and a phone endpoint no other test row uses."""
    tag = uuid.uuid4().hex[:8]
    digits = str(uuid.uuid4().int)[:9]

    def write(ctx: SandboxContext) -> dict[str, str]:
        with ctx.db.tx():
            email = records.insert_contact_endpoint(
                ctx.db, address=f"support-{tag}@shop.test", name="Support",
                sender_override=f"help-{tag}@shop.test")
            phone = records.insert_contact_endpoint(
                ctx.db, number=f"+45{digits[:8]}", name="Hotline",
                functionality=["VoiceInbound", "VoiceOutbound"])
            bare = records.insert_contact_endpoint(ctx.db, number=f"+1{digits}")
        return {"email": email, "phone": phone, "bare": bare}

    return sandbox.call(write)


def message(response: httpx2.Response) -> str:
    body = response.json()
    assert set(body) == {"message"}
    return str(body["message"])


def test_list_and_filter(http: httpx2.Client, sandbox: SandboxServer) -> None:
    mine = make_endpoints(sandbox)
    everything = http.get("/v1/contact-endpoints")
    assert everything.status_code == 200
    listed = [ContactEndpoint.model_validate(e) for e in everything.json()["data"]]
    by_key = {e.key: e for e in listed}
    email = by_key[mine["email"]]
    assert email.type == "EmailEndpoint"
    assert (email.name, email.sender_override, email.number) == (
        "Support", mine["email"].replace("support", "help"), None)
    phone = by_key[mine["phone"]]
    assert phone.type == "TelephonyEndpoint"
    assert phone.functionality == ["VoiceInbound", "VoiceOutbound"]
    assert everything.json()["data"][[e.key for e in listed].index(mine["bare"])] == {
        "_type": "TelephonyEndpoint", "number": mine["bare"]}  # no id, nothing empty

    emails = http.get("/v1/contact-endpoints", params={"_type": "EmailEndpoint"}).json()["data"]
    phones = http.get("/v1/contact-endpoints",
                      params={"_type": "TelephonyEndpoint"}).json()["data"]
    assert {e["_type"] for e in emails} == {"EmailEndpoint"}
    assert {e["_type"] for e in phones} == {"TelephonyEndpoint"}
    assert len(emails) + len(phones) == len(listed)
    bad = http.get("/v1/contact-endpoints", params={"_type": "FaxEndpoint"})
    assert bad.status_code == 400
    assert "EmailEndpoint" in message(bad)


def test_read_one(http: httpx2.Client, sandbox: SandboxServer) -> None:
    mine = make_endpoints(sandbox)
    email = http.get(f"/v1/contact-endpoints/{mine['email']}")
    assert email.status_code == 200
    assert email.json()["data"]["address"] == mine["email"]
    shouted = http.get(f"/v1/contact-endpoints/{mine['email'].upper()}")
    assert shouted.json()["data"]["address"] == mine["email"]  # addresses ignore case
    phone = http.get(f"/v1/contact-endpoints/{mine['phone']}")
    assert phone.status_code == 200
    assert ContactEndpoint.model_validate(phone.json()["data"]).number == mine["phone"]
    encoded = http.get("/v1/contact-endpoints/" + mine["phone"].replace("+", "%2B"))
    assert encoded.json() == phone.json()


@pytest.mark.parametrize("key", ["nobody@nowhere.test", "+4500000000"])
def test_unknown_is_404(http: httpx2.Client, key: str) -> None:
    assert http.get(f"/v1/contact-endpoints/{key}").status_code == 404


@pytest.mark.parametrize("key", ["support", "4512345678", "+0123", "+1234567890123456",
                                 "a@b", "12@", "+45 1234"])
def test_neither_address_nor_number_is_400(http: httpx2.Client, key: str) -> None:
    response = http.get(f"/v1/contact-endpoints/{key}")
    assert response.status_code == 400
    assert "E.164" in message(response)


def test_records_refuse_an_ambiguous_endpoint(sandbox: SandboxServer) -> None:
    def write(ctx: SandboxContext) -> Any:
        with ctx.db.tx():
            return records.insert_contact_endpoint(ctx.db, address="a@b.test", number="+4511")

    with pytest.raises(ValueError):
        sandbox.call(write)
