"""The sandbox's analytics: known conversations give known figures (created, closed, waiting,
first response, handling time, CSAT; by period, channel, queue, agent and team), the records
behind them, the catalogues and filter values, and each published error."""

from __future__ import annotations

from typing import Any

import httpx2
from factories_conversations import advance, create_chat, create_email, org, outbound
from test_published_shapes import fits

from frontdesk.sandbox.server import SandboxServer

TODAY = {"_type": "Preset", "value": {"_type": "Today"}}


def _figures(http: httpx2.Client, metric: str, **query: Any) -> dict[str, float]:
    body = {"id": metric, "periodFilter": TODAY, "timezone": "UTC", **query}
    response = http.post("/v1/analytics/metrics", json=body)
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    fits(response.json(), "GetMetricDataOutput")
    return {a["measure"]: a["value"] for a in data["aggregates"]}


def _rate(http: httpx2.Client, cid: int, score: int) -> None:
    offer = http.post(f"/v1/conversations/{cid}/ratings/offer", json={"ratingType": "Csat"})
    assert offer.status_code == 200, offer.text
    submitted = http.post(f"/v1/conversations/{cid}/ratings/{offer.json()['data']['id']}/submit",
                          json={"ratingResult": {"_type": "Csat", "value": score}})
    assert submitted.status_code < 300, submitted.text


