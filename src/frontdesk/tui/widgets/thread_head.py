"""The head of an open thread: who, where, in what state, and how the customer rated it.

Two lines above the messages::

    #1042 · WhatsApp · Open · Jane Doe · jane@example.com · +44 20 7946 0000
    Assigned to Demo Agent · Support · tags billing, vip · Csat offered

and, while the conversation waits unassigned in a queue, its place in line instead of the
assignee ("3rd in Support, waiting 12 min").

The head is rebuilt from the thread's state on every change the store reports, but the widget
is only refreshed when the text it shows actually differs: most polls change the messages and
leave the head alone. Everything a customer or another system wrote (names, addresses, tags)
goes through :func:`frontdesk.text.one_line` and into a Rich ``Text`` as plain strings, so
markup shows literally and escape sequences arrive inert.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from ...api.models import Conversation, ConversationPosition, ConversationRating
from ...channels import channel_name
from ...text import one_line
from ..clock import ago
from ..tag_colors import tags_text

__all__ = ["HeadFacts", "ThreadHead", "describe_position", "describe_rating", "ordinal"]

_ID: Final = Style(bold=True)
_DIM: Final = Style(dim=True)
_NAME: Final = Style(bold=True)
_WARN: Final = Style(color="yellow")
_STATE_STYLES: Final[dict[str, Style]] = {
    "Open": Style(color="green", bold=True),
    "Pending": Style(color="yellow"),
    "AwaitingPending": Style(color="yellow"),
    "Closed": Style(dim=True),
}
_STATE_NAMES: Final[dict[str, str]] = {"AwaitingPending": "Awaiting pending"}
_SCALES: Final[dict[str, int]] = {"Csat": 5, "Nps": 10}
_FIELD: Final = 48  # widest name, address or tag list shown


@dataclass(frozen=True)
class HeadFacts:
    """What the head shows, gathered from the thread state and the directory."""

    conversation_id: int
    conversation: Conversation | None
    requester: str = ""
    assignee: str = ""
    queue: str = ""
    tags: tuple[str, ...] = ()
    ratings: tuple[ConversationRating, ...] = ()
    position: ConversationPosition | None = None
    missing: bool = False
    #: the thread has not been fetched yet
    loading: bool = False
    #: why the last fetch of the thread failed ("" when it did not)
    problem: str = ""
    #: the tags' colours (``#rrggbb`` or None), in ``tags`` order
    tag_colors: tuple[str | None, ...] = ()
    #: the linked conversations in words (parent, children), "" when none
    links: str = ""


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``22nd``."""
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def describe_position(position: ConversationPosition, queue: str,
                      now: Callable[[], datetime]) -> str:
    """``3rd in Support, waiting 12 min`` (the service's position is approximate)."""
    waited = ago(position.queued_at, reference=now())
    waiting = "waiting" if waited == "now" else f"waiting {waited}"
    where = f"in {queue}" if queue else "in the queue"
    if position.position is None:
        return f"Waiting {where}" + ("" if waited == "now" else f" for {waited}")
    return f"{ordinal(position.position)} {where}, {waiting}"


def describe_rating(rating: ConversationRating) -> str:
    """``Csat offered``, ``Rated 4/5``, ``Nps rated 9/10``, ``Thumbs up``."""
    kind = "Thumbs" if rating.rating_type == "ThumbsUpOrDown" else one_line(rating.rating_type,
                                                                            16)
    status = one_line(rating.rating_status, 16)
    if status != "Rated":
        return f"{kind} {status.lower()}"
    score = rating.rating_score
    if score is None:
        return f"{kind} rated"
    if rating.rating_type == "ThumbsUpOrDown":
        return "Thumbs up" if score else "Thumbs down"
    scale = _SCALES.get(rating.rating_type)
    shown = f"{score}/{scale}" if scale else str(score)
    return f"Rated {shown}" if kind == "Csat" else f"{kind} rated {shown}"


