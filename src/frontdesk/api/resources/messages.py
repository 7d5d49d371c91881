"""Messages: read a conversation's thread, and add a message exactly once.

Adding a message is a POST, which is not safe to repeat in general. Every message this client
sends therefore carries an ``externalId`` (the caller's, or a fresh one), which the service
keeps unique per conversation: a repeat of the same send cannot create a second message. When
the answer to a send is lost (the connection broke after the service stored the message, or a
gateway answered 502/503/504), the client sends again with the same ``externalId``. The
service refuses a repeat with a 400 (the contract gives that refusal no code of its own), so
after a 400, as after a lost answer, the thread is read back: the message found there with the
``externalId`` means the first send worked, and the stored message is returned.
"""

from __future__ import annotations

import builtins
import json
import sys
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, NamedTuple

from pydantic import ValidationError

from .. import left_out
from ..errors import (
    ApiError,
    InvalidRequest,
    ServiceUnavailable,
    TransportError,
    UnexpectedResponse,
)
from ..listing import TextItems
from ..models.conversations import Channel, Conversation
from ..models.messages import (
    AddedMessage,
    ContentInput,
    FileInput,
    InboundMessageInput,
    Message,
    OutboundMessageInput,
    sms_problem,
    whatsapp_problem,
)
from ..operations import Operation, operation
from ..pacing import Priority
from ._base import (
    Resource,
    build,
    check_conversation_id,
    describe_validation,
    fail,
    parse_items,
    parse_one,
    unwrap,
)

__all__ = ["MAX_TEXT", "MessagesResource", "WireMessage", "bound_text", "build_message",
           "channel_problem"]

_LIST = operation("messages.list")
_ADD = operation("messages.add")
_GET_CONVERSATION = operation("conversations.get")

#: The longest message text kept: the contract's limit. A longer text is cut and says so.
MAX_TEXT = 100_000

MessageInput = InboundMessageInput | OutboundMessageInput
ContentType = Literal["Text", "Html", "Markdown"]


class WireMessage(NamedTuple):
    """A message that fits :class:`Message`, kept as its wire JSON with the fields a thread
    looks up without reading it back: a few hundred bytes instead of the model's few
    kilobytes (``Message.model_validate_json(wire)`` gives the model again)."""

    id: str
    author_id: str
    external_id: str | None
    wire: str


