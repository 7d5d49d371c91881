"""The ratings of one conversation (opened from its thread): each question's status, Offered
or Rated, with score and comment. ``o`` offers a rating (Csat, Nps or thumbs), ``s`` (and the
palette's "Submit a rating result") submits a result for a rating id — for imports and
testing — and the palette reads the statuses through the deprecated path too, marked as such.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen

from ....api.models import ConversationRating
from ....store.ratings import RATING_RANGES, rating_time
from ....text import one_line, safe
from ... import clock
from ...answers import Regarding, answer_of
from ...offered import offered, offered_entries
from ...registry import owns_bindings
from ...widgets.safe import DataTable, Label, Static
from ...worker_failures import ReportsFailedWorkers
from ..shared.common import admin_store, cell, highlighted_key
from ..shared.form import FormField, FormScreen, Values
from ..shared.palette import PaletteCommands, PaletteEntry, palette_of

RATING_TYPES: tuple[tuple[str, str], ...] = (
    ("Csat — satisfaction, 1 to 5", "Csat"),
    ("Nps — would recommend, 0 to 10", "Nps"),
    ("Thumbs up or down", "ThumbsUpOrDown"),
)


@owns_bindings
class RatingsScreen(ModalScreen[None], ReportsFailedWorkers):
    """Offer ratings and see each question's status."""

    HELP_NAME = "Ratings"
    BINDINGS = [
        Binding("o", "offer", "Offer a rating", id="ratings.offer"),
        Binding("s", "submit", "Submit a result", id="ratings.submit"),
        Binding("r", "refresh", "Refresh", id="ratings.refresh"),
        Binding("escape", "close", "Close", id="ratings.close"),
    ]
    PALETTE: ClassVar[tuple[PaletteEntry, ...]] = (
        PaletteEntry("Offer a rating", "key: o", "offer"),
        PaletteEntry("Submit a rating result", "rating id, value and comment (key: s)",
                     "submit"),
        PaletteEntry("Rating statuses via the deprecated path (deprecated)",
                     "GET …/rating, replaced by …/ratings", "deprecated"),
    )

    def __init__(self, conversation_id: int) -> None:
        super().__init__()
        self.conversation_id = int(conversation_id)
        self.statuses: list[ConversationRating] = []
        self.source = "ratings"

    def compose(self) -> ComposeResult:
        with Vertical(id="ratings-box"):
            yield Label(f"Ratings of #{self.conversation_id}", id="ratings-title")
            table: DataTable[Any] = DataTable(id="ratings-table", cursor_type="row")
            table.add_columns("When", "Kind", "Status", "Score", "Comment")
            yield table
            yield Static("Loading…", id="ratings-problem")
            yield Label("o: offer    s: submit a result    r: refresh    esc: close",
                        id="ratings-hint")

    def on_mount(self) -> None:
        self.load()

    #: through a team gateway, submitting a result is an admin's (``tui/offered.py``)
    NEEDS: ClassVar[dict[str, str]] = {"submit": "ratings.submit"}

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """An action the member's role may not perform is not offered."""
        return offered(self, self.NEEDS, action)

    def palette_commands(self) -> PaletteCommands:
        """Offer, submit (when the role may), and the deprecated statuses."""
        return palette_of(self, offered_entries(self, self.NEEDS, self.PALETTE))

    # ------------------------------------------------------------------ statuses

    @work(exclusive=True, group="ratings-load", exit_on_error=False)
    async def load(self, deprecated: bool = False) -> None:
        """Read the statuses (through the deprecated path when asked)."""
        store = admin_store(self)
        read = store.rating_statuses_deprecated if deprecated else store.rating_statuses
        self.post_message(self.Loaded(deprecated, *await answer_of(read(self.conversation_id))))

    class Loaded(Regarding[bool, list[ConversationRating]]):
        """The statuses were read (``about``: through the deprecated path)."""

    def on_ratings_screen_loaded(self, message: Loaded) -> None:
        """The statuses listed, or why not on the screen's line."""
        if message.refusal is not None:
            self._say(message.refusal.reason, error=True)
            return
        self.statuses = message.value
        self.source = "deprecated" if message.about else "ratings"
        self._paint()

    def _paint(self) -> None:
        table = self.query_one("#ratings-table", DataTable)
        before = highlighted_key(table)
        table.clear()
        for index, status in enumerate(self.statuses):
            state = Text(status.rating_status,
                         style="green" if status.rating_status == "Rated" else "yellow")
            score = "—" if status.rating_score is None else str(status.rating_score)
            at = rating_time(status)
            table.add_row(Text(clock.shown(at, "day") if at else "—"),
                          cell(status.rating_type), state, score,
                          cell(status.rating_comment or "", 50), key=f"{index}:{status.id}")
        if before is not None:
            keys = [f"{i}:{s.id}" for i, s in enumerate(self.statuses)]
            if before in keys:
                table.move_cursor(row=keys.index(before))
        count = len(self.statuses)
        rated = sum(1 for s in self.statuses if s.rating_status == "Rated")
        text = f"{count} question{'s' if count != 1 else ''}, {rated} rated" if count else \
            "No rating offered yet: o offers one."
        if self.source == "deprecated":
            text += " — read through the deprecated path (GET …/rating)"
        self._say(text)

    def _say(self, text: str, *, error: bool = False) -> None:
        widget = self.query_one("#ratings-problem", Static)
        widget.update(safe(text))
        widget.set_class(error, "-error")

    # ------------------------------------------------------------------ actions

    def action_refresh(self) -> None:
        """Read the statuses again."""
        self.load()

    def action_deprecated(self) -> None:
        """Read the statuses through the deprecated path."""
        self.load(deprecated=True)

    def action_offer(self) -> None:
        """Pick a kind, then offer it."""
        store = admin_store(self)

        async def submit(values: Values) -> None:
            kind = str(values.get("type", ""))
            await store.offer_rating(self.conversation_id, kind)
            self.notify(f"{kind} rating offered to the customer.", markup=False)
            self.load()

        self.app.push_screen(FormScreen(
            f"Offer a rating for #{self.conversation_id}",
            [FormField("type", "Kind", "choice", "Csat", choices=RATING_TYPES)],
            submit, send_label="offer", form_id="offer-rating"))

    def action_submit(self) -> None:
        """Submit a result for a rating id (the highlighted rating's, by default)."""
        store = admin_store(self)
        table = self.query_one("#ratings-table", DataTable)
        key = highlighted_key(table)
        chosen = next((s for i, s in enumerate(self.statuses) if f"{i}:{s.id}" == key), None)
        if chosen is None:
            chosen = next((s for s in self.statuses if s.rating_status == "Offered"), None)

        def check(values: Values) -> str | None:
            kind = str(values.get("type", ""))
            value = str(values.get("value", "")).strip()
            if kind in RATING_RANGES and value:
                low, high, meaning = RATING_RANGES[kind]
                if not value.isdigit() or not low <= int(value) <= high:
                    return f"A {kind} value is {meaning}"
            return None

        async def submit(values: Values) -> None:
            result = await store.submit_rating(
                self.conversation_id, str(values.get("rating_id", "")),
                str(values.get("type", "")), str(values.get("value", "")),
                str(values.get("comment", "")))
            self.notify(f"Result {result.rating_result.value} submitted.", markup=False)
            self.load()

        kind = chosen.rating_type if chosen is not None and chosen.rating_type in RATING_RANGES \
            else "Csat"
        self.app.push_screen(FormScreen(
            "Submit a rating result",
            [FormField("rating_id", "Rating id", value=chosen.id if chosen is not None else "",
                       placeholder="the id of an offer"),
             FormField("type", "Kind", "choice", kind, choices=RATING_TYPES),
             FormField("value", "Value", placeholder="Csat 1 to 5 · Nps 0 to 10 · thumbs 0 or 1"),
             FormField("comment", "Comment", placeholder="optional")],
            submit, check=check, send_label="submit", form_id="submit-rating",
            intro="For imports and testing: records the customer's answer to an offer."))

    def action_close(self) -> None:
        """Close."""
        self.dismiss(None)


def describe(status: ConversationRating) -> str:
    """One status as a line (for the thread's head)."""
    score = "" if status.rating_score is None else f" {status.rating_score}"
    return f"{status.rating_type} {status.rating_status.lower()}{score}" + (
        f" · {one_line(status.rating_comment, 40)}" if status.rating_comment else "")