def test_known_conversations_give_known_figures(empty_http: httpx2.Client,
                                                empty_sandbox: SandboxServer) -> None:
    http, sandbox = empty_http, empty_sandbox
    world = org(sandbox)
    team = http.post("/v1/teams", json={"name": "Stats team"}).json()["data"]["id"]
    assert http.patch(f"/v1/teams/{team}/agents", json={"agentIds": [world.agent]}
                      ).status_code < 300
    # 09:00 a chat arrives; the agent claims it, replies a minute later, closes at 09:05
    chat = create_chat(http, world.requester)
    http.put(f"/v1/conversations/{chat}/claim", json={"agentId": world.agent})
    advance(sandbox, 60)
    http.post(f"/v1/conversations/{chat}/messages", json=outbound(world.agent))
    # 09:01 an email arrives; another agent replies two minutes later and keeps it
    email = create_email(http, world.requester)
    advance(sandbox, 120)
    http.put(f"/v1/conversations/{email}/claim", json={"agentId": world.other_agent})
    http.post(f"/v1/conversations/{email}/messages", json=outbound(world.other_agent))
    advance(sandbox, 120)
    assert http.put(f"/v1/conversations/{chat}/close").status_code == 204
    # 09:05 a chat arrives and waits in the queue
    waiting = create_chat(http, world.requester)
    _rate(http, chat, 5)
    _rate(http, email, 2)
    advance(sandbox, 60)

    assert _figures(http, "created_conversations") == {"Count": 3}
    assert _figures(http, "closed_conversations") == {"Count": 1}
    assert _figures(http, "waiting_conversations", aggregations=["Count", "Max"]) == {
        "Count": 1, "Max": 60.0}
    assert _figures(http, "first_response_time") == {
        "Count": 2, "Average": 90.0, "Median": 90.0, "Min": 60.0, "Max": 120.0, "Sum": 180.0,
        "StdDev": 30.0}
    assert _figures(http, "handling_time", aggregations=["Average"]) == {"Average": 300.0}
    assert _figures(http, "csat") == {"Percentage": 50.0, "Count": 2, "Average": 3.5}
    email_only = [{"attribute": "channel", "values": ["email"]}]
    assert _figures(http, "created_conversations", filters=email_only) == {"Count": 1}
    assert _figures(http, "first_response_time", filters=email_only,
                    aggregations=["Median"]) == {"Median": 120.0}
    by_team = [{"attribute": "team_id", "values": [team]}]
    assert _figures(http, "csat", filters=by_team, aggregations=["Percentage"]) == {
        "Percentage": 100.0}
    by_agent = [{"attribute": "agent_id", "values": [world.other_agent]}]
    assert _figures(http, "first_response_time", filters=by_agent,
                    aggregations=["Count"]) == {"Count": 1}
    other_queue = [{"attribute": "queue_id", "values": [world.queue]}]
    assert _figures(http, "waiting_conversations", filters=other_queue) == {"Count": 0}
    # claiming and closing take a conversation out of its queue: its figures stay the queue's
    arrived_in = sandbox.query("SELECT queue_id FROM conversations WHERE id = ?",
                               (waiting,))[0]["queue_id"]
    by_queue = [{"attribute": "queue_id", "values": [arrived_in]}]
    assert _figures(http, "created_conversations", filters=by_queue) == {"Count": 3}
    assert _figures(http, "closed_conversations", filters=by_queue) == {"Count": 1}
    assert _figures(http, "closed_conversations", filters=other_queue) == {"Count": 0}
    ignored = [{"attribute": "contact_point", "values": ["x"]}]
    assert _figures(http, "created_conversations", filters=ignored) == {"Count": 3}
    yesterday = {"_type": "Preset", "value": {"_type": "Yesterday"}}
    assert _figures(http, "created_conversations", periodFilter=yesterday) == {"Count": 0}
    assert _figures(http, "first_response_time", periodFilter=yesterday) == {"Count": 0}
    week = {"_type": "Interval", "start": "2026-01-01T00:00:00Z", "end": "2026-01-08T00:00:00Z"}
    assert _figures(http, "created_conversations", periodFilter=week) == {"Count": 3}
    del_period = {"id": "created_conversations", "csidFilter": [chat, waiting],
                  "timezone": "Europe/Copenhagen"}
    assert http.post("/v1/analytics/metrics", json=del_period).json()["data"]["aggregates"] \
        == [{"value": 2, "measure": "Count", "_type": "LongAggregateValue"}]

    # the records behind a figure, paged, oldest first
    body = {"id": "first_response_time", "periodFilter": TODAY, "timezone": "UTC"}
    first = http.post("/v1/analytics/records", params={"pageLimit": 1}, json=body)
    assert first.status_code == 200, first.text
    fits(first.json(), "GetMetricRecordsDataOutput")
    assert first.json()["meta"]["next"]
    key = first.json()["meta"]["next"].split("pageKey=")[1]
    second = http.post("/v1/analytics/records", params={"pageLimit": 1, "pageKey": key},
                       json=body).json()
    assert "meta" not in second
    rows = first.json()["data"] + second["data"]
    assert [r["value"]["value"] for r in rows] == [60.0, 120.0]
    fields = {f["name"]: f["field"] for f in rows[1]["fields"]}
    assert fields["csid"]["value"] == email and fields["initial_channel"]["value"] == "EMAIL"
    assert fields["agent"]["value"] == world.other_agent
    assert rows[0]["primaryTimestampField"] == {"name": "created_at",
                                                "timestamp": "2026-01-05T09:00:00.000Z"}
    ratings = http.post("/v1/analytics/records", json={**body, "id": "csat"}).json()["data"]
    assert sorted(r["value"]["value"] for r in ratings) == [2, 5]

    # stays in the queue: the email waited 09:01 to 09:03, the last chat from 09:05 on (the
    # first chat was claimed as it arrived: no stay); a period keeps the stays overlapping it
    assert _figures(http, "queue_waits", aggregations=["Count", "Sum"]) == {
        "Count": 2, "Sum": 180.0}
    stays = http.post("/v1/analytics/records", json={**body, "id": "queue_waits"})
    fits(stays.json(), "GetMetricRecordsDataOutput")
    by_csid = {r["fields"][0]["field"]["value"]: r for r in stays.json()["data"]}
    assert set(by_csid) == {email, waiting}
    left = {f["name"]: f["field"] for f in by_csid[email]["fields"]}["left_queue_at"]
    assert left == {"value": "2026-01-05T09:03:00.000Z", "_type": "InstantField"}
    assert by_csid[email]["primaryTimestampField"] == {
        "name": "arrived_at", "timestamp": "2026-01-05T09:01:00.000Z"}
    assert "left_queue_at" not in {f["name"] for f in by_csid[waiting]["fields"]}
    late = {"_type": "Interval", "start": "2026-01-05T09:04:00Z",
            "end": "2026-01-05T09:05:30Z"}
    assert _figures(http, "queue_waits", periodFilter=late) == {
        "Count": 1, "Average": 60.0, "Median": 60.0, "Min": 60.0, "Max": 60.0, "Sum": 60.0,
        "StdDev": 0.0}


