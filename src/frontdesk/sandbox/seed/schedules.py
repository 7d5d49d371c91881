"""The business-hours schedules every organisation has: three time zones, holidays and
exceptions."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from ..db import Database
from ..records import insert_schedule, insert_schedule_entry
from .values import new_uuid

_SCHEDULES = (
    ("Copenhagen support", "Europe/Copenhagen",
     {1: [("08:00", "17:00")], 2: [("08:00", "17:00")], 3: [("08:00", "17:00")],
      4: [("08:00", "17:00")], 5: [("08:00", "15:30")], 6: [], 7: []},
     ("Christmas Day", 25, 12)),
    ("New York sales", "America/New_York",
     {1: [("09:00", "18:00")], 2: [("09:00", "18:00")], 3: [("09:00", "18:00")],
      4: [("09:00", "18:00")], 5: [("09:00", "18:00")], 6: [("10:00", "14:00")]},
     ("Independence Day", 4, 7)),
    ("Tokyo partners 東京", "Asia/Tokyo",
     {1: [("09:00", "12:00"), ("13:00", "18:00")], 2: [("09:00", "12:00"), ("13:00", "18:00")],
      3: [("09:00", "12:00"), ("13:00", "18:00")], 4: [("09:00", "12:00"), ("13:00", "18:00")],
      5: [("09:00", "12:00"), ("13:00", "17:00")]},
     ("New Year's Day", 1, 1)),
)
_DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def build_schedules(db: Database, rng: random.Random, now: datetime) -> None:
    """Three schedules in three time zones, each with a holiday; the first has exceptions."""
    since = (now - timedelta(days=365)).date().isoformat()
    for position, (name, zone, week, (holiday, day, month)) in enumerate(_SCHEDULES):
        schedule_id = insert_schedule(db, id=new_uuid(rng), name=name, timezone=zone,
                                      position=position)
        for weekday, hours in week.items():
            insert_schedule_entry(db, schedule_id=schedule_id, kind="Regular",
                                  name=_DAY_NAMES[weekday - 1], day_of_week=weekday,
                                  status="Open" if hours else "Closed", intervals=hours,
                                  start_date=since)
        insert_schedule_entry(db, schedule_id=schedule_id, kind="Holiday", name=holiday,
                              status="Closed", start_date=since,
                              recurring={"dayOfMonth": day, "monthOfYear": month})
        if position == 0:
            # A one-off shortened day ten days ahead, so the upcoming days show an exception.
            insert_schedule_entry(db, schedule_id=schedule_id, kind="Exception",
                                  name="Staff training (short day)",
                                  start_date=(now + timedelta(days=10)).date().isoformat(),
                                  intervals=[("08:00", "12:00")])
            insert_schedule_entry(db, schedule_id=schedule_id, kind="Exception",
                                  name="Christmas Eve", start_date=since,
                                  intervals=[("09:00", "13:00")],
                                  recurring={"dayOfMonth": 24, "monthOfYear": 12})

