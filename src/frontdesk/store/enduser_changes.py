"""Changing end users: one profile (a full update, or a change of only what differs) and
many from a CSV file (new ones created, known ones updated), with a report per line.

**One profile.** The edit form shows the fields a person edits (display name, email, phone,
external id, first and last name) pre-filled. :func:`patch_enduser` sends only the fields
whose text differs from the record (an emptied field is cleared with ``null``; the display
name cannot be). :func:`update_enduser` replaces the record (PUT) with the form's fields
*and* the record's other fields as they are (additional emails and phone numbers, middle
names, avatar), because a full update clears every field it does not carry and the form
does not show those. Text the form pre-filled comes back unchanged while nobody edits it
(the input's ``kept_value``), so saving never rewrites a value nobody touched.

**A CSV.** The header names the columns (``id,displayName,email,phoneNumber,firstName,
lastName,externalId,avatarUrl,middleNames,additionalEmails,additionalPhoneNumbers``; case,
spaces and ``_`` do not matter; lists split on ``;``). A line with an ``id`` changes that end
user: its non-empty cells are sent as a patch, empty cells leave the field as it is. A line
without one creates an end user. Lines the console can tell are wrong (a bad email address,
an id that is not a UUID, the same id or new email twice) are reported and not sent.

The convention is :mod:`.people`'s: refusals raise :class:`~.people.Refused`. No Textual here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import ValidationError

from ..api.models import BulkActionOutcome, EndUser
from ..api.models.common import is_uuid
from ..api.models.endusers import BulkPatchEndUserItem, CreateEndUserInput
from .agents_csv import AGENT_CSV_COLUMNS, BULK_LIMIT, BulkReport, BulkRow
from .csv_files import CsvKind, line_fields, parse_csv, read_csv_file
from .errors import Refused, refusals
from .people import PeopleStore
from .people_checks import check_email, check_phone

__all__ = [
    "EDITABLE",
    "ENDUSER_CSV_COLUMNS",
    "EndUserCsvRow",
    "bulk_endusers",
    "bulk_endusers_csv",
    "parse_endusers_csv",
    "patch_enduser",
    "read_endusers",
    "read_endusers_csv",
    "update_enduser",
]

#: The fields the edit form shows, in its order.
EDITABLE: tuple[str, ...] = ("display_name", "email", "phone_number", "external_id",
                             "first_name", "last_name")
#: The record's fields a full update carries over unchanged (the form does not show them).
_CARRIED: tuple[str, ...] = ("additional_emails", "additional_phone_numbers", "middle_names",
                             "avatar_url")
#: CSV header → field (the agents' columns, plus the end user's id and external id).
ENDUSER_CSV_COLUMNS: dict[str, str] = {"id": "id", "externalid": "external_id",
                                       **AGENT_CSV_COLUMNS}
_ENDUSER_CSV = CsvKind(
    "end users", ENDUSER_CSV_COLUMNS,
    "id, displayName, email, phoneNumber, firstName, lastName, externalId, avatarUrl, "
    "middleNames, additionalEmails, additionalPhoneNumbers",
    lambda names: None if [n for n in names if n != "id"]
    else "The header must name at least one field besides id")


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def _changes(user: EndUser, values: Mapping[str, object]) -> dict[str, str | None]:
    """The form's fields whose text differs from the record (an emptied one as None)."""
    changes: dict[str, str | None] = {}
    for name in EDITABLE:
        if name not in values:
            continue
        new = _text(values[name])
        old = _text(getattr(user, name, None))
        if new != old:
            changes[name] = new or None
    return changes


def _check(fields: Mapping[str, str | None]) -> None:
    check_email(fields.get("email") or "")
    check_phone(fields.get("phone_number") or "")


async def patch_enduser(store: PeopleStore, user: EndUser, values: Mapping[str, object]
                        ) -> EndUser:
    """Send only what differs from ``user`` (PATCH); an emptied field is cleared."""
    changes = _changes(user, values)
    if not changes:
        raise Refused("Nothing changed")
    if "display_name" in changes and changes["display_name"] is None:
        raise Refused("The display name cannot be emptied (change it instead)")
    _check(changes)
    with refusals("Could not change the end user"):
        updated: EndUser = await store.client.endusers.patch(user.id, changes)
    store.remember(updated)
    return updated


async def update_enduser(store: PeopleStore, user: EndUser, values: Mapping[str, object]
                         ) -> EndUser:
    """Replace ``user`` (PUT) with the form's fields and the record's other fields as they
    are; an empty form field is cleared. The display name is required."""
    body: dict[str, Any] = {}
    for name in EDITABLE:
        text = _text(values[name]) if name in values else _text(getattr(user, name, None))
        if text:
            body[name] = text
    if not body.get("display_name"):
        raise Refused("A full update needs a display name")
    _check(body)
    for name in _CARRIED:
        kept = getattr(user, name, None)
        if kept:
            body[name] = kept
    with refusals("Could not update the end user"):
        updated: EndUser = await store.client.endusers.update(user.id, body)
    store.remember(updated)
    return updated


# ---------------------------------------------------------------------- CSV


