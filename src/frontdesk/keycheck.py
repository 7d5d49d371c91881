"""Checking a given API key and identity with the service once the console is on screen.

A key from ``FRONTDESK_API_KEY`` or a key file is checked as soon as the console's first
frame is painted: a key the service refuses, or an identity it does not know, ends the
console and the command in one line (:class:`KeyRefused`). The check asks the same question
as the sign-in (who is this agent, with this key) with the standard library alone, on a
thread; ``http.client`` is loaded only then, so neither the check nor its module costs the
first frame anything, and a service that does not answer never holds the console back.

Only a clear answer stops the start (401/403, no agent with that email or id, an address
that is not the service: a 404 for its list of agents, or an answer that is not its JSON —
:mod:`frontdesk.service_address`); anything else
— no answer, an error, a certificate the standard library does not trust, an odd reply —
leaves it to the console's own sign-in, which says what is wrong in the header.
"""

from __future__ import annotations

import json
import threading
from urllib.parse import SplitResult, quote, urlencode, urlsplit

__all__ = ["KeyCheck", "KeyRefused", "check_key", "identity_fields"]


class KeyRefused(Exception):
    """The service refused the key, or knows nobody by the identity: the one sentence that
    says which (never the key)."""


def identity_fields(identity: str) -> tuple[str | None, str | None]:
    """``(agent_email, agent_id)`` for what a person typed as "who am I".

    Anything with an ``@`` is an email; anything else must be an agent id (a UUID). Raises
    :class:`ValueError` with a message for people otherwise.
    """
    text = identity.strip()
    if not text:
        raise ValueError("Give your agent email or your agent id.")
    if "@" in text:
        return text, None
    import uuid  # here: an email (the usual answer) needs no parser of ids

    try:
        return None, str(uuid.UUID(text))
    except ValueError:
        raise ValueError(
            f"{text!r} is neither an email address nor an agent id (a UUID)."
        ) from None


def refused_text(base_url: str, status: int) -> str:
    """What a refused key says (never the key itself)."""
    return (f"The key was refused by {base_url} (HTTP {status}). "
            "Check the API key and try again.")


def check_key(base_url: str, key: str, identity: str, timeout: float) -> str | None:
    """One sentence when the service refuses ``key`` or knows nobody as ``identity``; None
    when it accepts them or gives no clear answer."""
    from .service_address import NOT_JSON, no_service_text  # with the check, not the start

    try:
        email, agent_id = identity_fields(identity)
    except ValueError as error:
        return str(error)
    parts = urlsplit(base_url.strip().rstrip("/"))
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    if email is not None:
        path = f"{parts.path}/v1/agents?{urlencode({'email': email, 'pageLimit': 5})}"
    else:
        path = f"{parts.path}/v1/agents/{quote(agent_id or '')}"
    status, body = _answer(parts, path, key, timeout)
    if status is None:
        return None  # no clear answer: the console's sign-in tells
    if status in (401, 403):
        return refused_text(base_url, status)
    if agent_id is not None:
        if status != 404:
            if _not_json(parts, path, key, timeout, status, body):
                return no_service_text(base_url, NOT_JSON, "GET /v1/agents/{agentId}")
            return None
        if _answer(parts, f"{parts.path}/v1/agents?pageLimit=1", key, timeout)[0] == 404:
            return no_service_text(base_url, 404, "GET /v1/agents")
        return f"No agent or admin has the id {agent_id} at {base_url}."
    if status == 404:
        return no_service_text(base_url, 404, "GET /v1/agents")
    if status != 200:
        return None
    if _not_json(parts, path, key, timeout, status, body):
        return no_service_text(base_url, NOT_JSON, "GET /v1/agents")
    data = _data(body)
    if isinstance(data, list) and not data:
        return f"No agent or admin has the email {email} at {base_url}."
    return None


def _data(body: bytes) -> object:
    """The ``data`` of a JSON object, or None when ``body`` is not one with it."""
    try:
        found = json.loads(body)
    except ValueError:
        return None
    return found.get("data") if isinstance(found, dict) else None


def _not_json(parts: SplitResult, path: str, key: str, timeout: float, status: int,
              body: bytes) -> bool:
    """Whether a 200 for ``path`` is not the service's JSON (an object with ``data``), asked
    again first: one garbled answer may be the way there, not the address."""
    if status != 200 or _data(body) is not None:
        return False
    again, body = _answer(parts, path, key, timeout)
    return again == 200 and _data(body) is None


def _answer(parts: SplitResult, path: str, key: str, timeout: float) -> tuple[int | None, bytes]:
    """The status and body of ``GET path`` with ``key``; ``(None, b"")`` without an answer."""
    import http.client  # here: the module is not needed before the check runs

    try:
        connection: http.client.HTTPConnection
        if parts.scheme == "https":
            connection = http.client.HTTPSConnection(parts.hostname or "", parts.port,
                                                     timeout=timeout)
        else:
            connection = http.client.HTTPConnection(parts.hostname or "", parts.port,
                                                    timeout=timeout)
        try:
            connection.request("GET", path, headers={"Authorization": key.strip(),
                                                     "Accept": "application/json"})
            response = connection.getresponse()
            return response.status, response.read(4_000_000)
        finally:
            connection.close()
    except (OSError, http.client.HTTPException, ValueError):
        return None, b""


class KeyCheck:
    """:func:`check_key` on a thread, started at once; :meth:`result` waits for it."""

    def __init__(self, base_url: str, key: str, identity: str, timeout: float) -> None:
        self._outcome: str | None = None
        self._thread = threading.Thread(target=self._run, name="frontdesk-key-check",
                                        args=(base_url, key, identity, timeout), daemon=True)
        self._thread.start()

    def _run(self, base_url: str, key: str, identity: str, timeout: float) -> None:
        try:
            self._outcome = check_key(base_url, key, identity, timeout)
        except Exception:  # a check that breaks is no answer; the sign-in tells
            self._outcome = None

    def result(self) -> str | None:
        """The refusal sentence, or None (waits for the answer)."""
        self._thread.join()
        return self._outcome
