"""The sandbox's internal notes: written by an agent (or the key's admin), listed oldest first,
a bulk answering one outcome per note, refusals that write nothing, and anonymisation that
takes their text."""

from __future__ import annotations

import httpx2
from factories_conversations import count_rows, create_chat, org

from frontdesk.api.models import BulkActionOutcome, InternalNote
from frontdesk.sandbox.server import SandboxServer

UNKNOWN = "00000000-0000-4000-8000-00000000abcd"


def test_notes_are_written_listed_and_refused(http: httpx2.Client,
                                              sandbox: SandboxServer) -> None:
    world = org(sandbox)
    cid = create_chat(http, world.requester)
    url = f"/v1/conversations/{cid}/notes"
    assert http.get(url).json() == {"data": []}

    mine = http.post(url, json={"message": "Customer is a VIP", "agentId": world.agent})
    assert mine.status_code == 200, mine.text
    note = InternalNote.model_validate(mine.json()["data"])
    assert (note.author_id, note.csid, note.message) == (world.agent, cid, "Customer is a VIP")
    assert mine.json()["data"]["createdAt"].endswith("Z[GMT]")
    dated = http.post(url, json={"message": "Called them back",
                                 "createdAt": "2021-12-01T12:46:36.581Z[GMT]"})
    assert dated.status_code == 200, dated.text
    assert dated.json()["data"]["authorId"] == sandbox.call(lambda ctx: ctx.api_user_id)

    listed = [n["message"] for n in http.get(url).json()["data"]]
    assert listed == ["Called them back", "Customer is a VIP"]  # oldest first

    # a year before 1000 is written in four digits, and sorts by time, not as text
    ancient = http.post(url, json={"message": "Ancient", "createdAt": "0192-09-01T04:12:11Z"})
    assert ancient.status_code == 200, ancient.text
    assert ancient.json()["data"]["createdAt"] == "0192-09-01T04:12:11.000Z[GMT]"
    listed_now = http.get(url).json()["data"]
    assert [InternalNote.model_validate(n).message for n in listed_now] == [
        "Ancient", "Called them back", "Customer is a VIP"]

    before = count_rows(sandbox, "notes")
    for body in ({}, {"message": ""}, {"message": "   "}, {"message": 5},
                 {"message": "x", "agentId": UNKNOWN}, {"message": "x", "agentId": "nope"},
                 {"message": "x", "agentId": world.requester},
                 {"message": "x", "createdAt": "yesterday"}):
        refused = http.post(url, json=body)
        assert refused.status_code == 400, (body, refused.text)
        assert set(refused.json()) == {"message"}
    assert count_rows(sandbox, "notes") == before
    assert http.get("/v1/conversations/987654321/notes").status_code == 404
    assert http.post("/v1/conversations/987654321/notes",
                     json={"message": "x"}).status_code == 404
    assert http.get("/v1/conversations/abc/notes").status_code == 400
    assert http.delete(url).status_code == 405


def test_a_bulk_of_notes_answers_one_outcome_each(http: httpx2.Client,
                                                  sandbox: SandboxServer) -> None:
    world = org(sandbox)
    cid = create_chat(http, world.requester)
    url = f"/v1/conversations/{cid}/notes/bulk"
    response = http.post(url, json={"data": [
        {"message": "A sample note", "agentId": world.agent,
         "createdAt": "2021-12-01T12:46:36.581Z[GMT]"},
        {"message": "Nobody wrote this", "agentId": UNKNOWN},
        {"message": "Another sample note"},
    ]})
    assert response.status_code == 200, response.text
    outcomes = [BulkActionOutcome[InternalNote].model_validate(o)
                for o in response.json()["data"]]
    assert outcomes[0].data is not None and outcomes[0].data.csid == cid
    assert [o.ok for o in outcomes] == [True, False, True]
    assert outcomes[1].error is not None and UNKNOWN in outcomes[1].error.message
    assert response.json()["data"][1]["error"].keys() == {"message"}  # as published
    assert [n["message"] for n in http.get(f"/v1/conversations/{cid}/notes").json()["data"]
            ] == ["A sample note", "Another sample note"]
    bad: list[dict[str, object]] = [{"data": []}, {"data": "x"}, {}, {"data": [{"message": 1}]}]
    for body in bad:
        assert http.post(url, json=body).status_code == 400, body
    assert http.post("/v1/conversations/987654321/notes/bulk",
                     json={"data": [{"message": "x"}]}).status_code == 404


def test_anonymising_a_conversation_takes_its_notes_text(http: httpx2.Client,
                                                         sandbox: SandboxServer) -> None:
    world = org(sandbox)
    cid = create_chat(http, world.requester)
    http.post(f"/v1/conversations/{cid}/notes", json={"message": "Lives at 12 Elm St"})
    response = http.patch(f"/v1/conversations/{cid}/anonymize", params={"force": "true"})
    assert response.status_code in (200, 202), response.text
    sandbox.run_pending(everything=True)
    notes = http.get(f"/v1/conversations/{cid}/notes").json()["data"]
    assert [n["message"] for n in notes] == [""]
    log = http.get(f"/v1/conversations/{cid}/activitylog").json()["data"]
    assert "Elm St" not in str(log)