class MessagesResource(Resource):
    """``client.messages``: a conversation's messages, and sending one."""

    async def list(self, conversation_id: int, *, priority: Priority = Priority.INTERACTIVE
                   ) -> builtins.list[Message]:
        """Every message of a conversation, oldest first."""
        path = {"conversationId": check_conversation_id(conversation_id, _LIST)}
        reply = await self._transport.send(_LIST, path=path, priority=priority,
                                           each_item=bound_text)
        return parse_items(_LIST, unwrap(_LIST, reply.body), Message)

    async def list_if_changed(
        self, conversation_id: int, etag: str | None, *,
        priority: Priority = Priority.INTERACTIVE,
    ) -> tuple[builtins.list[Message] | None, str | None]:
        """The messages if they changed since ``etag`` (``None`` when they did not), and the
        validator to send next time. Against a service without validators this is
        :meth:`list` with no ETag."""
        path = {"conversationId": check_conversation_id(conversation_id, _LIST)}
        reply = await self._transport.send(_LIST, path=path, priority=priority, if_none_match=etag,
                                           each_item=bound_text)
        if reply.status == 304:
            return None, reply.etag or etag
        return parse_items(_LIST, unwrap(_LIST, reply.body), Message), reply.etag

    async def list_wires_if_changed(
        self, conversation_id: int, etag: str | None, *,
        priority: Priority = Priority.INTERACTIVE, on_sent: Callable[[], None] | None = None,
        known: Callable[[], Mapping[str, WireMessage]] | None = None,
    ) -> tuple[builtins.list[WireMessage] | None, str | None]:
        """:meth:`list_if_changed`, each message that fits the model kept as its wire JSON
        (:class:`WireMessage`): what a long thread holds in memory while it is open.
        ``on_sent`` is called when the request has left (see :meth:`Transport.send`).

        ``known`` gives, once an answer with messages comes, the messages read before by
        their JSON text: a message whose text is among them is taken as it was, not checked
        again (the same text fits the same way), so reading a long thread again after one
        new message checks that one.

        A message that does not fit is left out (and logged), unless none fits: then the
        answer is refused, as :meth:`list` does."""
        path = {"conversationId": check_conversation_id(conversation_id, _LIST)}
        reply = await self._transport.send(_LIST, path=path, priority=priority, if_none_match=etag,
                                           each_item=_WIRES if known is None else _reusing(known),
                                           on_sent=on_sent)
        if reply.status == 304:
            return None, reply.etag or etag
        items = unwrap(_LIST, reply.body)
        if not isinstance(items, list):
            parse_items(_LIST, items, Message)  # raises: not a list
        wires: builtins.list[WireMessage] = [item for item in items
                                             if type(item) is WireMessage]
        if len(wires) != len(items):
            # a bare list is read whole (each item as it is), the others came as read
            taken = [item if type(item) in (WireMessage, _Unfit)
                     else _wire_of(item, _dumps(item)) for item in items]
            wires = [item for item in taken if type(item) is WireMessage]
            unfit = [item for item in taken if type(item) is _Unfit]
            if unfit and not wires:
                raise UnexpectedResponse(
                    f"The answer to {_LIST.label} does not have the expected shape: "
                    + describe_validation(unfit[0].error), operation=_LIST.label)
            if unfit:
                left_out.report(_LIST.label, len(unfit), len(items),
                                "they do not fit Message: "
                                + describe_validation(unfit[0].error, 1))
        return wires, reply.etag

    async def add(
        self,
        conversation_id: int,
        content: str | ContentInput | None = None,
        *,
        direction: Literal["Inbound", "Outbound"] | None = None,
        agent_id: str | None = None,
        content_type: ContentType = "Text",
        attachments: Sequence[str | FileInput | Mapping[str, Any]] | None = None,
        external_id: str | None = None,
        integration_email: str | None = None,
        message: MessageInput | None = None,
        channel: Channel | str | None = None,
        check_channel: bool = False,
        priority: Priority = Priority.INTERACTIVE,
    ) -> AddedMessage:
        """Add a message to a conversation, exactly once, and return what the service stored.

        ``direction`` defaults to ``Outbound`` when ``agent_id`` is given (the agent is the
        author), else ``Inbound`` (the requester is). Attachments are URLs (http(s) or
        ``data:``) or :class:`FileInput`. Or pass a ready ``message`` input instead.

        The message always carries an ``externalId`` (``external_id`` or a fresh one), which
        makes the send safe to repeat; see the module's description. Channel rules are checked
        before sending when the channel is known: pass ``channel=`` or ``check_channel=True``
        (one extra request reads the conversation). SMS takes outbound messages only; WhatsApp
        outbound Markdown with at most one attachment of an allowed kind.
        """
        cid = check_conversation_id(conversation_id, _ADD)
        if message is not None:
            if content is not None or attachments is not None:
                raise fail(_ADD, "Give either a message input or its parts, not both")
            if message.external_id is None:
                message = message.model_copy(update={"external_id": _new_external_id()})
        else:
            message = build_message(_ADD, content, direction=direction, agent_id=agent_id,
                                    content_type=content_type, attachments=attachments,
                                    external_id=external_id or _new_external_id(),
                                    integration_email=integration_email)
        if channel is None and check_channel:
            channel = await self._channel_of(cid, priority)
        if channel is not None:
            problem = channel_problem(channel, message)
            if problem is not None:
                raise fail(_ADD, problem)
        key = message.external_id
        assert key is not None
        try:
            reply = await self._transport.send(_ADD, path={"conversationId": cid},
                                               body=message.wire(), priority=priority,
                                               idempotent=True)
        except InvalidRequest:
            # Perhaps a repeat of a send an earlier attempt (or an earlier run) stored: the
            # thread says, not the refusal's wording.
            stored = await self._read_back(cid, key, priority)
            if stored is None:
                raise
            return stored
        except (TransportError, ServiceUnavailable) as error:
            # The answer was lost: the message may well be stored. Look before failing.
            stored = await self._read_back(cid, key, priority)
            if stored is None:
                raise error from None
            return stored
        if reply.body is None:
            stored = await self._read_back(cid, key, priority)
            if stored is None:
                return _echo(message)
            return stored
        return parse_one(_ADD, unwrap(_ADD, reply.body), AddedMessage)

    async def _channel_of(self, conversation_id: int, priority: Priority) -> str:
        reply = await self._transport.send(_GET_CONVERSATION,
                                           path={"conversationId": conversation_id},
                                           priority=priority)
        found = parse_one(_GET_CONVERSATION, unwrap(_GET_CONVERSATION, reply.body),
                          Conversation)
        return str(found.channel)

    async def _read_back(self, conversation_id: int, external_id: str, priority: Priority
                         ) -> AddedMessage | None:
        """The stored message carrying ``external_id``, or None (also when reading fails)."""
        try:
            thread = await self.list(conversation_id, priority=priority)
        except ApiError:
            return None
        for stored in reversed(thread):
            if stored.external_id == external_id:
                return _added(stored)
        return None


