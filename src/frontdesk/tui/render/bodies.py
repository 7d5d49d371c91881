"""A message body by its content type (Markdown, HTML or plain text), and a bounded cache of
bodies already drawn."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Final

from rich.console import RenderableType
from rich.text import Text

from frontdesk.text import clean

from .from_html import html_to_markdown_text
from .markdown import markdown_to_text


def render_body(content_type: str, value: str) -> RenderableType:
    """A message body as a Rich :class:`~rich.text.Text`.

    ``Markdown`` is rendered (see :func:`markdown_to_text`), ``Html`` converted with
    :func:`html_to_markdown_text` and then rendered, anything else (``Text``, unknown types)
    shown as plain text.  The value is cleaned first; no markup is ever interpreted.
    """
    return _render(content_type, value)


def _render(content_type: str, value: str) -> Text:
    value = clean(value)
    kind = content_type.lower()
    if kind == "markdown":
        return markdown_to_text(value)
    if kind == "html":
        return markdown_to_text(html_to_markdown_text(value))
    return Text(value, end="")


BODY_CACHE_SIZE: Final = 4_096
_cache: OrderedDict[Hashable, Text] = OrderedDict()


def render_body_cached(key: Hashable, content_type: str, value: str) -> Text:
    """:func:`render_body` remembered under ``key`` (a message id) for this type and value.

    The cached text is shared: callers must copy it (``Text.copy``/``append_text``) before
    changing it.  A changed value (an anonymised message keeps its id) renders afresh.
    The cache keeps the :data:`BODY_CACHE_SIZE` most recently used bodies.
    """
    cache_key = (key, content_type, value)
    text = _cache.get(cache_key)
    if text is not None:
        _cache.move_to_end(cache_key)
        return text
    text = _render(content_type, value)
    _cache[cache_key] = text
    if len(_cache) > BODY_CACHE_SIZE:
        _cache.popitem(last=False)
    return text


def body_cache_clear() -> None:
    """Forget every cached body (for tests and benchmarks)."""
    _cache.clear()
