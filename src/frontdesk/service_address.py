"""Saying that a base URL does not lead to the Conversation Service.

A base URL with an extra path (``…/v1``), another web server, or a proxy's error page all
answer the service's own paths with a 404 or with something that is not the service's JSON.
Without a word about it the console would look signed in to an empty organisation, so the
start-up check, ``frontdesk login`` and the console's header all say the same one line:
no Conversation Service at that address, what it answered, and to check the address.

Standard library only: the start-up key check imports this before anything else is loaded.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from .text import link_label, one_line

__all__ = ["NOT_JSON", "no_service_text", "shown_url"]

#: What an answer that is not the service's JSON is called in :func:`no_service_text`.
NOT_JSON = "something that is not the service's JSON"
#: Longest URL shown in the sentence (a URL is the person's own input, but may be long).
_URL_WIDTH = 120


def shown_url(base_url: str) -> str:
    """``base_url`` as it may be shown: one clean line, without a user name or password,
    a query or a fragment."""
    text = base_url.strip()
    try:
        parts = urlsplit(text)
        netloc = parts.netloc.rpartition("@")[2]
        text = urlunsplit((parts.scheme, netloc, parts.path, "", ""))
    except ValueError:
        pass
    return one_line(link_label(text), _URL_WIDTH)


def no_service_text(base_url: str, answer: int | str, request: str) -> str:
    """The one line for a base URL that answers the service's own ``request`` (``GET
    /v1/agents``) with ``answer``: an HTTP status (a 404) or a few words (:data:`NOT_JSON`)."""
    said = f"{answer}" if isinstance(answer, int) else answer
    return (f"No Conversation Service at {shown_url(base_url)} (it answered {said} to "
            f"{request}): check the address.")