def test_catalogues_filters_and_errors(http: httpx2.Client) -> None:
    metrics = http.get("/v1/analytics/metrics")
    fits(metrics.json(), "GetMetricsOutput")
    ids = [m["id"] for m in metrics.json()["data"]]
    assert {"created_conversations", "closed_conversations", "waiting_conversations",
            "first_response_time", "handling_time", "csat", "queue_waits"} == set(ids)
    paged = http.get("/v1/analytics/metrics", params={"pageLimit": 2}).json()
    assert len(paged["data"]) == 2 and "next" in paged["meta"]
    records = http.get("/v1/analytics/records")
    fits(records.json(), "GetMetricRecordsOutput")
    assert [r["id"] for r in records.json()["data"]] == ids
    fits(http.get("/v1/analytics/metrics/csat").json(), "GetMetricOutput")
    fits(http.get("/v1/analytics/records/csat").json(), "GetMetricRecordOutput")
    for attribute in ("channel", "queue_id", "agent_id", "team_id", "tag_id",
                      "initial_direction"):
        values = http.get(f"/v1/analytics/filter/{attribute}")
        fits(values.json(), "GetFilterValuesOutput")
        assert values.json()["data"], attribute
    channels = http.get("/v1/analytics/filter/channel").json()["data"]
    assert {"value": "PSTN_PHONE", "label": "Phone"} in channels

    # the seed's weeks of history: every one of the last 14 days has conversations
    days = []
    for back in range(14):
        start = f"2026-01-{5 - back:02d}" if back < 5 else f"2025-12-{31 - (back - 5):02d}"
        period = {"_type": "Interval", "start": f"{start}T00:00:00Z",
                  "end": f"{start}T23:59:59Z"}
        days.append(_figures(http, "created_conversations", periodFilter=period)["Count"])
    assert all(count > 0 for count in days), days
    week = {"_type": "Preset", "value": {"_type": "PreviousWeek"}}
    assert _figures(http, "closed_conversations", periodFilter=week)["Count"] > 0
    assert _figures(http, "csat", periodFilter={"_type": "Preset", "value": {
        "_type": "ThisYear"}}, timezone="Europe/Copenhagen")["Count"] >= 0

    for bad in ({"id": "nope", "periodFilter": TODAY, "timezone": "UTC"},
                {"id": "csat", "timezone": "UTC"},
                {"id": "csat", "periodFilter": TODAY, "timezone": "Mars/Olympus"},
                {"id": "csat", "periodFilter": TODAY, "timezone": "UTC",
                 "aggregations": ["Median"]},
                {"id": "csat", "periodFilter": {"_type": "Preset", "value": {
                    "_type": "NextWeek"}}, "timezone": "UTC"},
                {"id": "csat", "periodFilter": {"_type": "Interval",
                                                "start": "2026-01-02T00:00:00Z",
                                                "end": "2026-01-01T00:00:00Z"},
                 "timezone": "UTC"},
                {"id": "csat", "csidFilter": [], "timezone": "UTC"}):
        response = http.post("/v1/analytics/metrics", json=bad)
        assert response.status_code == 400, (bad, response.text)
        assert set(response.json()) == {"message"}
    assert http.post("/v1/analytics/records", json={"id": "nope", "periodFilter": TODAY}
                     ).status_code == 400
    assert http.post("/v1/analytics/records", params={"pageKey": "nope"}, json={
        "id": "csat", "periodFilter": TODAY}).status_code == 400
    assert http.get("/v1/analytics/filter/favourite_colour").status_code == 400
    assert http.get("/v1/analytics/metrics", params={"pageLimit": 0}).status_code == 400
    assert http.get("/v1/analytics/metrics/nope").status_code == 404
    assert http.get("/v1/analytics/records/nope").status_code == 404
