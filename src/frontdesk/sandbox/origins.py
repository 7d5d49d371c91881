"""Where a change to a conversation came from: its *operation origin*, which a webhook
subscription's ``OperationOrigin`` filter includes or excludes.

The vendor's published filters name one origin, ``ApiImport`` (a conversation brought in
through the import operation). The sandbox gives every change one of these:

* ``ApiImport`` — ``POST /v1/conversations/import``: the conversation, its messages, its
  closing;
* ``Api`` — any other request to the API (what this console and integrations do), and the
  asynchronous work such a request queued (bulk tagging);
* ``EndUser`` — a customer writing in on a channel (the simulator's customers);
* ``Agent`` — an agent working in the service's own agent interface (the simulator's agents
  claiming, replying, following up, closing);
* ``System`` — the service's own rules (a follow-up that expired).

The origin is set where the work starts (``acting``) and read where the event is emitted
(``current``): a context variable, so a request, the simulator and the worker — tasks on the
same event loop — each keep their own.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

API = "Api"
API_IMPORT = "ApiImport"
END_USER = "EndUser"
AGENT = "Agent"
SYSTEM = "System"
#: Every origin the sandbox gives a change.
ALL = (API, API_IMPORT, END_USER, AGENT, SYSTEM)

_CURRENT: ContextVar[str] = ContextVar("frontdesk_sandbox_origin", default=API)


def current() -> str:
    """The origin of the change being made now (``Api`` unless set)."""
    return _CURRENT.get()


@contextmanager
def acting(origin: str) -> Iterator[None]:
    """Changes made inside the block have ``origin``."""
    token = _CURRENT.set(origin)
    try:
        yield
    finally:
        _CURRENT.reset(token)