def channel_label(channel: str) -> str:
    """A conversation channel as people say it (``WidgetChat`` → ``Chat``)."""
    return channel_name(channel) or one_line(channel, 24)


def _joined(out: Text, parts: Iterable[tuple[str | Text, Style | None]]) -> None:
    first = True
    for text, style in parts:
        if not text:
            continue
        if not first:
            out.append(" · ", _DIM)
        if isinstance(text, Text):
            out.append_text(text)
        else:
            out.append(text, style or "")
        first = False


def customer_contact(conversation: Conversation) -> tuple[str | None, str | None]:
    """The customer's email address and number: the sender of an inbound conversation, the
    recipient of one we started (outbound) — never our own address."""
    if str(conversation.direction or "") == "Outbound":
        return conversation.to_email, conversation.to_number
    return conversation.from_email, conversation.from_number


def head_text(facts: HeadFacts, now: Callable[[], datetime]) -> Text:
    """The two lines of the head, as one Rich text (never markup)."""
    out = Text(no_wrap=True, overflow="ellipsis", end="")
    conversation = facts.conversation
    out.append(f"#{facts.conversation_id}", _ID)
    if facts.missing:
        out.append("  this conversation does not exist (or is no longer visible to you)",
                   _WARN)
        return out
    if conversation is None:
        out.append("  " + (facts.problem or "loading…"), _WARN if facts.problem else _DIM)
        return out
    state = str(conversation.state or "")
    customer_email, customer_number = customer_contact(conversation)
    line1: list[tuple[str, Style | None]] = [
        (channel_label(str(conversation.channel)), None),
        (_STATE_NAMES.get(state, one_line(state, 20)), _STATE_STYLES.get(state)),
        (facts.requester, _NAME),
        (one_line(customer_email or "", _FIELD), None),
        (one_line(customer_number or "", 24), None),
    ]
    if conversation.anonymized_at is not None:
        line1.append(("anonymized", _WARN))
    if facts.problem:
        line1.append((facts.problem, _WARN))
    elif facts.loading:
        line1.append(("loading messages…", _DIM))
    out.append(" · ", _DIM)
    _joined(out, line1)
    out.append("\n")
    line2: list[tuple[str | Text, Style | None]] = []
    if conversation.assignment is not None:
        line2.append((f"Assigned to {facts.assignee}", None))
    elif facts.position is not None:
        line2.append((describe_position(facts.position, facts.queue, now), _WARN))
    elif facts.queue:
        line2.append((f"Waiting in {facts.queue}", _WARN))
    else:
        line2.append(("Unassigned", _DIM))
    if conversation.assignment is not None and facts.queue:
        line2.append((f"queue {facts.queue}", None))
    if facts.links:
        line2.append((facts.links, None))
    if conversation.subject:
        line2.append((one_line(conversation.subject, _FIELD), None))
    if facts.tags:
        line2.append((Text("tags ").append_text(
            tags_text(facts.tags, facts.tag_colors, _FIELD)), None))
    for rating in facts.ratings:
        line2.append((describe_rating(rating), None))
    _joined(out, line2)
    return out


class ThreadHead(Widget):
    """The thread's head: refreshed only when what it shows changes.

    ``now`` gives the current time for "waiting 12 min" (the console's clock, frozen in
    snapshots).
    """

    DEFAULT_CSS = """
    ThreadHead { height: 2; }
    """

    def __init__(self, now: Callable[[], datetime], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._now = now
        self._text = Text("")
        self.updates = 0

    @property
    def text(self) -> Text:
        """What the head shows now."""
        return self._text

    def show(self, facts: HeadFacts) -> bool:
        """Show ``facts``; returns whether the head changed (and was refreshed)."""
        text = head_text(facts, self._now)
        if text == self._text:
            return False
        self._text = text
        self.updates += 1
        self.refresh()
        return True

    def render(self) -> Text:
        """The head's text."""
        return self._text
