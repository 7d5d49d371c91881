"""Sandbox routes: analytics (published beyond the spec's tables) — the catalogues of metrics
and records, filter values, and figures and records computed from the sandbox's data
(``sandbox/analytics.py`` says how each one is computed)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from starlette.responses import Response

from ...api.models import (
    Envelope,
    FilterValue,
    MetricData,
    MetricDataInput,
    MetricMetadata,
    MetricRecord,
    MetricRecordsInput,
    PagedEnvelope,
    RecordMetadata,
)
from .. import analytics, analytics_figures
from ..context import Ctx, decode_page_key, encode_page_key, ok, page_limit, page_meta
from ..errors import bad_request, not_found
from .endusers import PageKey, PageLimit

router = APIRouter(tags=["analytics"])

MetricIdPath = Annotated[str, Path(alias="metricId", max_length=100, description="a metric id")]
RecordIdPath = Annotated[str, Path(alias="recordId", max_length=100, description="a record id")]
AttributePath = Annotated[str, Path(alias="filterAttribute", max_length=100,
                                    description="a filter attribute (queue_id, channel, …)")]
_UNKNOWN_PAGE = "Invalid value in request: pageKey is not a key this service made"


def _offset(key: str | None) -> int:
    """Where a page starts (lists here are computed whole, then sliced)."""
    offset = (decode_page_key(key) or {"o": 0}).get("o")
    if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
        raise bad_request(_UNKNOWN_PAGE)
    return offset


def _meta(request: Request, offset: int, size: int, total: int) -> dict[str, str] | None:
    more = offset + size < total
    return page_meta(request, encode_page_key({"o": offset + size}) if more else None, size)


def _page(request: Request, items: list[Any], limit: int | None, key: str | None) -> Response:
    """One page of a short list (a catalogue, filter values)."""
    size, offset = page_limit(limit), _offset(key)
    return ok(items[offset:offset + size], meta=_meta(request, offset, size, len(items)))


def _record_set(record_id: str) -> analytics.RecordSet:
    found = analytics.RECORD_SETS.get(record_id)
    if found is None:
        raise not_found(f"Metric or record {record_id!r}")
    return found


def _asked(record_id: str) -> analytics.RecordSet:
    found = analytics.RECORD_SETS.get(record_id)
    if found is None:
        raise bad_request(f"Invalid value in request: {record_id!r} is not a metric or record "
                          f"(one of {', '.join(analytics.RECORD_SETS)})")
    return found


@router.get("/v1/analytics/metrics", response_model=PagedEnvelope[MetricMetadata],
            summary="The metrics catalogue")
async def list_metrics(request: Request, limit: PageLimit = None, key: PageKey = None
                       ) -> Response:
    """Every metric, with its filters and aggregations."""
    items = [analytics.metric_shape(r) for r in analytics.RECORD_SETS.values()]
    return _page(request, items, limit, key)


@router.post("/v1/analytics/metrics", response_model=Envelope[MetricData],
             summary="A metric's figures",
             responses={400: {"description": "An unknown metric, measure, timezone or period"}})
async def metric_data(ctx: Ctx, body: MetricDataInput) -> Response:
    """The metric's aggregations over the rows the period (or conversations) and filters
    keep."""
    record = _asked(body.id)
    found = analytics.rows(ctx, record, body)
    return ok({"id": record.id,
               "aggregates": analytics_figures.aggregates(record, found, body.aggregations)})


@router.get("/v1/analytics/metrics/{metricId}", response_model=Envelope[MetricMetadata],
            summary="A metric's description", responses={404: {"description": "No such metric"}})
async def get_metric(metric_id: MetricIdPath) -> Response:
    """One metric: its filters and aggregations."""
    return ok(analytics.metric_shape(_record_set(metric_id)))


@router.get("/v1/analytics/filter/{filterAttribute}", response_model=PagedEnvelope[FilterValue],
            summary="The values of a filter",
            responses={400: {"description": "Not a filter attribute"}})
async def filter_values(ctx: Ctx, request: Request, attribute: AttributePath,
                        limit: PageLimit = None, key: PageKey = None) -> Response:
    """The values a filter attribute can take, with their labels."""
    return _page(request, analytics_figures.filter_values(ctx, attribute), limit, key)


@router.get("/v1/analytics/records", response_model=PagedEnvelope[RecordMetadata],
            summary="The records catalogue")
async def list_records(request: Request, limit: PageLimit = None, key: PageKey = None
                       ) -> Response:
    """Every record set, with its filters and fields."""
    items = [analytics.record_shape(r) for r in analytics.RECORD_SETS.values()]
    return _page(request, items, limit, key)


@router.post("/v1/analytics/records", response_model=PagedEnvelope[MetricRecord],
             summary="The rows behind a metric",
             responses={400: {"description": "An unknown record, timezone or period"}})
async def records_data(ctx: Ctx, request: Request, body: MetricRecordsInput,
                       limit: PageLimit = None, key: PageKey = None) -> Response:
    """The rows the period (or conversations) and filters keep, oldest first, paged."""
    record = _asked(body.id)
    found = analytics.rows(ctx, record, body)
    queues, people = analytics_figures.names(ctx)
    size, offset = page_limit(limit), _offset(key)
    items = [analytics_figures.record_out(record, r, queues, people)
             for r in found[offset:offset + size]]
    return ok(items, meta=_meta(request, offset, size, len(found)))


@router.get("/v1/analytics/records/{recordId}", response_model=Envelope[RecordMetadata],
            summary="A record set's description",
            responses={404: {"description": "No such record"}})
async def get_record(record_id: RecordIdPath) -> Response:
    """One record set: its filters and fields."""
    return ok(analytics.record_shape(_record_set(record_id)))