def build_message(
    op: Operation,
    content: str | ContentInput | None,
    *,
    direction: Literal["Inbound", "Outbound"] | None,
    agent_id: str | None,
    content_type: ContentType = "Text",
    attachments: Sequence[str | FileInput | Mapping[str, Any]] | None = None,
    external_id: str | None = None,
    integration_email: str | None = None,
) -> MessageInput:
    """A message input from plain arguments (used to add a message and to create a
    conversation). Invalid → InvalidRequest, nothing sent."""
    if direction is None:
        direction = "Outbound" if agent_id is not None else "Inbound"
    body: ContentInput | dict[str, Any] | None
    if content is None or isinstance(content, ContentInput):
        body = content
    else:
        body = {"value": content, "_type": content_type}
    files: list[Any] | None = None
    if attachments is not None:
        if isinstance(attachments, str):
            raise fail(op, "Give attachments as a list of URLs, not one text")
        files = [{"url": a} if isinstance(a, str) else a for a in attachments]
    if direction == "Inbound":
        if agent_id is not None:
            raise fail(op, "An inbound message is written by the requester; agent_id is for "
                       "outbound messages")
        if body is None:
            raise fail(op, "An inbound message needs content")
        return build(op, InboundMessageInput, type="Inbound", content=body, attachments=files,
                     external_id=external_id, integration_email=integration_email)
    if direction == "Outbound":
        if agent_id is None:
            raise fail(op, "An outbound message needs the agent_id of its author")
        return build(op, OutboundMessageInput, type="Outbound", agent_id=agent_id,
                     content=body, attachments=files, external_id=external_id,
                     integration_email=integration_email)
    raise fail(op, f"The direction must be Inbound or Outbound, not {direction!r}")


def channel_problem(channel: Channel | str, message: MessageInput) -> str | None:
    """Why ``message`` cannot go to a conversation of ``channel``, or None when it can."""
    name = str(channel.value if isinstance(channel, Channel) else channel).lower()
    if name == "whatsapp":
        return whatsapp_problem(message)
    if name == "sms":
        return sms_problem(message)
    return None


def bound_text(item: Any) -> Any:
    """One message of a thread as read, its text cut to :data:`MAX_TEXT` characters (a
    longer text ends with how much was left out). A thread is read whole and unpaged, so a
    service sending more than the contract allows costs this one message its tail, not the
    thread its messages."""
    attributes = item.get("attributes") if type(item) is dict else None
    if type(attributes) is dict:
        _bound(attributes.get("content"))
        email = attributes.get("emailContent")
        if type(email) is dict:
            _bound(email.get("content"))
    return item


