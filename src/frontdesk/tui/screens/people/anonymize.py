"""Anonymising an end user, from the list or from the profile: always asked, with the id
typed back; when the service refuses because conversations are still open, a second question
offers to close them first (``force``). The request is then followed live by the store.
"""

from __future__ import annotations

from textual.widget import Widget

from ....api.models import AnonymizationRequestStatus
from ....store.errors import Refusal, Refused
from ... import clock
from ...answers import Returned, answer_of
from ..shared.common import people_store
from ..shared.confirm import ConfirmScreen, TypeBackScreen


def describe_request(status: AnonymizationRequestStatus) -> str:
    """``processed 09:00:05 UTC`` or ``waiting for the service``."""
    if status.processed_at is not None:
        return "processed " + clock.shown(status.processed_at, "minute")
    return "requested " + clock.shown(status.initiated_at) + \
        " · waiting for the service"


class Anonymized(Returned[AnonymizationRequestStatus]):
    """The service answered a request to anonymise an end user: the request's status, or
    why not. Posted to the widget that asked (its ``on_anonymized`` calls :func:`requested`)."""

    def __init__(self, user_id: str, name: str, status: AnonymizationRequestStatus | None,
                 refusal: Refused | None) -> None:
        super().__init__(status, refusal)
        self.user_id, self.name = user_id, name


def ask_and_anonymize(asker: Widget, user_id: str, name: str) -> None:
    """Ask (id typed back), then send; the answer reaches ``asker`` as :class:`Anonymized`."""

    def answered(yes: bool | None) -> None:
        if yes:
            _send(asker, user_id, name, force=False)

    asker.app.push_screen(TypeBackScreen(
        f"Anonymize {name}? Their personal data and their conversations are scrubbed for "
        "good; this cannot be undone.", user_id), answered)


def _send(asker: Widget, user_id: str, name: str, *, force: bool) -> None:
    async def send() -> None:
        asker.post_message(Anonymized(user_id, name, *await answer_of(
            people_store(asker).anonymize_enduser(user_id, force=force))))

    asker.run_worker(send(), group="anonymize", exclusive=True, exit_on_error=False)


def requested(asker: Widget, message: Anonymized) -> AnonymizationRequestStatus | None:
    """What ``asker`` says of the answer: the request made (said in a toast, its status
    returned to follow), or why not — when conversations are still open, a second question
    offers to close them first (``force``)."""
    refusal = message.refusal
    if refusal is None:
        asker.notify(f"Anonymisation of {message.name} requested.", markup=False)
        return message.value
    if refusal.kind is Refusal.NEEDS_FORCE:

        def forced(yes: bool | None) -> None:
            if yes:
                _send(asker, message.user_id, message.name, force=True)

        asker.app.push_screen(ConfirmScreen(
            refusal.reason, "Close their open conversations and anonymize anyway?"), forced)
    else:
        asker.notify(refusal.reason, severity="error", markup=False)
    return None
