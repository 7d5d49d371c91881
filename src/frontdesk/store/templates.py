"""Templates: the quick responses an agent inserts into a reply, and (for Admin) every
template, deleted for good after a question.

**Placeholders.** The published Template shape carries ``content`` (and ``subject``) with
placeholders written ``{{name}}`` — the vendor's examples use ``{{requester_firstname}}``,
``{{agent_firstname}}`` and ``{{csid}}``. The shape says nothing else about them, so the
console fills exactly those three, the way their names imply: the requester's first name
(the end user's ``firstName``, else the first word of their display name), my first name
(likewise, from my agent record) and the conversation's id. Spaces inside the braces are
allowed (``{{ agent_firstname }}``). A placeholder the console does not know, or one whose
value is not known (an end user without a name), is left exactly as written, so the agent
sees it in the composer and fills it in rather than sending a reply with a hole in it.

**Languages.** A template's own content is one entry; each translation that is not
deactivated is another, named by its locale (``da``, ``de-AT``), so the picker offers
"Greeting" and "Greeting · da" side by side.

The convention is :mod:`.people`'s: refusals raise :class:`~.people.Refused`. No Textual here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..api.errors import ApiError
from ..api.models import Template
from ..api.models.templates import TemplateType
from .errors import Refused, refusals

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..api.models import Agent, EndUser
    from .hub import Hub
    from .inbox import InboxStore

__all__ = [
    "PLACEHOLDERS",
    "QuickResponse",
    "Refused",
    "TemplatesStore",
    "fill_placeholders",
    "first_name",
    "matching",
]

#: The placeholders the console fills, and what with.
PLACEHOLDERS: dict[str, str] = {
    "requester_firstname": "the customer's first name",
    "agent_firstname": "my first name",
    "csid": "the conversation's id",
}

_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


@dataclass(frozen=True)
class QuickResponse:
    """One insertable text: a quick response in its own language (``locale`` empty) or in
    one of its active translations."""

    template_id: str
    name: str
    content: str
    locale: str = ""

    @property
    def title(self) -> str:
        """The name, with the locale of a translation (``Greeting · da``)."""
        return f"{self.name} · {self.locale}" if self.locale else self.name

    @property
    def key(self) -> str:
        """Unique among the entries of one list (a template id and a locale)."""
        return f"{self.template_id}/{self.locale}"


def first_name(person: Agent | EndUser | None) -> str:
    """A person's first name: ``first_name``, else the first word of the display name
    ('' when neither is known)."""
    if person is None:
        return ""
    if person.first_name and person.first_name.strip():
        return person.first_name.strip()
    words = (person.display_name or "").split()
    return words[0] if words else ""


def fill_placeholders(text: str, *, customer: str = "", agent: str = "",
                      conversation_id: int | str | None = None) -> str:
    """``text`` with the known placeholders filled (see the module's docstring); unknown
    ones, and known ones without a value, stay as written."""
    values = {"requester_firstname": customer, "agent_firstname": agent,
              "csid": "" if conversation_id is None else str(conversation_id)}

    def one(match: re.Match[str]) -> str:
        value = values.get(match.group(1).lower(), "")
        return value if value else match.group(0)

    return _PLACEHOLDER.sub(one, text)


def expand(template: Template) -> list[QuickResponse]:
    """A template's entries: its own content, then each active translation's."""
    entries = [QuickResponse(template.id, template.name, template.content)]
    for translation in template.translations or []:
        if not translation.is_deactivated and translation.content:
            entries.append(QuickResponse(template.id, template.name, translation.content,
                                         translation.locale))
    return entries


def matching(entries: list[QuickResponse], text: str, *,
             language: str = "") -> list[QuickResponse]:
    """The entries whose name, locale or content hold every word of ``text``
    (case-insensitively); all of them for an empty ``text``. Ranked: an entry whose locale is
    a typed word first (``greeting de``: the German one, not a Danish text holding "de"), then
    those in the conversation's ``language`` (``de-DE`` matches ``de``), then the others in
    their order."""
    words = text.casefold().split()
    shown = [e for e in entries
             if all(w in f"{e.name} {e.locale} {e.content}".casefold() for w in words)]
    wanted = language.casefold().replace("_", "-").split("-")[0]

    def rank(entry: QuickResponse) -> tuple[bool, bool]:
        locale = entry.locale.casefold()
        return (not (locale and locale in words),
                not (locale and wanted and locale.replace("_", "-").split("-")[0] == wanted))

    return sorted(shown, key=rank)


class TemplatesStore:
    """The session's templates: quick responses for the composer, all of them for Admin."""

    def __init__(self, hub: Hub, inbox: InboxStore, me: Callable[[], Agent | None]) -> None:
        self._hub = hub
        self._inbox = inbox
        #: who I am (the session's ``me``, once read)
        self._me = me
        self._quick: list[QuickResponse] | None = None

    async def list_all(self) -> list[Template]:
        """Every template (quick responses and email auto-replies), oldest first."""
        with refusals("Could not list the templates"):
            return [t async for t in self._hub.client.templates.list(page_size=100)]

    async def quick_responses(self, *, refresh: bool = False) -> list[QuickResponse]:
        """Every quick response and its active translations (read once per session, again
        with ``refresh`` or after a delete)."""
        if self._quick is None or refresh:
            with refusals("Could not read the quick responses"):
                templates = [t async for t in self._hub.client.templates.list(
                    TemplateType.QUICK_RESPONSE, page_size=100)]
            self._quick = [entry for t in templates for entry in expand(t)]
        return list(self._quick)

    async def delete(self, template_id: str) -> None:
        """Delete a template for good."""
        with refusals("Could not delete the template"):
            await self._hub.client.templates.delete(template_id)
        self._quick = None

    async def names_for(self, conversation_id: int) -> tuple[str, str]:
        """(the customer's first name, my first name) for filling placeholders in a reply to
        ``conversation_id``; '' for a name that cannot be read (the placeholder then stays)."""
        mine = first_name(self._me())
        customer = ""
        record = self._inbox.records.get(conversation_id)
        try:
            requester = record.requester_id if record is not None else \
                (await self._hub.client.conversations.get(conversation_id)).requester_id
            customer = first_name(await self._hub.client.endusers.get(requester))
        except ApiError:
            pass
        return customer, mine


