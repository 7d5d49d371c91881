"""The figures of the sandbox's analytics: the aggregations of a metric over its rows, a
record as published (with its labels), and the values each filter can take."""

from __future__ import annotations

import math
import statistics
from typing import Any

from ..api.models.conversations import Channel
from .analytics import FILTERS, RecordSet, Row
from .context import SandboxContext
from .errors import bad_request
from .webhooks import upper_snake

__all__ = ["aggregates", "filter_values", "names", "record_out"]


def aggregates(record: RecordSet, found: list[Row], wanted: list[str] | None
               ) -> list[dict[str, Any]]:
    """The aggregations asked for (every one the metric has when none is named); a measure
    with no data to compute it from is left out, a count is 0."""
    measures = list(record.measures) if not wanted else list(dict.fromkeys(wanted))
    for measure in measures:
        if measure not in record.measures:
            raise bad_request(f"Invalid value in request: {record.id} has no {measure} "
                              f"(it has {', '.join(record.measures)})")
    values = [r.value for r in found if r.value is not None]
    out: list[dict[str, Any]] = []
    for measure in measures:
        if measure == "Count":
            out.append({"value": len(found), "measure": "Count",
                        "_type": "LongAggregateValue"})
            continue
        if not values:
            continue
        number = _compute(measure, values)
        out.append({"value": round(number, 3), "measure": measure,
                    "_type": "DoubleAggregateValue"})
    return out


def _compute(measure: str, values: list[float]) -> float:
    if measure == "Percentage":
        return 100.0 * sum(1 for v in values if v >= 4) / len(values)
    if measure == "Average":
        return statistics.fmean(values)
    if measure == "Median":
        return float(statistics.median(values))
    if measure == "Min":
        return min(values)
    if measure == "Max":
        return max(values)
    if measure == "Sum":
        return math.fsum(values)
    return statistics.pstdev(values)


def record_out(record: RecordSet, row: Row, queues: dict[str, str], people: dict[str, str]
               ) -> dict[str, Any]:
    """One record as published: main time, value, fields."""
    channel = upper_snake(row.channel)
    direction = upper_snake(row.direction)
    fields: list[dict[str, Any]] = [
        {"name": "csid", "field": {"value": row.csid, "_type": "LongField"}},
        {"name": "initial_channel", "field": {"value": channel, "label": _label(channel),
                                              "_type": "StringField"}},
        {"name": "initial_direction", "field": {"value": direction,
                                                "label": _label(direction),
                                                "_type": "StringField"}},
    ]
    if row.queue_id:
        fields.append({"name": "queue", "field": {
            "value": row.queue_id, "label": queues.get(row.queue_id, row.queue_id),
            "_type": "UUIDField"}})
    if row.agent_id:
        fields.append({"name": "agent", "field": {
            "value": row.agent_id, "label": people.get(row.agent_id, row.agent_id),
            "_type": "UUIDField"}})
    if row.left:
        fields.append({"name": "left_queue_at", "field": {"value": row.left,
                                                          "_type": "InstantField"}})
    out: dict[str, Any] = {"primaryTimestampField": {"name": record.time, "timestamp": row.at},
                           "fields": fields}
    if row.value is not None:
        out["value"] = ({"value": int(row.value), "_type": "LongField"} if record.id == "csat"
                        else {"value": round(row.value, 3), "_type": "DoubleField"})
    return out


#: How people name the channels (and directions) whose upper-case form reads badly.
_LABELS = {"WHATS_APP": "WhatsApp", "PSTN_PHONE": "Phone", "SMS": "SMS",
           "WIDGET_CHAT": "Chat", "FACEBOOK_MESSENGER": "Facebook Messenger"}


def _label(upper: str) -> str:
    return _LABELS.get(upper) or upper.replace("_", " ").capitalize()


def names(ctx: SandboxContext) -> tuple[dict[str, str], dict[str, str]]:
    """Queue and agent names by id (the labels of records)."""
    queues = {r["id"]: r["name"] for r in ctx.db.all("SELECT id, name FROM queues")}
    people = {r["id"]: r["display_name"] or r["email"] or r["id"] for r in ctx.db.all(
        "SELECT id, display_name, email FROM users WHERE kind = 'agent'")}
    return queues, people


def filter_values(ctx: SandboxContext, attribute: str) -> list[dict[str, str]]:
    """The values a filter attribute can take, with labels; a 400 for an unknown one."""
    if attribute == "channel":
        return [{"value": upper_snake(c.value), "label": _label(upper_snake(c.value))}
                for c in Channel]
    if attribute == "initial_direction":
        return [{"value": "INBOUND", "label": "Inbound"},
                {"value": "OUTBOUND", "label": "Outbound"}]
    tables = {"queue_id": "SELECT id, name AS label FROM queues ORDER BY name, id",
              "team_id": "SELECT id, name AS label FROM teams ORDER BY name, id",
              "tag_id": "SELECT id, name AS label FROM tags ORDER BY name, id",
              "agent_id": "SELECT id, COALESCE(display_name, email, id) AS label FROM users "
                          "WHERE kind = 'agent' ORDER BY label, id"}
    if attribute not in tables:
        raise bad_request(f"Invalid value in request: {attribute!r} is not a filter "
                          f"(one of {', '.join(FILTERS)})")
    return [{"value": r["id"], "label": r["label"]} for r in ctx.db.all(tables[attribute])]
