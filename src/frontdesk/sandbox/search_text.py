"""The sandbox's conversation search: its text query (in subjects and message bodies,
case-insensitive for ASCII, as SQL ``LIKE``) and the highlights of a hit.

Highlights wrap each match in ``<em class="highlight">…</em>``: ``subject`` holds the
subject, ``message`` up to three fragments of matching messages; the surrounding text is
returned as stored (not HTML-escaped).
"""

from __future__ import annotations

import re
from typing import Any

from ..api.models import SearchQuery
from .context import SandboxContext
from .db import loads
from .errors import bad_request
from .search_filters import Sql

__all__ = ["highlights", "mark", "terms_of", "text_sql"]

_HIGHLIGHT = '<em class="highlight">{}</em>'
_MAX_FRAGMENTS = 3
_FRAGMENT = 160


def terms_of(query: SearchQuery) -> list[str]:
    """What to look for: the whole phrase (``exactMatch``) or each word."""
    text = query.value.strip()
    terms = [text] if query.exact_match else list(dict.fromkeys(text.split()))
    if not terms or not terms[0]:
        raise bad_request("Invalid value in request: query.value must not be blank")
    return terms


def _like(term: str) -> str:
    escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def text_sql(terms: list[str]) -> Sql:
    """The condition that every term occurs in the subject or a message body."""
    parts: list[str] = []
    params: list[Any] = []
    for term in terms:
        parts.append("(c.subject LIKE ? ESCAPE '\\' OR EXISTS (SELECT 1 FROM messages m "
                     "WHERE m.conversation_id = c.id AND m.body_text LIKE ? ESCAPE '\\'))")
        params += [_like(term), _like(term)]
    return " AND ".join(parts), params


def _pattern(terms: list[str]) -> re.Pattern[str]:
    ordered = sorted(terms, key=len, reverse=True)
    return re.compile("|".join(re.escape(t) for t in ordered), re.IGNORECASE)


def mark(text: str, pattern: re.Pattern[str]) -> str:
    """``text`` with every match wrapped in the highlight tag."""
    return pattern.sub(lambda m: _HIGHLIGHT.format(m.group(0)), text)


def _fragment(text: str, pattern: re.Pattern[str]) -> str | None:
    found = pattern.search(text)
    if found is None:
        return None
    if len(text) > _FRAGMENT:
        start = max(0, found.start() - _FRAGMENT // 3)
        text = text[start:start + _FRAGMENT]
    return mark(text, pattern)


def _body(attributes: Any) -> str:
    if not isinstance(attributes, dict):
        return ""
    content = attributes.get("content") or (attributes.get("emailContent") or {}).get("content")
    return str(content.get("value", "")) if isinstance(content, dict) else ""


def inner_hits(ctx: SandboxContext, row: Any, terms: list[str]) -> list[dict[str, Any]]:
    """The messages of a hit that matched, each with a fragment around the match (the
    deprecated search's ``innerHits``), up to three."""
    pattern = _pattern(terms)
    likes = " OR ".join("body_text LIKE ? ESCAPE '\\'" for _ in terms)
    out: list[dict[str, Any]] = []
    for message in ctx.db.all(
        f"SELECT id, attributes FROM messages WHERE conversation_id = ? AND ({likes}) "
        "ORDER BY seq", (row["id"], *[_like(t) for t in terms]),
    ):
        fragment = _fragment(_body(loads(message["attributes"])), pattern)
        if fragment is not None:
            out.append({"id": message["id"], "highlight": {"text": fragment}})
            if len(out) == _MAX_FRAGMENTS:
                break
    return out


def highlights(ctx: SandboxContext, row: Any, terms: list[str]) -> dict[str, list[str]]:
    """Where a hit matched: its subject, and fragments of up to three messages."""
    pattern = _pattern(terms)
    out: dict[str, list[str]] = {}
    subject = row["subject"]
    if subject and pattern.search(subject):
        out["subject"] = [mark(subject, pattern)]
    likes = " OR ".join("body_text LIKE ? ESCAPE '\\'" for _ in terms)
    fragments: list[str] = []
    for message in ctx.db.all(
        f"SELECT attributes FROM messages WHERE conversation_id = ? AND ({likes}) ORDER BY seq",
        (row["id"], *[_like(t) for t in terms]),
    ):
        fragment = _fragment(_body(loads(message["attributes"])), pattern)
        if fragment is not None:
            fragments.append(fragment)
            if len(fragments) == _MAX_FRAGMENTS:
                break
    if fragments:
        out["message"] = fragments
    return out
