"""How the store's answer to something a screen asked reaches that screen: as a Textual
message.

A screen asks the store in a worker. The store returns what the service did, or raises
:class:`~frontdesk.store.errors.Refused`; it never answers through a callback, a notice on
the side or an attribute to poll. The worker turns the answer into a message (a subclass of
:class:`Answered`, nested in the screen that handles it, as Textual's own widgets nest
``Changed`` and ``Pressed``) and posts it; the screen's ``on_…`` handler shows it::

    class LinkScreen(ModalScreen[None]):
        class Linked(Answered):
            ...

        @work(exit_on_error=False)
        async def _link(self, parent_id: int) -> None:
            refusal = await refusal_of(link_to_parent(session, cid, parent_id))
            self.post_message(self.Linked(refusal))

        def on_link_screen_linked(self, message: Linked) -> None:
            ...

A call that returns something worth keeping answers with a :class:`Returned` (its ``value``
is what the store returned); a :class:`Regarding` carries what was asked about too::

    class Loaded(Returned[list[Tag]]):
        ...

    class Deleted(Regarding[Tag, None]):
        ...

    self.post_message(self.Loaded(*await answer_of(store.list_tags())))
    self.post_message(self.Deleted(tag, refusal=await refusal_of(store.delete_tag(tag.id))))

The type arguments of a base class are evaluated when the module loads: one imported only
for type checking (to keep the first frame light) is written in quotes.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Generic, TypeVar, cast

from textual.message import Message

from ..store.errors import Refused

__all__ = ["Answered", "Regarding", "Returned", "answer_of", "refusal_of"]

T = TypeVar("T")
S = TypeVar("S")


class Answered(Message):
    """The store answered: ``refusal`` is None when the service (or the store) did it."""

    def __init__(self, refusal: Refused | None = None) -> None:
        super().__init__()
        #: why it did not happen, or None when it did
        self.refusal = refusal

    @property
    def done(self) -> bool:
        """Whether it happened."""
        return self.refusal is None

    @property
    def reason(self) -> str | None:
        """Why it did not happen, in one line for a person (None when it did)."""
        return self.refusal.reason if self.refusal is not None else None


class Returned(Answered, Generic[T]):
    """The store answered a call that returns something: its ``value``, or its ``refusal``."""

    def __init__(self, value: T | None = None, refusal: Refused | None = None) -> None:
        super().__init__(refusal)
        self._value = value

    @property
    def value(self) -> T:
        """What the store returned (only there when it was done: read ``refusal`` first)."""
        if self.refusal is not None:
            raise LookupError("a refused call returned nothing")
        return cast(T, self._value)


class Regarding(Returned[T], Generic[S, T]):
    """A :class:`Returned` that carries what the screen asked about (``about``: the tag, the
    team, the row to highlight afterwards, …) to the handler that shows the answer; ``T`` is
    None for a call that returns nothing."""

    def __init__(self, about: S, value: T | None = None, refusal: Refused | None = None) -> None:
        super().__init__(value, refusal)
        #: what the screen asked about
        self.about = about


async def answer_of(call: Awaitable[T]) -> tuple[T | None, Refused | None]:
    """Await ``call``: what it returned and None, or None and its refusal (the arguments of
    a :class:`Returned`). Anything else is not caught, as with :func:`refusal_of`."""
    try:
        return await call, None
    except Refused as refusal:
        return None, refusal


async def refusal_of(call: Awaitable[object]) -> Refused | None:
    """Await ``call``; its refusal, or None when it was done. Anything else (a bug, a
    surprise) is not caught: it reaches the console's one worker-failure handler."""
    try:
        await call
    except Refused as refusal:
        return refusal
    return None
