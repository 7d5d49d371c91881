"""Analytics: metrics (aggregated figures such as closed conversations or CSAT over a period)
and their records (the rows behind a figure), with the filters each one takes."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import Field

from .common import Input, Record, UtcDateTime


class FilterMetadata(Record):
    """A filter a metric or record takes (``filterAttribute``: ``queue_id``, ``channel``…)."""

    filter_attribute: str
    description: str | None = None


class AggregateMetadata(Record):
    """An aggregation a metric offers (``measure``: Count, Average, Percentage, …)."""

    measure: str
    description: str | None = None


class MetricMetadata(Record):
    """A metric of the catalogue: what it counts, its filters and aggregations."""

    id: str
    description: str | None = None
    filters: list[FilterMetadata] = Field(default_factory=list)
    aggregations: list[AggregateMetadata] = Field(default_factory=list)
    related_record_ids: list[str] = Field(default_factory=list)


class FieldMetadata(Record):
    """One field of a record."""

    field: str
    description: str
    nullable: bool


class RecordMetadata(Record):
    """A record set of the catalogue: the rows behind one or more metrics."""

    id: str
    description: str
    filters: list[FilterMetadata] = Field(default_factory=list)
    related_metric_ids: list[str] = Field(default_factory=list)
    fields_metadata: list[FieldMetadata] = Field(default_factory=list)


class FilterValue(Record):
    """A value a filter attribute can take, with its label."""

    value: str
    label: str | None = None


class AggregateValue(Record):
    """One aggregate of a metric: ``LongAggregateValue`` (a count) or
    ``DoubleAggregateValue``."""

    type: str | None = Field(default=None, alias="_type")
    measure: str | None = None
    value: Any = None


class MetricData(Record):
    """A metric's figures for the period and filters asked."""

    id: str
    aggregates: list[AggregateValue] = Field(default_factory=list)

    def value(self, measure: str) -> float | None:
        """The number of one measure, or None when the metric had none (no data)."""
        for aggregate in self.aggregates:
            if aggregate.measure == measure and isinstance(aggregate.value, int | float):
                return float(aggregate.value)
        return None


class TimestampField(Record):
    """A record's main time (``name``: created_at, closed_at, …)."""

    name: str
    timestamp: UtcDateTime


class FieldValue(Record):
    """A typed value: ``_type`` LongField, DoubleField, StringField, UUIDField, …"""

    type: str | None = Field(default=None, alias="_type")
    value: Any = None
    label: str | None = None


class RecordField(Record):
    """A named field of a record."""

    name: str
    field: FieldValue | None = None


class MetricRecord(Record):
    """One row behind a metric: its main time, its value (if it has one) and its fields."""

    primary_timestamp_field: TimestampField
    value: FieldValue | None = None
    fields: list[RecordField] = Field(default_factory=list)

    def get(self, name: str) -> FieldValue | None:
        """The field called ``name``, if the record has it."""
        return next((f.field for f in self.fields if f.name == name), None)


# ------------------------------------------------------------------ inputs

PresetName = Literal["Today", "Yesterday", "ThisWeek", "PreviousWeek", "ThisMonth",
                     "PreviousMonth", "ThisQuarter", "PreviousQuarter", "ThisYear"]


class PresetValue(Input):
    """The name of a preset period."""

    type: PresetName = Field(alias="_type")


class PeriodPreset(Input):
    """A period named relative to now, in the request's ``timezone``."""

    type: Literal["Preset"] = Field(default="Preset", alias="_type")
    value: PresetValue


class PeriodInterval(Input):
    """A period from ``start`` (included) to ``end`` (excluded)."""

    type: Literal["Interval"] = Field(default="Interval", alias="_type")
    start: UtcDateTime
    end: UtcDateTime


PeriodFilter = Annotated[PeriodPreset | PeriodInterval, Field(discriminator="type")]


class MetricFilter(Input):
    """Only what has one of ``values`` for ``attribute`` (``queue_id``, ``channel``, …)."""

    attribute: str = Field(min_length=1, max_length=100)
    values: list[str] = Field(default_factory=list, max_length=500)


class MetricRecordsInput(Input):
    """Which records: of a period, or of given conversations (``csidFilter``)."""

    id: str = Field(min_length=1, max_length=100)
    period_filter: PeriodFilter | None = None
    csid_filter: list[Annotated[int, Field(ge=1, le=2**63 - 1)]] | None = Field(
        default=None, min_length=1, max_length=1000)
    filters: list[MetricFilter] = Field(default_factory=list, max_length=20)
    timezone: str = Field(default="UTC", min_length=1, max_length=64)


class MetricDataInput(MetricRecordsInput):
    """Which figures of a metric: its records' filters and the aggregations wanted (none:
    every aggregation the metric has)."""

    aggregations: list[str] | None = Field(default=None, max_length=10)


def interval(start: datetime, end: datetime) -> dict[str, Any]:
    """A ``periodFilter`` from ``start`` to ``end``."""
    return PeriodInterval(start=start, end=end).wire()


def preset(name: PresetName) -> dict[str, Any]:
    """A ``periodFilter`` named by a preset (``Today``, ``PreviousWeek``, …)."""
    return {"_type": "Preset", "value": {"_type": name}}


__all__ = [
    "AggregateMetadata",
    "AggregateValue",
    "FieldMetadata",
    "FieldValue",
    "FilterMetadata",
    "FilterValue",
    "MetricData",
    "MetricDataInput",
    "MetricFilter",
    "MetricMetadata",
    "MetricRecord",
    "MetricRecordsInput",
    "PeriodFilter",
    "PeriodInterval",
    "PeriodPreset",
    "PresetName",
    "PresetValue",
    "RecordField",
    "RecordMetadata",
    "TimestampField",
]
