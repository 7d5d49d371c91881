"""Anonymising an end user, from the list or from the profile: always asked, with the id
typed back; when the service refuses because conversations are still open, a second question
offers to close them first (``force``). The request is then followed live by the store.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from ....api.models import AnonymizationRequestStatus
from ....store.errors import Refusal, Refused
from ... import clock
from ..shared.common import people_store
from ..shared.confirm import ConfirmScreen, TypeBackScreen

Done = Callable[[AnonymizationRequestStatus], None]


def describe_request(status: AnonymizationRequestStatus) -> str:
    """``processed 09:00:05 UTC`` or ``waiting for the service``."""
    if status.processed_at is not None:
        return "processed " + clock.shown(status.processed_at, "minute")
    return "requested " + clock.shown(status.initiated_at) + \
        " · waiting for the service"


def ask_and_anonymize(screen: Screen[Any], user_id: str, name: str, done: Done) -> None:
    """Ask (id typed back), send, offer force when needed, then call ``done``."""

    async def send(force: bool) -> None:
        try:
            status = await people_store(screen).anonymize_enduser(user_id, force=force)
        except Refused as refusal:
            if refusal.kind is Refusal.NEEDS_FORCE:
                screen.app.push_screen(ConfirmScreen(
                    refusal.reason,
                    "Close their open conversations and anonymize anyway?"), forced)
            else:
                screen.notify(refusal.reason, severity="error", markup=False)
            return
        screen.notify(f"Anonymisation of {name} requested.", markup=False)
        done(status)

    def forced(yes: bool | None) -> None:
        if yes:
            screen.run_worker(send(True), group="anonymize", exclusive=True,
                              exit_on_error=False)

    def answered(yes: bool | None) -> None:
        if yes:
            screen.run_worker(send(False), group="anonymize", exclusive=True,
                              exit_on_error=False)

    screen.app.push_screen(TypeBackScreen(
        f"Anonymize {name}? Their personal data and their conversations are scrubbed for "
        "good; this cannot be undone.", user_id), answered)
