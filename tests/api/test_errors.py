"""Typed errors: the class picked for each status, lenient message extraction, readable text."""

from __future__ import annotations

import email.utils
import pickle

import httpx2
import pytest

from frontdesk.api.errors import (
    MESSAGE_LIMIT,
    ApiError,
    Conflict,
    InvalidRequest,
    NotFound,
    RateLimited,
    ServiceUnavailable,
    TransportError,
    Unauthorized,
    UnexpectedResponse,
    error_from_exception,
    error_from_response,
    parse_retry_after,
)

JSON = "application/json"


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, InvalidRequest),
        (401, Unauthorized),
        (404, NotFound),
        (409, Conflict),
        (429, RateLimited),
        (500, ServiceUnavailable),
        (502, ServiceUnavailable),
        (503, ServiceUnavailable),
        (504, ServiceUnavailable),
        (507, ServiceUnavailable),
        (418, ApiError),
        (302, UnexpectedResponse),
        (200, UnexpectedResponse),
    ],
)
def test_status_picks_the_class(status: int, cls: type[ApiError]) -> None:
    error = error_from_response(status, b'{"message": "m"}', JSON, "GET /v1/tags", None)
    assert type(error) is cls
    assert error.status == status
    assert error.operation == "GET /v1/tags"


def test_class_hierarchy() -> None:
    for cls in (InvalidRequest, Unauthorized, NotFound, Conflict, RateLimited):
        assert issubclass(cls, ApiError)
    assert issubclass(ServiceUnavailable, ApiError)
    assert issubclass(UnexpectedResponse, TransportError)
    assert issubclass(TransportError, ApiError)


def test_service_message_is_kept_and_str_is_one_readable_line() -> None:
    error = error_from_response(
        404,
        b'{"message": "The requested resource could not be found"}',
        "application/json; charset=utf-8",
        "GET /v1/tags/{tagId}",
        None,
    )
    assert isinstance(error, NotFound)
    assert error.message == "The requested resource could not be found"
    assert str(error) == (
        "Not found (404) — The requested resource could not be found [GET /v1/tags/{tagId}]"
    )


def test_json_without_content_type_is_still_read() -> None:
    error = error_from_response(409, b'  {"message": "assigned to another agent"}', None)
    assert isinstance(error, Conflict)
    assert error.message == "assigned to another agent"
    assert str(error) == "Conflict (409) — assigned to another agent"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b'{"detail": "Not Found"}', "Not Found"),
        (b'{"error": {"message": "nested"}}', "nested"),
        (b'{"detail": [{"loc": ["body"], "msg": "field required"}]}', "field required"),
        (b'{"errors": [{"message": "a"}, {"message": "b"}]}', "a; b"),
    ],
)
def test_common_alternative_json_shapes(body: bytes, expected: str) -> None:
    assert error_from_response(400, body, JSON).message == expected


def test_html_error_page_gives_its_title() -> None:
    page = (
        b"<html><head><title>502 Bad Gateway</title><style>h1{}</style></head>"
        b"<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center>"
        b"</body></html>"
    )
    error = error_from_response(502, page, "text/html", "GET /v1/conversations", "3")
    assert isinstance(error, ServiceUnavailable)
    assert error.message == "502 Bad Gateway"
    assert error.retry_after == 3.0
    assert "<" not in str(error)


def test_html_without_title_gives_text_without_tags() -> None:
    error = error_from_response(503, b"<p>Down &amp; out</p><script>x()</script>", "text/html")
    assert error.message == "Down & out"


def test_garbage_body_is_a_short_sanitised_snippet() -> None:
    """The one sanitiser (frontdesk.text): escapes and controls are shown inert, never
    sent to the terminal; the text is one short line."""
    body = b"\x1b]52;c;ZXZpbA==\x07\x1b[2J\x00oops \xff\xfe" + b"A" * 5000
    error = error_from_response(500, body, "text/plain")
    assert len(error.message) <= 200 and "\n" not in error.message
    assert error.message.startswith("␛]52;c;ZXZpbA==␇␛[2J␀oops")
    assert error.message.endswith("…")
    for bad in ("\x1b", "\x00", "\x07"):
        assert bad not in error.message


def test_truncated_json_falls_back_to_snippet() -> None:
    error = error_from_response(400, b'{"message": "cut he', JSON)
    assert isinstance(error, InvalidRequest)
    assert error.message == '{"message": "cut he'


def test_service_message_is_sanitised_too() -> None:
    body = b'{"message": "bad \\u001b[31mred\\u001b[0m \\u202eevil\\n next"}'
    error = error_from_response(400, body, JSON)
    assert error.message == "bad ␛[31mred␛[0m ⟨U+202E⟩evil next"


