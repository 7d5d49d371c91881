"""Admin → Audit (through a team gateway, for admins): what members wrote through the gateway,
newest first — when, who (email and role), which operation, on what, and what came of it (the
service's status; "refused" by the gateway, "pending", "failed" or "unknown").
``/`` filters by member (an email or member id; empty: everyone), ``m`` reads older entries.
Every field is the gateway's (and, through it, any member's) text: cleaned like all such."""

from __future__ import annotations

from typing import Any

from textual import work
from textual.app import ComposeResult

from ....api.models import AuditEntry
from ....store.admin import AuditPage
from ...answers import Regarding, answer_of
from ...clock import shown
from ...widgets.safe import DataTable, Input
from ..shared.common import cell, session_of
from .pane import AdminPane


class AuditPane(AdminPane):
    """The audit section."""

    TITLE = "Audit"

    def __init__(self) -> None:
        super().__init__("audit")
        #: the member the list is filtered by ('' : everyone)
        self.member = ""
        #: the key of the page after the last one read (None: nothing older)
        self.next_key: str | None = None
        self.count = 0

    def compose(self) -> ComposeResult:
        yield self.caption()
        yield Input(placeholder="Member (email or id), enter to filter; empty: everyone",
                    id="audit-member")
        table: DataTable[Any] = DataTable(id="audit-table", cursor_type="row",
                                          zebra_stripes=True, classes="admin-main")
        table.add_columns("When", "Member", "Role", "Operation", "On", "Answer")
        yield table

    def reload(self) -> None:
        """Read the newest entries again (of the member filtered by)."""
        self._load(self.member, None)

    def filter(self) -> None:
        """Put the cursor in the member filter."""
        self.query_one("#audit-member", Input).focus()

    def more(self) -> None:
        """Read the next (older) page, when there is one."""
        if self.next_key is not None:
            self._load(self.member, self.next_key)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """``enter`` in the filter: the list of that member (everyone when empty)."""
        if event.input.id == "audit-member":
            event.stop()
            self.member = event.value.strip()
            self._load(self.member, None)
            self.focus_main()

    class Loaded(Regarding[tuple[str, str | None], AuditPage]):
        """A page of the audit was read (``about``: the member and the page's key)."""

    @work(exclusive=True, group="audit-load", exit_on_error=False)
    async def _load(self, member: str, page_key: str | None) -> None:
        self.set_caption("Loading…")
        answer = await answer_of(session_of(self).admin.audit(member, page_key))
        self.post_message(self.Loaded((member, page_key), *answer))

    def on_audit_pane_loaded(self, message: Loaded) -> None:
        """The entries (added after those shown when older ones were asked for), or why
        they could not be read on the caption."""
        if message.refusal is not None:
            self.set_caption(message.refusal.reason)
            return
        member, page_key = message.about
        page = message.value
        table = self.query_one("#audit-table", DataTable)
        if page_key is None:
            table.clear()
            self.count = 0
        for entry in page.entries:
            table.add_row(cell(shown(entry.at, "minute"), 16), cell(entry.email, 32),
                          cell(entry.role, 10), cell(entry.operation, 34),
                          cell(", ".join(entry.targets), 30), cell(_outcome(entry), 12))
        self.count += len(page.entries)
        self.next_key = page.next_key
        who = f" by {member}" if member else ""
        more = " · m: older" if page.next_key is not None else ""
        entries = "1 entry" if self.count == 1 else f"{self.count} entries"
        self.set_caption(f"{entries}{who}, newest first · /: filter by member{more}")
        self.screen.refresh_bindings()  # m only while there is more


def _outcome(entry: AuditEntry) -> str:
    """The answer's status, and the state when the write is not simply done ("403 refused",
    "unknown": it may have been done)."""
    status = str(entry.status) if entry.status else ""
    state = entry.state if entry.state not in (None, "done") else ""
    return " ".join(part for part in (status, state or "") if part) or "—"
