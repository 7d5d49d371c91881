"""Editing end users from People: one profile in a form (``e`` changes only the fields you
edit, ``E`` replaces the profile with what the form shows), and many from a CSV file (``b``:
new ones created, known ones — a line with an ``id`` — changed), with a report per line.

The form is pre-filled with the profile as the service has it; pre-filled text is shown
inert and sent back as it came while nobody edits it. What the rules are is
:mod:`frontdesk.store.enduser_changes`'.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from ....api.models import EndUser
from ....store.enduser_changes import (
    EndUserCsvRow,
    bulk_endusers,
    patch_enduser,
    read_endusers,
    update_enduser,
)
from ...answers import answer_of
from ..shared.common import people_store
from ..shared.confirm import ConfirmScreen
from ..shared.form import FormField, FormScreen, Values

__all__ = ["bulk_from_csv", "edit_enduser"]


def edit_enduser(screen: Screen[Any], user: EndUser, *, full: bool,
                 saved: Callable[[EndUser], None]) -> None:
    """Open the edit form for ``user``; ``saved`` gets the profile the service answered."""
    store = people_store(screen)

    async def submit(values: Values) -> None:
        if full:
            updated = await update_enduser(store, user, values)
        else:
            updated = await patch_enduser(store, user, values)
        saved(updated)

    title = "Edit end user (full update)" if full else "Change end user (only edited fields)"
    intro = ("Empty fields are cleared; additional emails, phone numbers and the avatar are "
             "kept." if full else "Only the fields you change are sent; an emptied field is "
                                  "cleared.")
    screen.app.push_screen(FormScreen(
        title,
        [FormField("display_name", "Display name", value=user.display_name or ""),
         FormField("email", "Email", value=user.email or "", placeholder="name@example.com"),
         FormField("phone_number", "Phone", value=user.phone_number or "",
                   placeholder="+4512345678"),
         FormField("external_id", "External id", value=user.external_id or "",
                   placeholder="the id in your CRM"),
         FormField("first_name", "First name", value=user.first_name or ""),
         FormField("last_name", "Last name", value=user.last_name or "")],
        submit, intro=intro, send_label="save",
        form_id="edit-enduser" if full else "patch-enduser"))


def bulk_from_csv(screen: Screen[Any], done: Callable[[], object]) -> None:
    """Ask for a CSV file's path, read it, say yes to how many end users it creates and
    changes, send it, then show the report (``done`` runs first, to reload the list)."""
    read: list[list[EndUserCsvRow]] = []

    async def submit(values: Values) -> None:
        read.append(await read_endusers(str(values.get("path", ""))))

    def closed(ok: bool | None) -> None:
        if ok and read:
            _ask_bulk(screen, read[-1], done)

    screen.app.push_screen(FormScreen(
        "Create and update end users from a CSV file",
        [FormField("path", "CSV file", placeholder="~/endusers.csv")],
        submit, send_label="read", form_id="bulk-endusers",
        intro="The first line names the columns: id,displayName,email,phoneNumber,"
              "externalId,firstName,lastName (any of them); at most 10,000 lines. A line "
              "with an id changes that end user (empty cells are left as they are); a line "
              "without one creates an end user. You are asked before anything is sent; "
              "every line gets a report."),
        closed)


def _ask_bulk(screen: Screen[Any], rows: list[EndUserCsvRow],
              done: Callable[[], object]) -> None:
    """How many end users the file creates and changes, asked before any is."""
    creates = sum(1 for r in rows if not r.refusal and r.kind == "create")
    updates = sum(1 for r in rows if not r.refusal and r.kind == "update")
    refused = len(rows) - creates - updates

    def send() -> None:
        screen.run_worker(_send(screen, rows, done), group="endusers-bulk", exclusive=True,
                          exit_on_error=False)

    if not creates and not updates:
        send()
        return
    what = " and ".join(part for part in (
        f"create {creates:,} end user{'s' if creates != 1 else ''}" if creates else "",
        f"change {updates:,} end user{'s' if updates != 1 else ''}" if updates else "")
        if part)
    detail = (f"{refused:,} other line{'s' if refused != 1 else ''} will be in the report, "
              "not sent. " if refused else "")
    screen.app.push_screen(ConfirmScreen(
        what[0].upper() + what[1:] + "?",
        detail + "Each line's outcome is shown when the service has answered."),
        lambda yes: send() if yes else None)


async def _send(screen: Screen[Any], rows: list[EndUserCsvRow],
                done: Callable[[], object]) -> None:
    from .bulk import BulkReportScreen

    report, refusal = await answer_of(bulk_endusers(people_store(screen), rows))
    if refusal is not None or report is None:
        screen.app.notify(str(refusal) if refusal else "Nothing was sent", severity="error",
                          markup=False)
        return
    created = sum(1 for r in report.rows if r.ok and r.detail == "created")
    updated = sum(1 for r in report.rows if r.ok and r.detail == "updated")
    done()
    screen.app.push_screen(BulkReportScreen(
        report, f"End users from the CSV: {created} created, {updated} updated, "
                f"{report.failed} not"))