def test_empty_body_gives_a_clear_text() -> None:
    error = error_from_response(503, b"", None, "GET /v1/queues", None)
    assert error.message == "The service answered 503 Service Unavailable without a message"
    assert str(error).startswith("Service unavailable (503) — ")


def test_json_message_not_string_uses_snippet() -> None:
    error = error_from_response(400, b'{"message": 42}', JSON)
    assert error.message == '{"message": 42}'


def test_declared_charset_is_used() -> None:
    error = error_from_response(400, "café".encode("latin-1"), "text/plain; charset=latin-1")
    assert error.message == "café"


def test_rate_limited_carries_retry_after() -> None:
    error = error_from_response(429, b'{"message": "slow down"}', JSON, "GET /v1/tags", "1.5")
    assert isinstance(error, RateLimited)
    assert error.retry_after == 1.5
    assert str(error) == "Rate limited (429) — slow down (retry after 1.5 s) [GET /v1/tags]"


def test_parse_retry_after_forms() -> None:
    assert parse_retry_after(None) is None
    assert parse_retry_after("") is None
    assert parse_retry_after("2") == 2.0
    assert parse_retry_after(" 0.25 ") == 0.25
    assert parse_retry_after("-3") == 0.0
    assert parse_retry_after("soon") is None
    assert parse_retry_after("nan") is None
    assert parse_retry_after("inf") is None
    now = 1_700_000_000.0
    date = email.utils.formatdate(now + 30, usegmt=True)
    assert parse_retry_after(date, now=lambda: now) == pytest.approx(30.0)
    past = email.utils.formatdate(now - 30, usegmt=True)
    assert parse_retry_after(past, now=lambda: now) == 0.0


def test_client_side_invalid_request_has_no_status() -> None:
    error = InvalidRequest("the tag name is empty", operation="POST /v1/tags")
    assert error.status is None
    assert str(error) == "Invalid request — the tag name is empty [POST /v1/tags]"


def test_transport_error_text_and_sent_flag() -> None:
    error = TransportError("Could not connect to the service", sent=False)
    assert error.status is None
    assert error.sent is False
    assert str(error) == "Connection problem — Could not connect to the service"
    assert UnexpectedResponse("HTML instead of JSON", status=200).sent is True


def test_errors_survive_pickling_with_their_attributes() -> None:
    error = error_from_response(429, b'{"message": "m"}', JSON, "GET /v1/tags", "2")
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is RateLimited
    assert (copy.status, copy.message, copy.operation, copy.retry_after) == (
        429,
        "m",
        "GET /v1/tags",
        2.0,
    )
    transport = pickle.loads(pickle.dumps(TransportError("x", sent=False)))
    assert transport.sent is False


def test_repr_names_the_fields() -> None:
    error = TransportError("x", operation="GET /v1/tags", sent=False)
    assert repr(error) == (
        "TransportError(message='x', status=None, operation='GET /v1/tags', "
        "retry_after=None, sent=False)"
    )


REQUEST = httpx2.Request("GET", "http://127.0.0.1:1/v1/tags", headers={"Authorization": "k3y"})


@pytest.mark.parametrize(
    ("exc", "cls", "sent"),
    [
        (httpx2.ConnectError("refused", request=REQUEST), TransportError, False),
        (httpx2.ConnectTimeout("slow", request=REQUEST), TransportError, False),
        (httpx2.PoolTimeout("pool", request=REQUEST), TransportError, False),
        (ConnectionRefusedError(111, "Connection refused"), TransportError, False),
        (httpx2.ReadTimeout("read", request=REQUEST), TransportError, True),
        (httpx2.WriteTimeout("write", request=REQUEST), TransportError, True),
        (httpx2.RemoteProtocolError("closed", request=REQUEST), TransportError, True),
        (httpx2.ReadError("reset", request=REQUEST), TransportError, True),
        (httpx2.DecodingError("bad gzip", request=REQUEST), UnexpectedResponse, True),
        (RuntimeError("???"), TransportError, True),
    ],
)
def test_error_from_exception(exc: BaseException, cls: type[TransportError], sent: bool) -> None:
    error = error_from_exception(exc, "GET /v1/tags")
    assert type(error) is cls
    assert error.sent is sent
    assert error.operation == "GET /v1/tags"
    assert "k3y" not in str(error) and "k3y" not in repr(error)


def test_timeout_message_is_readable() -> None:
    error = error_from_exception(httpx2.ReadTimeout("", request=REQUEST), "GET /v1/tags")
    assert str(error) == "Connection problem — The service did not answer in time [GET /v1/tags]"


def test_a_long_message_is_cut_with_an_ellipsis() -> None:
    error = error_from_response(400, b'{"message": "' + b"a" * 1200 + b'"}', JSON)
    assert error.message == "a" * (MESSAGE_LIMIT - 1) + "…"
