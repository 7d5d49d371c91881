"""Analytics computed from the sandbox's own data: every figure is a query over conversations,
messages and ratings as they are now, so whatever changes them (the API, the simulator, the
seed's weeks of history) moves the figures.

Each metric stands on one record set (the same id): the rows behind it, each with a main
time, an optional value (seconds, a score) and its conversation's channel, direction, queue
and agent. A period keeps the rows whose main time falls in it; filters keep the rows whose
conversation matches; the aggregations are computed over the values that are left.

    created_conversations   conversations created        (created_at)
    closed_conversations    conversations closed         (closed_at)
    waiting_conversations   conversations waiting in a queue now, unassigned (created_at;
                            the period bounds when they arrived; value: seconds waited)
    queue_waits             every stay in a queue, unassigned: from its arrival (arrived_at:
                            when it was queued, or created) until an agent took it or it was
                            closed (left_queue_at; none while it still waits); the period
                            keeps the stays that overlap it, so the number waiting at any
                            moment is the stays that began before it and had not ended by it
                            (value: seconds waited, so far for one still waiting)
    first_response_time     inbound conversations' first agent reply (created_at; seconds)
    handling_time           closed conversations, creation to close (closed_at; seconds)
    csat                    CSAT ratings given (submitted_at; the score 1 to 5); Percentage is
                            the share of 4s and 5s

Filters: ``queue_id``, ``channel`` (``EMAIL``, ``email`` or ``Email``), ``agent_id``,
``team_id`` (the assigned agent is in the team), ``initial_direction`` and ``tag_id``; a filter
a metric does not take is ignored, as published. ``Median`` is offered beside the published
measures.

Periods are :mod:`.analytics_periods`; the aggregations, records and filter values
:mod:`.analytics_figures`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..api.models.analytics import MetricRecordsInput
from .analytics_periods import period, zone
from .context import SandboxContext
from .db import from_iso, iso
from .errors import bad_request

FILTERS = {
    "queue_id": "the queue the conversation is in, or the last one it was in (before an "
                "agent took it or it was closed)",
    "channel": "the conversation's channel",
    "agent_id": "the agent the conversation is assigned to",
    "team_id": "a team of the assigned agent",
    "initial_direction": "INBOUND or OUTBOUND",
    "tag_id": "a tag of the conversation",
}
TIMING = ("Count", "Average", "Median", "Min", "Max", "Sum", "StdDev")
_MEASURES = {
    "Count": "how many",
    "Average": "the mean value",
    "Median": "the middle value",
    "Min": "the smallest value",
    "Max": "the largest value",
    "Sum": "the total",
    "StdDev": "the population standard deviation",
    "Percentage": "the share of satisfied customers (4 and 5), in per cent",
}


@dataclass(frozen=True)
class RecordSet:
    """The rows behind a metric, and how they are found."""

    id: str
    description: str
    metric: str
    time: str
    value: str | None
    measures: tuple[str, ...]
    fields: tuple[tuple[str, str, bool], ...]


_COMMON_FIELDS = (
    ("csid", "Conversation ID", False),
    ("initial_channel", "The conversation's channel", False),
    ("initial_direction", "Inbound or outbound", False),
    ("queue", "The queue the conversation is in", True),
    ("agent", "The agent the conversation is assigned to", True),
)

#: When a stay in a queue began and ended (NULL: it goes on), as SQL over ``conversations c``:
#: a conversation queued now arrived when it was queued (a transfer or a reopening queues it
#: again); one taken or closed since waited from its creation until an agent was assigned or,
#: never assigned, until it was closed or changed state.
_ARRIVED = "COALESCE(c.queued_at, c.created_at)"
#: The queue a conversation is in, or the last one it was in (claiming and closing take it
#: out of its queue; its figures still count for that queue).
_QUEUE = "COALESCE(c.queue_id, c.last_queue_id)"
_LEFT = ("(CASE WHEN c.queued_at IS NOT NULL AND c.assigned_agent_id IS NULL "
         "AND c.state = 'Open' THEN NULL "
         "WHEN c.assigned_agent_id IS NOT NULL THEN COALESCE(c.assigned_at, c.created_at) "
         "WHEN c.state = 'Closed' THEN COALESCE(c.closed_at, c.state_updated_at) "
         "ELSE COALESCE(c.state_updated_at, c.created_at) END)")

RECORD_SETS: dict[str, RecordSet] = {r.id: r for r in (
    RecordSet("created_conversations", "Conversations created", "Conversations created",
              "created_at", None, ("Count",), _COMMON_FIELDS),
    RecordSet("closed_conversations", "Closed conversation data", "Conversations closed",
              "closed_at", None, ("Count",), _COMMON_FIELDS),
    RecordSet("waiting_conversations", "Conversations waiting in a queue, unassigned, now",
              "Conversations waiting now (the period bounds when they arrived); value: "
              "seconds waited so far", "created_at", "seconds", TIMING, _COMMON_FIELDS),
    RecordSet("queue_waits", "Stays in a queue, unassigned: from arrival until an agent "
              "took the conversation or it was closed (none while it still waits); the period "
              "keeps the stays that overlap it",
              "Seconds each conversation waited in a queue, unassigned (so far, for one still "
              "waiting)", "arrived_at", "seconds", TIMING,
              (*_COMMON_FIELDS, ("left_queue_at", "When it left the queue (none while it "
                                                  "still waits)", True))),
    RecordSet("first_response_time", "Inbound conversations an agent has replied to",
              "Seconds from an inbound conversation's creation to the first agent reply",
              "created_at", "seconds", TIMING, _COMMON_FIELDS),
    RecordSet("handling_time", "Closed conversations and how long they were open",
              "Seconds from a conversation's creation to its close", "closed_at", "seconds",
              TIMING, _COMMON_FIELDS),
    RecordSet("csat", "Conversation ratings (CSAT)",
              "(Number of satisfied customers (4 and 5) / number of survey responses) x 100 "
              "= % of satisfied customers", "submitted_at", "score",
              ("Percentage", "Count", "Average"), _COMMON_FIELDS),
)}


def metric_shape(record: RecordSet) -> dict[str, Any]:
    """A metric of the catalogue."""
    return {"id": record.id, "description": record.metric,
            "filters": _filters_shape(),
            "aggregations": [{"measure": m, "description": _MEASURES[m]}
                             for m in record.measures],
            "relatedRecordIds": [record.id]}


def record_shape(record: RecordSet) -> dict[str, Any]:
    """A record set of the catalogue."""
    fields = [{"field": record.time, "description": "When it happened", "nullable": False}]
    fields += [{"field": name, "description": text, "nullable": nullable}
               for name, text, nullable in record.fields]
    return {"id": record.id, "description": record.description, "filters": _filters_shape(),
            "relatedMetricIds": [record.id], "fieldsMetadata": fields}


def _filters_shape() -> list[dict[str, str]]:
    return [{"filterAttribute": name, "description": f"Used to filter by {text}"}
            for name, text in FILTERS.items()]


# ------------------------------------------------------------------ rows


@dataclass(frozen=True)
class Row:
    """One record: its conversation, main time, value and what it is filtered by."""

    csid: int
    at: str
    value: float | None
    channel: str
    direction: str
    queue_id: str | None
    agent_id: str | None
    #: when a stay in a queue ended (queue_waits; None while it goes on)
    left: str | None = None


def rows(ctx: SandboxContext, record: RecordSet, query: MetricRecordsInput) -> list[Row]:
    """Every row of ``record`` the query keeps, by main time then conversation."""
    tz = zone(query.timezone)
    if query.period_filter is None and not query.csid_filter:
        raise bad_request("Invalid value in request: give periodFilter or csidFilter")
    now = ctx.clock.now()
    select, time = _select(record, iso(now))
    where: list[str] = []
    params: list[Any] = []
    if query.period_filter is not None:
        start, end = period(now, query.period_filter, tz)
        if record.id == "queue_waits":  # the stays that overlap the period
            where.append(f"{time} < ? AND ({_LEFT} IS NULL OR {_LEFT} > ?)")
            params += [iso(end), iso(start)]
        else:
            where.append(f"{time} >= ? AND {time} < ?")
            params += [iso(start), iso(end)]
    if query.csid_filter:
        where.append(f"c.id IN ({','.join('?' * len(query.csid_filter))})")
        params += query.csid_filter
    agent = "COALESCE(r.agent_id, c.assigned_agent_id)" if record.id == "csat" \
        else "c.assigned_agent_id"
    for item in query.filters:
        values = [v for v in item.values if v]
        if not values:
            continue
        marks = ",".join("?" * len(values))
        if item.attribute == "queue_id":
            where.append(f"lower({_QUEUE}) IN ({marks})")
            params += [v.lower() for v in values]
        elif item.attribute == "channel":
            where.append(f"lower(c.channel) IN ({marks})")
            params += [v.replace("_", "").lower() for v in values]
        elif item.attribute == "agent_id":
            where.append(f"lower({agent}) IN ({marks})")
            params += [v.lower() for v in values]
        elif item.attribute == "team_id":
            where.append(f"{agent} IN (SELECT agent_id FROM team_members "
                         f"WHERE lower(team_id) IN ({marks}))")
            params += [v.lower() for v in values]
        elif item.attribute == "initial_direction":
            where.append(f"upper(COALESCE(c.direction, 'Inbound')) IN ({marks})")
            params += [v.upper() for v in values]
        elif item.attribute == "tag_id":
            where.append("EXISTS (SELECT 1 FROM conversation_tags t WHERE "
                         f"t.conversation_id = c.id AND lower(t.tag_id) IN ({marks}))")
            params += [v.lower() for v in values]
    sql = select + "".join(f" AND {w}" for w in where) + f" ORDER BY {time}, c.id"
    out = []
    for row in ctx.db.all(sql, tuple(params)):
        out.append(Row(int(row["csid"]), row["at"], _value(record, row, now), row["channel"],
                       row["direction"] or "Inbound", row["queue_id"], row["agent_id"],
                       row["left_at"] if record.id == "queue_waits" else None))
    return out


def _select(record: RecordSet, now: str) -> tuple[str, str]:
    """The query of a record set (its WHERE continues with ``AND``) and its time column."""
    columns = (f"c.id AS csid, c.channel, c.direction, {_QUEUE} AS queue_id, "
               "c.assigned_agent_id AS "
               "agent_id, c.created_at, c.closed_at")
    if record.id == "created_conversations":
        return f"SELECT {columns}, c.created_at AS at FROM conversations c WHERE 1 = 1", \
            "c.created_at"
    if record.id in ("closed_conversations", "handling_time"):
        return (f"SELECT {columns}, c.closed_at AS at FROM conversations c "
                "WHERE c.closed_at IS NOT NULL AND c.state = 'Closed'"), "c.closed_at"
    if record.id == "waiting_conversations":
        return (f"SELECT {columns}, c.created_at AS at FROM conversations c "
                "WHERE c.state = 'Open' AND c.queue_id IS NOT NULL "
                "AND c.assigned_agent_id IS NULL"), "c.created_at"
    if record.id == "queue_waits":
        return (f"SELECT {columns}, {_ARRIVED} AS at, {_LEFT} AS left_at "
                "FROM conversations c WHERE COALESCE(c.direction, 'Inbound') = 'Inbound' "
                f"AND ({_LEFT} IS NULL OR {_LEFT} > {_ARRIVED})"), _ARRIVED
    if record.id == "first_response_time":
        first = ("(SELECT MIN(m.created_at) FROM messages m WHERE m.conversation_id = c.id "
                 "AND m.direction = 'Outbound' AND m.created_at >= c.created_at)")
        return (f"SELECT {columns}, c.created_at AS at, {first} AS first_reply "
                "FROM conversations c WHERE COALESCE(c.direction, 'Inbound') = 'Inbound' "
                f"AND {first} IS NOT NULL"), "c.created_at"
    return (f"SELECT c.id AS csid, c.channel, c.direction, {_QUEUE} AS queue_id, "
            "COALESCE(r.agent_id, c.assigned_agent_id) AS agent_id, r.score, "
            "r.submitted_at AS at FROM ratings r JOIN conversations c "
            "ON c.id = r.conversation_id WHERE r.rating_type = 'Csat' AND r.status = 'Rated' "
            "AND r.score IS NOT NULL AND r.submitted_at IS NOT NULL"), "r.submitted_at"


def _seconds(later: str, earlier: str) -> float:
    return max(0.0, (from_iso(later) - from_iso(earlier)).total_seconds())


def _value(record: RecordSet, row: Any, now: datetime) -> float | None:
    if record.id == "waiting_conversations":
        return _seconds(iso(now), row["created_at"])
    if record.id == "queue_waits":
        return _seconds(row["left_at"] or iso(now), row["at"])
    if record.id == "first_response_time":
        return _seconds(row["first_reply"], row["created_at"])
    if record.id == "handling_time":
        return _seconds(row["closed_at"], row["created_at"])
    if record.id == "csat":
        return float(row["score"])
    return None
