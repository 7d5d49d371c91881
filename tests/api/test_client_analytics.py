"""client.analytics against the sandbox: catalogues, filter values, figures and records (paged),
and each published error (refused before sending where the client can tell)."""

from __future__ import annotations

import pytest

from frontdesk.api import ApiClient, InvalidRequest, NotFound, Pacer
from frontdesk.api.models.analytics import interval, preset
from frontdesk.sandbox.server import SandboxServer


async def test_analytics_end_to_end(sandbox: SandboxServer) -> None:
    async with ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False)) as client:
        metrics = await client.analytics.list_metrics()
        records = await client.analytics.list_records()
        csat = await client.analytics.get_metric("csat")
        closed = await client.analytics.get_record("closed_conversations")
        queues = await client.analytics.filter_values("queue_id")
        now = sandbox.clock.now()
        from datetime import timedelta

        week = interval(now - timedelta(days=7), now)
        created = await client.analytics.metric_data(
            {"id": "created_conversations", "periodFilter": week, "timezone": "UTC"})
        first_queue = await client.analytics.metric_data(
            {"id": "created_conversations", "periodFilter": week, "timezone": "UTC",
             "filters": [{"attribute": "queue_id", "values": [queues[0].value]}]})
        today = await client.analytics.metric_data(
            {"id": "first_response_time", "periodFilter": preset("ThisMonth"),
             "timezone": "Europe/Copenhagen", "aggregations": ["Median", "Count"]})
        rows = [r async for r in client.analytics.records(
            {"id": "created_conversations", "periodFilter": week, "timezone": "UTC"},
            page_size=40)]
        page = await client.analytics.records_page(
            {"id": "created_conversations", "periodFilter": week, "timezone": "UTC"},
            page_size=5)
        for bad in (client.analytics.metric_data({"id": "csat", "period": "today"}),
                    client.analytics.get_metric("a/b"),
                    client.analytics.records_page({"id": "csat", "csidFilter": []})):
            with pytest.raises(InvalidRequest) as caught:
                await bad
            assert caught.value.status is None
        for refused in (client.analytics.metric_data({"id": "nope", "periodFilter": week}),
                        client.analytics.filter_values("colour")):
            with pytest.raises(InvalidRequest) as caught:
                await refused
            assert caught.value.status == 400
        with pytest.raises(NotFound):
            await client.analytics.get_metric("nope")
    assert {m.id for m in metrics} == {r.id for r in records}
    assert "Percentage" in {a.measure for a in csat.aggregations}
    assert "closed_at" in {f.field for f in closed.fields_metadata}
    count = created.value("Count")
    assert count is not None and count > 40 and len(rows) == count
    assert (first_queue.value("Count") or 0) < count
    assert today.value("Count") is not None
    assert len(page.items) == 5 and page.has_more
    stamps = [r.primary_timestamp_field.timestamp for r in rows]
    assert stamps == sorted(stamps)
    csid = rows[0].get("csid")
    assert csid is not None and isinstance(csid.value, int)
