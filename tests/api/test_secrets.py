"""The API key wrapper never shows its value through any text form, and cannot be pickled."""

from __future__ import annotations

import copy
import logging
import pickle
import traceback

import pytest

from frontdesk.api.secrets import MASK, ApiKey, redact

SECRET = "s3cret"


def test_repr_and_str_hide_the_value() -> None:
    key = ApiKey(SECRET)
    assert repr(key) == "ApiKey('****')"
    assert str(key) == "****"
    assert SECRET not in repr(key)
    assert "s3" not in repr(key) and "et'" not in repr(key)


def test_every_text_form_hides_the_value() -> None:
    key = ApiKey(SECRET)
    forms = [
        f"{key}",
        f"{key!r}",
        f"{key!s}",
        f"{key:>20}",
        "%s" % key,  # noqa: UP031
        "%r" % key,  # noqa: UP031
        str([key]),
        repr({"key": key}),
        str((key,)),
    ]
    for text in forms:
        assert SECRET not in text
        assert MASK in text


def test_logging_hides_the_value(caplog: pytest.LogCaptureFixture) -> None:
    key = ApiKey(SECRET)
    logger = logging.getLogger("frontdesk.test.secrets")
    with caplog.at_level(logging.DEBUG, logger="frontdesk.test.secrets"):
        logger.info("using key %s", key)
        logger.info("using key %r", key)
        logger.info("config %s", {"api_key": key})
    assert SECRET not in caplog.text
    assert caplog.text.count(MASK) == 3


def test_traceback_with_locals_hides_the_value() -> None:
    key = ApiKey(SECRET)
    try:
        raise RuntimeError(f"boom with {key}")
    except RuntimeError as exc:
        text = "".join(
            traceback.TracebackException.from_exception(exc, capture_locals=True).format()
        )
    assert "key" in text
    assert SECRET not in text


def test_reveal_gives_the_value() -> None:
    assert ApiKey(SECRET).reveal() == SECRET


def test_equality_and_hash_by_value() -> None:
    assert ApiKey(SECRET) == ApiKey(SECRET)
    assert ApiKey(SECRET) != ApiKey("other")
    assert ApiKey(SECRET) != SECRET  # a key is not its string
    assert hash(ApiKey(SECRET)) == hash(ApiKey(SECRET))
    assert len({ApiKey(SECRET), ApiKey(SECRET)}) == 1


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickling_raises(protocol: int) -> None:
    with pytest.raises(TypeError):
        pickle.dumps(ApiKey(SECRET), protocol=protocol)
    with pytest.raises(TypeError):
        pickle.dumps({"nested": [ApiKey(SECRET)]}, protocol=protocol)


def test_copy_returns_the_same_immutable_key() -> None:
    key = ApiKey(SECRET)
    assert copy.copy(key) is key
    assert copy.deepcopy({"k": key})["k"] is key


def test_slots_and_immutability() -> None:
    key = ApiKey(SECRET)
    assert not hasattr(key, "__dict__")
    with pytest.raises(AttributeError):
        key._value = "x"
    with pytest.raises(AttributeError):
        key.other = "x"
    with pytest.raises(AttributeError):
        del key._value


@pytest.mark.parametrize("bad", ["", "   ", "abc\r\nX-Evil: 1", "a\x00b"])
def test_rejects_unusable_values_without_showing_them(bad: str) -> None:
    with pytest.raises(ValueError) as info:
        ApiKey(bad)
    if bad.strip():
        assert bad not in str(info.value)


def test_rejects_non_strings() -> None:
    with pytest.raises(TypeError):
        ApiKey(b"bytes")  # type: ignore[arg-type]


def test_redact_replaces_every_occurrence() -> None:
    key = ApiKey(SECRET)
    text = f"Authorization: {SECRET}\nagain {SECRET}!"
    assert redact(text, key) == "Authorization: ****\nagain ****!"
    assert redact("nothing here", key) == "nothing here"


def test_redact_catches_url_encoded_forms() -> None:
    key = ApiKey("a/b+c=d")
    assert redact("?key=a%2Fb%2Bc%3Dd", key) == "?key=****"
    assert redact("?key=a/b%2Bc%3Dd", key) == "?key=****"
    assert redact("raw a/b+c=d", key) == "raw ****"
