"""The gateway hears the service's webhooks: its own subscription at the service, and the
deliveries it takes at ``POST /gateway/v1/webhooks``.

Without webhooks the team learns what changed from one poller (:mod:`.change_feed`), which
asks the service every two seconds whether anything did. With a public URL (``serve
--public-url``: the address the service reaches the gateway at) the service tells the gateway
of each change as it happens, and the poller only checks now and then that it still does.

**The subscription.** On start the gateway makes sure its own subscription exists, with the
organisation's key and within its one budget (background requests of the
:class:`~frontdesk.gateway.upstream.Upstream`): it is the one whose URL is
``<public URL>/gateway/v1/webhooks`` (:func:`hook_url`), found again on every start (and
changed when it no longer asks for every conversation event or was disabled), created when
there is none; duplicates of it are deleted. Its secret key is read from the service and kept
in memory only. A service that cannot be asked is asked again later (:data:`RETRIES`); one
that refuses for good (a URL it will not deliver to, a key it refuses) is logged and the
gateway goes on polling. While the gateway runs it checks the subscription again
(:meth:`WebhookFeed.keep`): at once when the webhooks fall silent, every 15 minutes while
they are heard, and puts right a subscription disabled, changed or removed at the service.
``frontdesk gateway unsubscribe`` removes the subscription (:func:`unsubscribe`).

**A delivery** carries no member's key: its signature is its authentication
(``api.models.webhooks.verify``, the scheme the service's vendor documents). It is taken
(204) when it names the gateway's subscription, its signature holds with the subscription's
secret and was made within :data:`~frontdesk.api.models.webhooks.TOLERANCE` seconds on the
service's clock (the one the change feed reads: a service whose clock is off is not refused
for it), and it is JSON. Anything else is refused (401, or 400 for a body that is not a JSON
object) and changes nothing. A taken delivery's conversation (``data.conversation.csid``) is
told as a look of the poller would tell it (:meth:`ChangeFeed.heard`): the team's answers
holding it are dropped, every console listening is told.

A delivery whose ``event_id`` or signature was heard within twice that time is a repeat: the
service trying again a delivery whose answer it missed, or somebody replaying one. It is
answered as taken (204), so that the service stops trying, and tells nothing: what it says
was told the first time. Refusing it would have the service try it again and again, and
count the gateway's address as failing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx2
from pydantic import ValidationError

from frontdesk.api.client import ApiClient
from frontdesk.api.errors import ApiError, Unauthorized
from frontdesk.api.models.gateway import (
    CHANGED_DELIVERY,
    CHANGED_MESSAGES,
    CHANGED_NOTES,
    CHANGED_RATING,
    CHANGED_RECORD,
    CHANGED_TAGS,
)
from frontdesk.api.models.webhooks import (
    TOLERANCE,
    CreateWebhookInput,
    NoAuth,
    PatchWebhookInput,
    WebhookEvent,
    WebhookSubscription,
    verify,
)
from frontdesk.api.pacing import Priority

from .change_feed import ChangeFeed
from .upstream import Upstream, UpstreamDown

__all__ = ["EVENTS", "HOOK_PATH", "MAX_DELIVERY_BYTES", "NAME", "RETRIES", "Refusal",
           "WebhookError", "WebhookFeed", "check_public_url", "hook_url", "unsubscribe"]

log = logging.getLogger("frontdesk.gateway.webhooks")

#: Where the service delivers, under the gateway's public URL.
HOOK_PATH = "/gateway/v1/webhooks"
#: The subscription's name at the service (what an admin listing them sees).
NAME = "frontdesk gateway"
#: Every conversation event the service offers: each is a change the consoles may show.
EVENTS: tuple[WebhookEvent, ...] = tuple(event for event in WebhookEvent
                                         if event.value.startswith("Conversation"))
#: The largest delivery taken (an event is a few kilobytes); beyond it the answer is 413.
MAX_DELIVERY_BYTES = 1024 * 1024
#: Seconds before asking the service again when the subscription could not be set up (the
#: last repeats).
RETRIES: tuple[float, ...] = (2.0, 5.0, 15.0, 60.0, 300.0)
#: Seconds between two checks of the subscription once set up, while the webhooks are heard
#: (one request to the service each).
RECHECK = 900.0
#: Seconds at least between two checks while the webhooks are silent: the first comes at once.
RECHECK_SILENT = 60.0
#: Event ids and signatures remembered against replays, at most (the oldest go first).
MAX_REMEMBERED = 100_000
_MEMBER = "gateway-webhooks"
_JSON = {"content-type": "application/json", "accept": "application/json"}


class WebhookError(Exception):
    """The subscription could not be set up or removed: one line saying why; ``lasting``
    when asking again will not help (the service refused the request itself)."""

    def __init__(self, message: str, *, lasting: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.lasting = lasting


class Refusal(Exception):
    """A delivery not taken: the status to answer it with and one line saying why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def check_public_url(url: str) -> str:
    """``url`` as the address the service reaches the gateway at (http or https, a host, no
    query); ValueError (one line) when it cannot be one."""
    url = url.strip()
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  - a port out of range raises here
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname \
            or parts.query or parts.fragment or any(ch.isspace() or not ch.isprintable()
                                                    for ch in url):
        raise ValueError("the public URL must be an http or https URL without a query, such "
                         "as https://gateway.example.com")
    return url.rstrip("/")


