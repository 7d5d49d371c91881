"""The sandbox's organisation details."""

from __future__ import annotations

import httpx2

from frontdesk.api.models import Organization


def test_the_organisation_answers_its_details(http: httpx2.Client) -> None:
    response = http.get("/v1/organization")
    assert response.status_code == 200, response.text
    organisation = Organization.model_validate(response.json()["data"])
    assert (organisation.name, organisation.subdomain, organisation.status) == (
        "Acme Demo", "acme-demo", "Active")
    assert organisation.id == http.get("/v1/organization").json()["data"]["id"]
    assert http.post("/v1/organization").status_code == 405
