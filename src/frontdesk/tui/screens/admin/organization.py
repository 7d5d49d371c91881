"""Admin → Organisation: whose service this is — the organisation's name, id, subdomain,
status and avatar address, as the service gives them (``r`` reads them again)."""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult

from ....api.models import Organization
from ....text import one_line, safe
from ...answers import Returned, answer_of
from ...widgets.safe import Static
from ..shared.common import session_of
from .pane import AdminPane


def describe_organization(org: Organization) -> str:
    """The organisation in full (markup-safe)."""
    rows = [("Name", org.name), ("Id", org.id), ("Subdomain", org.subdomain),
            ("Status", org.status), ("Avatar", org.avatar_url or "—")]
    return "\n".join(f"[b]{name:<10}[/b] {safe(one_line(value, 80))}" for name, value in rows)


class OrganizationPane(AdminPane):
    """The organisation section."""

    TITLE = "Organisation"

    def __init__(self) -> None:
        super().__init__("organization")
        self.organization: Organization | None = None

    def compose(self) -> ComposeResult:
        yield self.caption()
        yield Static("", id="organization-detail", classes="admin-main")

    def reload(self) -> None:
        """Read the organisation again."""
        self._load()

    class Loaded(Returned[Organization]):
        """The organisation was read."""

    @work(exclusive=True, group="organization-load", exit_on_error=False)
    async def _load(self) -> None:
        self.post_message(self.Loaded(
            *await answer_of(session_of(self).organization.organization())))

    def on_organization_pane_loaded(self, message: Loaded) -> None:
        """The organisation, or why it could not be read on the caption."""
        if message.refusal is not None:
            self.set_caption(message.refusal.reason)
            return
        org = message.value
        self.organization = org
        self.set_caption("The organisation this API key belongs to · r reads it again")
        self.query_one("#organization-detail", Static).update(describe_organization(org))