def hook_url(public_url: str) -> str:
    """The URL the service delivers to: ``<public URL>/gateway/v1/webhooks``."""
    return public_url.strip().rstrip("/") + HOOK_PATH


def _same_url(found: object, url: str) -> bool:
    return isinstance(found, str) and found.strip().rstrip("/").lower() == url.lower()


def _printable(text: str) -> str:
    """The service's words, safe on one line of a log."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)[:300]


@dataclass(frozen=True, slots=True)
class _Subscription:
    id: str
    secret: str


class WebhookFeed:
    """The gateway's webhook subscription at the service (for ``public_url``), and the
    deliveries it takes, told to the change ``feed``."""

    def __init__(self, upstream: Upstream, feed: ChangeFeed, public_url: str, *,
                 tolerance: float = TOLERANCE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._upstream = upstream
        self._feed = feed
        self.url = hook_url(public_url)
        """Where the service delivers (the subscription is found again by it)."""
        self._tolerance = tolerance
        self._clock = clock
        self._subscription: _Subscription | None = None
        self._failed: str | None = None
        self._seen: OrderedDict[tuple[str, str], float] = OrderedDict()
        self.taken = 0
        """Deliveries taken (tests count them)."""
        self.refused = 0
        """Deliveries refused."""
        self.repeated = 0
        """Deliveries heard before: answered as taken, told nothing."""
        self.put_right = 0
        """Times the subscription was found changed at the service and put right."""

    # ------------------------------------------------------------------ the subscription

    @property
    def subscription_id(self) -> str | None:
        """The id of the gateway's subscription at the service (None: not set up yet)."""
        return None if self._subscription is None else self._subscription.id

    def state(self) -> str:
        """For the health check: ``heard`` (webhooks tell the changes), ``silent`` (set up,
        but the feed found changes they did not tell), ``subscribing`` or ``failed``."""
        if self._subscription is not None:
            return "heard" if self._feed.webhooks_heard() else "silent"
        return "failed" if self._failed is not None else "subscribing"

    async def run(self) -> None:
        """Set the subscription up, asking again later while the service cannot be asked;
        then keep it so (:meth:`keep`). Deliveries come to :meth:`receive`."""
        if await self._set_up():
            await self.keep()

    async def keep(self) -> None:
        """Check the subscription again — at once when the webhooks fall silent (then at most
        every :data:`RECHECK_SILENT` seconds), and every :data:`RECHECK` seconds while they
        are heard — and put it right when it was disabled, changed or removed at the service
        (by an admin, or by the service after failed deliveries). Until then the change feed
        polls: nothing is missed meanwhile."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._feed.silenced(), timeout=RECHECK)
            try:
                done = await self.subscribe()
            except (UpstreamDown, WebhookError) as error:
                reason = error.message
                log.warning("the gateway's webhook subscription could not be checked (%s): "
                            "the change feed polls meanwhile", reason)
            else:
                if done != "found":
                    self.put_right += 1
                    log.warning("webhooks: subscription %s %s again at the service (it was "
                                "disabled, changed or removed there)", self.subscription_id,
                                done)
            await asyncio.sleep(RECHECK_SILENT)

    async def _set_up(self) -> bool:
        """The first setting up, asked again while the service cannot be asked: whether it
        is set up (False: refused for good, the feed polls)."""
        attempt = 0
        while True:
            try:
                await self._feed.service_now()  # deliveries are timed on the service's clock
                done = await self.subscribe()
            except UpstreamDown as down:
                reason = down.message
            except WebhookError as error:
                if error.lasting:
                    self._failed = error.message
                    log.error("the gateway's webhook subscription cannot be set up: %s; the "
                              "change feed polls the service instead", error.message)
                    return False
                reason = error.message
            else:
                log.info("webhooks: subscription %s %s, delivering to %s", self.subscription_id,
                         done, self.url)
                return True
            delay = RETRIES[min(attempt, len(RETRIES) - 1)]
            attempt += 1
            log.warning("the gateway's webhook subscription could not be set up (%s): asking "
                        "again in %g s", reason, delay)
            await asyncio.sleep(delay)

    async def subscribe(self) -> str:
        """Make sure the subscription exists, enabled and asking for :data:`EVENTS`, and
        read its secret; what was done (``created``, ``updated``, ``found``). WebhookError or
        UpstreamDown when the service would not."""
        listed = await self._call("GET", "/v1/webhooks")
        items = listed.get("data") if isinstance(listed, dict) else listed
        if not isinstance(items, list):
            raise WebhookError("the service's list of webhook subscriptions is not a list")
        ours = [item for item in items if isinstance(item, dict)
                and _same_url(item.get("url"), self.url)]
        for duplicate in ours[1:]:  # two gateway starts racing, or an admin's copy
            await self._call("DELETE", f"/v1/webhooks/{_id_of(duplicate)}")
        if not ours:
            body = CreateWebhookInput(name=NAME, url=self.url, authorization=NoAuth(),
                                      custom_headers={}, events=list(EVENTS), enabled=True)
            record, done = await self._call("POST", "/v1/webhooks", body.wire()), "created"
        else:
            found = ours[0]
            wanted = set(EVENTS)
            if found.get("enabled") is not True or set(found.get("subscribedEvents") or ()) \
                    != wanted:
                changes = PatchWebhookInput(events=list(EVENTS), enabled=True)
                record = await self._call("PATCH", f"/v1/webhooks/{_id_of(found)}",
                                          changes.wire())
                done = "updated"
            elif found.get("secretKey"):
                record, done = found, "found"
            else:  # a listing without secrets: the subscription itself has it
                record = await self._call("GET", f"/v1/webhooks/{_id_of(found)}")
                done = "found"
        subscription = _subscription(record)
        first = self._subscription is None
        self._subscription = _Subscription(subscription.id.lower(), subscription.secret_key)
        self._failed = None
        if first or done != "found":  # found as it was: silent webhooks stay silent
            self._feed.expect_webhooks(True)
        return done

    async def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """One request to the service with the organisation's key, within the gateway's
        budget (a background request); its JSON (None when empty)."""
        payload = b"" if body is None else json.dumps(body).encode()
        answer = await self._upstream.send(method, "main", path, b"", _JSON, payload,
                                           Priority.BACKGROUND, _MEMBER)
        try:
            content = await answer.aread()
        except httpx2.HTTPError:
            raise UpstreamDown("The connection to the service broke", sent=True) from None
        finally:
            await answer.aclose()
        try:
            document = json.loads(content) if content else None
        except ValueError:
            document = None
        status = answer.status_code
        if status >= 300:
            said = document.get("message") if isinstance(document, dict) else None
            reason = f"{method} {path} was answered {status}" + (
                f": {_printable(said)}" if isinstance(said, str) and said else "")
            if status == 401:
                reason = "the service refused the organisation key"
            lasting = 400 <= status < 500 and status not in (404, 408, 409, 425, 429)
            raise WebhookError(reason, lasting=lasting)
        if content and document is None:
            raise WebhookError(f"{method} {path} was answered with something not JSON")
        return document

    # ------------------------------------------------------------------ deliveries

    def receive(self, subscription: str | None, signature: str | None,
                body: bytes) -> tuple[int, ...]:
        """Take one delivery (its subscription id and signature headers, its raw body): the
        conversations it told of, told to the feed (none for a repeat, which is answered as
        taken); :class:`Refusal` when it is not taken, and then nothing changed."""
        try:
            told = self._check(subscription, signature, body)
        except Refusal as refusal:
            self.refused += 1
            log.info("a webhook delivery was refused (%d): %s", refusal.status, refusal.message)
            raise
        if told is None:
            self.repeated += 1
            log.info("a webhook delivery heard before was answered and ignored")
            return ()
        self._feed.heard(*told)
        self.taken += 1
        return told[0]

    def _check(self, subscription: str | None, signature: str | None,
               body: bytes) -> tuple[tuple[int, ...], tuple[str, ...]] | None:
        """What a delivery tells (its conversations, what changed), None for a repeat;
        :class:`Refusal` for one not taken."""
        ours = self._subscription
        if ours is None:
            raise Refusal(503, "The gateway's webhook subscription is not set up yet")
        if (subscription or "").strip().lower() != ours.id:
            raise Refusal(401, "Not a delivery of this gateway's webhook subscription")
        now = self._feed.service_time()
        if not signature or not verify(ours.secret, signature, body, now=now,
                                       tolerance=self._tolerance):
            raise Refusal(401, "The delivery's signature does not hold (not the "
                               "subscription's, altered, or too old)")
        try:
            event = json.loads(body)
        except ValueError:
            event = None
        if not isinstance(event, dict):
            raise Refusal(400, "The delivery is not a JSON event")
        self._forget_old()
        remembered = [("signature", _v1(signature))]
        event_id = event.get("event_id")
        if isinstance(event_id, str | int) and not isinstance(event_id, bool) and event_id != "":
            remembered.append(("event", str(event_id)))
        if any(key in self._seen for key in remembered):
            return None
        at = self._clock()
        for key in remembered:
            self._seen[key] = at
        while len(self._seen) > MAX_REMEMBERED:
            self._seen.popitem(last=False)
        return _conversations(event), _what(event)

    def _forget_old(self) -> None:
        """Forget what is past replaying: a signature is refused once older than the
        tolerance, so one first heard up to a tolerance early is kept for twice that."""
        oldest = self._clock() - 2 * self._tolerance
        while self._seen:
            key, at = next(iter(self._seen.items()))
            if at >= oldest:
                break
            del self._seen[key]


def _id_of(item: dict[str, Any]) -> str:
    """A listed subscription's id, as a path segment (it is a UUID at the service)."""
    found = str(item.get("id", ""))
    if not found or not all(ch.isalnum() or ch == "-" for ch in found):
        raise WebhookError(f"the service listed a subscription with the id {found[:60]!r}",
                           lasting=True)
    return found