_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


#: validates a message's JSON text against :class:`Message` (the model's own validator)
_validate_json = Message.__pydantic_validator__.validate_json
#: makes a :class:`WireMessage` from its four values without the named tuple's own
#: ``__new__`` (a Python call per message)
_new_tuple = tuple.__new__
_intern = sys.intern


class _Unfit(NamedTuple):
    """A message of a thread that does not fit :class:`Message`: as read, and why not."""

    item: Any
    error: ValidationError


def _wire_of(item: Any, text: str) -> WireMessage | _Unfit:
    """One message of a thread as read, with its JSON text exactly as the answer has it:
    its :class:`WireMessage` when that text fits the model, else why not.

    The text is what is kept and what is validated, so nothing is written again; only a
    text longer than :data:`MAX_TEXT` can hold a value to cut (:func:`bound_text`), and only
    then is the message written again, cut. Each message is made compact as soon as it is
    read, so a long answer's parsed items are freed one by one instead of all after the
    last, which left the allocator's pools part used (several megabytes with ten thousand
    messages)."""
    if len(text) > MAX_TEXT:
        text = _dumps(bound_text(item))
    try:
        message = _validate_json(text if text.isascii() else _utf8(text))
    except ValidationError as error:
        if error.errors()[0]["type"] != "json_invalid":
            return _Unfit(item, error)
        # JSON to the standard library that the model's parser refuses (a lone surrogate
        # escape, say): checked as decoded, and kept written again with what UTF-8 cannot
        # hold replaced, so that it reads back; one that still does not (nested past the
        # parser's depth) is left out
        try:
            Message.model_validate(item)
            text = _dumps(item).encode("utf-8", "replace").decode("utf-8")
            message = _validate_json(_utf8(text))
        except ValidationError as refused:
            return _Unfit(item, refused)
    return _new_tuple(WireMessage, (message.id, _intern(message.author_id),
                                    message.external_id, text))


def _utf8(text: str) -> str | bytes:
    """What the validator is handed for a message's JSON text that is not ASCII: its UTF-8
    bytes (given such a string, the validator leaves a UTF-8 copy of it cached in the
    string, which the thread then keeps beside it), unless it holds what UTF-8 cannot (a
    lone surrogate): then the text, refused as ever."""
    try:
        return text.encode()
    except UnicodeEncodeError:
        return text


_WIRES = TextItems(_wire_of)


def _reusing(known: Callable[[], Mapping[str, WireMessage]]) -> TextItems:
    """:func:`_wire_of` for each message, unless its text is among the ``known`` ones
    (asked for at the first message)."""
    table: Mapping[str, WireMessage] | None = None

    def each(item: Any, text: str) -> WireMessage | _Unfit:
        nonlocal table
        if table is None:
            table = known()
        found = table.get(text)
        return found if found is not None else _wire_of(item, text)

    return TextItems(each)


def _bound(content: Any) -> None:
    if type(content) is dict:
        value = content.get("value")
        if type(value) is str and len(value) > MAX_TEXT:
            content["value"] = (value[:MAX_TEXT]
                                + f"\n… ({len(value) - MAX_TEXT:,} more characters not read)")


def _new_external_id() -> str:
    return uuid.uuid4().hex


def _added(stored: Message) -> AddedMessage:
    """What the service answers to a send, rebuilt from the stored message."""
    attributes = stored.attributes
    return AddedMessage(
        direction=attributes.direction or "",
        author_id=stored.author_id,
        content=attributes.body,
        external_id=stored.external_id,
        message_id=stored.id,
        created_at=stored.created_at,
    )


def _echo(message: MessageInput) -> AddedMessage:
    """The message as sent, when the service confirmed it without a body and it cannot be
    read back."""
    return AddedMessage.model_validate({
        "direction": message.type,
        "authorId": getattr(message, "agent_id", None) or "",
        "content": None if message.content is None else message.content.wire(),
        "externalId": message.external_id,
    })
