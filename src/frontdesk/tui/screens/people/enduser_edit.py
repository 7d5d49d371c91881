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
from ....store.agents_csv import BulkReport
from ....store.enduser_changes import bulk_endusers_csv, patch_enduser, update_enduser
from ..shared.common import people_store
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
    """Ask for a CSV file's path, send it, then show the report (``done`` runs first, to
    reload the list)."""
    store = people_store(screen)
    reports: list[BulkReport] = []

    async def submit(values: Values) -> None:
        reports.append(await bulk_endusers_csv(store, str(values.get("path", ""))))

    def closed(ok: bool | None) -> None:
        if ok and reports:
            from .bulk import BulkReportScreen

            report = reports[-1]
            created = sum(1 for r in report.rows if r.ok and r.detail == "created")
            updated = sum(1 for r in report.rows if r.ok and r.detail == "updated")
            done()
            screen.app.push_screen(BulkReportScreen(
                report, f"End users from the CSV: {created} created, {updated} updated, "
                        f"{report.failed} not"))

    screen.app.push_screen(FormScreen(
        "Create and update end users from a CSV file",
        [FormField("path", "CSV file", placeholder="~/endusers.csv")],
        submit, send_label="send", form_id="bulk-endusers",
        intro="The first line names the columns: id,displayName,email,phoneNumber,"
              "externalId,firstName,lastName (any of them). A line with an id changes that "
              "end user (empty cells are left as they are); a line without one creates an "
              "end user. Every line gets a report."),
        closed)