@dataclass(frozen=True)
class EndUserCsvRow:
    """One data line of an end-users CSV: a creation or a change (by ``user_id``), its
    checked fields, or why the console refuses it."""

    line: int
    display_name: str
    email: str
    user_id: str = ""
    fields: dict[str, Any] = field(default_factory=dict)
    refusal: str = ""

    @property
    def kind(self) -> Literal["create", "update"]:
        """What the line asks for."""
        return "update" if self.user_id else "create"


def parse_endusers_csv(text: str) -> list[EndUserCsvRow]:
    """Read an end-users CSV into rows (see the module's docstring). A header naming a
    column nobody knows, or no column at all, refuses the whole file."""
    return parse_csv(text, _ENDUSER_CSV, _csv_row)


def read_endusers_csv(path: str) -> list[EndUserCsvRow]:
    """The rows of the end-users CSV at ``path`` (``~`` expanded; UTF-8, a BOM allowed)."""
    return parse_endusers_csv(read_csv_file(path))


def _csv_row(line: int, names: list[str], values: list[str], seen: dict[str, int]
             ) -> EndUserCsvRow:
    fields = line_fields(names, values)
    user_id = str(fields.pop("id", "")).lower()
    display_name = str(fields.get("display_name", ""))
    email = str(fields.get("email", ""))

    def refused(why: str) -> EndUserCsvRow:
        return EndUserCsvRow(line, display_name, email, user_id, refusal=why)

    if len(values) > len(names):
        return refused(f"{len(values)} values for {len(names)} columns")
    if user_id and not is_uuid(user_id):
        return refused("the id is not an end user id (a UUID)")
    if not fields:
        return refused("nothing to change" if user_id else "no field given")
    try:
        check_email(email)
    except Refused:
        return refused("the email address is not valid")
    mark = f"id {user_id}" if user_id else f"email {email.casefold()}" if email else ""
    earlier = seen.get(mark) if mark else None
    if earlier is not None:
        return refused(f"the same {'id' if user_id else 'email address'} as line {earlier}")
    try:
        if user_id:
            BulkPatchEndUserItem.model_validate({"id": user_id, **fields})
        else:
            CreateEndUserInput.model_validate(fields)
    except ValidationError as exc:
        problem = exc.errors()[0] if exc.errors() else None
        where = ".".join(str(p) for p in problem["loc"]).replace("_", " ") if problem else ""
        return refused(f"{where}: {problem['msg']}" if problem else "invalid")
    if mark:
        seen[mark] = line
    return EndUserCsvRow(line, display_name, email, user_id, fields)


async def read_endusers(path: str) -> list[EndUserCsvRow]:
    """The rows of an end users CSV file (read off the loop; ``Refused`` for a file that
    cannot be read as a whole)."""
    return await asyncio.to_thread(read_endusers_csv, path)


async def bulk_endusers_csv(store: PeopleStore, path: str) -> BulkReport:
    """Create and change the end users of a CSV file; one report row per line, in file
    order."""
    rows = await asyncio.to_thread(read_endusers_csv, path)
    return await bulk_endusers(store, rows)


async def bulk_endusers(store: PeopleStore, rows: Sequence[EndUserCsvRow]) -> BulkReport:
    """Send the creations and the changes (each in calls of at most 500) and report every
    row: created, updated, refused by the service (its reason) or not sent (why)."""
    report: dict[int, BulkRow] = {}
    for row in rows:
        if row.refusal:
            report[row.line] = BulkRow(row.line, row.display_name, row.email, False,
                                       "not sent: " + row.refusal, row.user_id or None)
    creates = [r for r in rows if not r.refusal and r.kind == "create"]
    updates = [r for r in rows if not r.refusal and r.kind == "update"]
    client = store.client
    for start in range(0, len(creates), BULK_LIMIT):
        chunk = creates[start:start + BULK_LIMIT]
        with refusals("Could not create the end users"):
            outcomes = await client.endusers.bulk_create([r.fields for r in chunk])
        _record(report, chunk, outcomes, "created")
    for start in range(0, len(updates), BULK_LIMIT):
        chunk = updates[start:start + BULK_LIMIT]
        with refusals("Could not update the end users"):
            outcomes = await client.endusers.bulk_patch(
                [{"id": r.user_id, **r.fields} for r in chunk])
        _record(report, chunk, outcomes, "updated")
    return BulkReport([report[r.line] for r in rows])


def _record(report: dict[int, BulkRow], chunk: Sequence[EndUserCsvRow],
            outcomes: Sequence[BulkActionOutcome[EndUser]], done: str) -> None:
    for index, row in enumerate(chunk):
        outcome = outcomes[index] if index < len(outcomes) else None
        if outcome is None:
            ok, detail, user_id = False, "the service gave no outcome", row.user_id or None
        elif outcome.ok:
            ok, detail = True, done
            user_id = outcome.data.id if outcome.data is not None else row.user_id or None
        else:
            error = outcome.error
            ok, user_id = False, row.user_id or None
            detail = error.message if error is not None else "refused by the service"
        report[row.line] = BulkRow(row.line, row.display_name, row.email, ok, detail, user_id)