def _subscription(document: Any) -> WebhookSubscription:
    record = document.get("data", document) if isinstance(document, dict) else None
    try:
        return WebhookSubscription.model_validate(record)
    except ValidationError:
        raise WebhookError("the service's answer holds no subscription with its secret key",
                           lasting=True) from None


def _v1(signature: str) -> str:
    """The digest of a signature header that holds (what a replay must repeat)."""
    fields = dict(part.partition("=")[::2] for part in signature.split(","))
    return fields.get("v1", "").strip()


def _what(event: dict[str, Any]) -> tuple[str, ...]:
    """What an event says changed in its conversation (:attr:`ChangeNotice.what`), from its
    ``event_fqn`` (``CONVERSATION_TAG_ADDED``…); nothing said for an event not known."""
    name = event.get("event_fqn")
    if not isinstance(name, str) or not name.startswith("CONVERSATION_"):
        return ()
    if name.startswith("CONVERSATION_MESSAGE_DELIVERY"):
        return (CHANGED_DELIVERY,)
    for part, what in (("_MESSAGE_", CHANGED_MESSAGES), ("_NOTE_", CHANGED_NOTES),
                       ("_TAG_", CHANGED_TAGS), ("_RATED", CHANGED_RATING)):
        if part in name + "_":
            return (what,)
    return (CHANGED_RECORD,)


def _conversations(event: dict[str, Any]) -> tuple[int, ...]:
    """The conversation an event is about (``data.conversation.csid``; ``id`` as well):
    none for an event of no conversation."""
    data = event.get("data")
    conversation = data.get("conversation") if isinstance(data, dict) else None
    if not isinstance(conversation, dict):
        return ()
    for name in ("csid", "id"):
        value = conversation.get(name)
        if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 19:
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return (value,)
    return ()


async def unsubscribe(client: ApiClient, public_url: str) -> list[str]:
    """Delete the gateway's subscription (every one whose URL is the gateway's for
    ``public_url``); the ids deleted (none: there was none). WebhookError (one line) when
    the service would not."""
    url = hook_url(public_url)
    try:
        ours = [found.id for found in await client.webhooks.list()
                if _same_url(found.url, url)]
        for webhook_id in ours:
            await client.webhooks.delete(webhook_id)
    except Unauthorized:
        raise WebhookError("The service refused the organisation key (check "
                           "--upstream-key-file or FRONTDESK_UPSTREAM_KEY)") from None
    except ApiError as error:
        raise WebhookError(f"Could not remove the gateway's webhook subscription: "
                           f"{_printable(error.message)}") from None
    return ours
