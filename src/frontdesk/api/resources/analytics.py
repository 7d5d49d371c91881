"""Analytics: the catalogues of metrics and records, filter values, a metric's figures and the
records behind them."""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator, Mapping
from typing import Any

import httpx2

from ..models.analytics import (
    FilterValue,
    MetricData,
    MetricDataInput,
    MetricMetadata,
    MetricRecord,
    MetricRecordsInput,
    RecordMetadata,
)
from ..operations import operation
from ..pacing import Priority
from ._base import Page, Resource, build, check_text_id, parse_one, unwrap

__all__ = ["AnalyticsResource"]

_METRICS = operation("analytics.list_metrics")
_METRIC = operation("analytics.get_metric")
_DATA = operation("analytics.metric_data")
_FILTER = operation("analytics.filter_values")
_RECORDS = operation("analytics.list_records")
_RECORD = operation("analytics.get_record")
_ROWS = operation("analytics.records")


class AnalyticsResource(Resource):
    """``client.analytics``: metrics and their records. (Published beyond the spec's
    tables.) Figures are reads: they are retried like any read, and screens ask for them at a
    background priority."""

    async def list_metrics(self, *, priority: Priority = Priority.INTERACTIVE
                           ) -> builtins.list[MetricMetadata]:
        """Every metric of the catalogue."""
        return await self._all(_METRICS, MetricMetadata, priority)

    async def get_metric(self, metric_id: str, *, priority: Priority = Priority.INTERACTIVE
                         ) -> MetricMetadata:
        """One metric: its filters and aggregations."""
        path = {"metricId": check_text_id(metric_id, _METRIC, "metric id")}
        reply = await self._transport.send(_METRIC, path=path, priority=priority)
        return parse_one(_METRIC, unwrap(_METRIC, reply.body), MetricMetadata)

    async def metric_data(self, query: MetricDataInput | Mapping[str, Any], *,
                          priority: Priority = Priority.INTERACTIVE) -> MetricData:
        """A metric's figures: ``{"id": …, "periodFilter": …, "filters": […],
        "aggregations": […], "timezone": …}`` (or ``csidFilter`` instead of a period)."""
        body = build(_DATA, MetricDataInput, query)
        reply = await self._transport.send(_DATA, body=body.wire(), priority=priority)
        return parse_one(_DATA, unwrap(_DATA, reply.body), MetricData)

    async def filter_values(self, attribute: str, *, priority: Priority = Priority.INTERACTIVE
                            ) -> builtins.list[FilterValue]:
        """The values a filter attribute (``queue_id``, ``channel``, …) can take."""
        path = {"filterAttribute": check_text_id(attribute, _FILTER, "filter attribute")}
        return await self._all(_FILTER, FilterValue, priority, path=path)

    async def list_records(self, *, priority: Priority = Priority.INTERACTIVE
                           ) -> builtins.list[RecordMetadata]:
        """Every record set of the catalogue."""
        return await self._all(_RECORDS, RecordMetadata, priority)

    async def get_record(self, record_id: str, *, priority: Priority = Priority.INTERACTIVE
                         ) -> RecordMetadata:
        """One record set: its filters and fields."""
        path = {"recordId": check_text_id(record_id, _RECORD, "record id")}
        reply = await self._transport.send(_RECORD, path=path, priority=priority)
        return parse_one(_RECORD, unwrap(_RECORD, reply.body), RecordMetadata)

    async def records(self, query: MetricRecordsInput | Mapping[str, Any], *,
                      page_size: int | None = None,
                      priority: Priority = Priority.INTERACTIVE) -> AsyncIterator[MetricRecord]:
        """Every record the query keeps, oldest first, page by page."""
        body = build(_ROWS, MetricRecordsInput, query).wire()

        async def fetch(key: str | None, url: httpx2.URL | None) -> Page[MetricRecord]:
            return await self._fetch_page(_ROWS, MetricRecord, body=body, page_size=page_size,
                                          page_key=key, priority=priority, url=url)

        async for record in self._iterate(fetch, _ROWS):
            yield record

    async def records_page(self, query: MetricRecordsInput | Mapping[str, Any], *,
                           page_size: int | None = None, page_key: str | None = None,
                           priority: Priority = Priority.INTERACTIVE) -> Page[MetricRecord]:
        """One page of records; pass the previous page's ``next_key`` for the next."""
        body = build(_ROWS, MetricRecordsInput, query).wire()
        return await self._fetch_page(_ROWS, MetricRecord, body=body, page_size=page_size,
                                      page_key=page_key, priority=priority)

    async def _all(self, op: Any, model: Any, priority: Priority,
                   path: Mapping[str, str] | None = None) -> builtins.list[Any]:
        items: builtins.list[Any] = []
        key: str | None = None
        while True:
            page = await self._fetch_page(op, model, path=path, page_size=500, page_key=key,
                                          priority=priority)
            items.extend(page.items)
            if page.next_key is None or page.next_key == key:
                return items
            key = page.next_key
