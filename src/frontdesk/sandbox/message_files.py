"""The attachments of a new message as the sandbox records them: a ``data:`` URL (RFC 2397)
is decoded and copied into the sandbox, to be served at ``/files/{id}``; an http(s) URL is
kept as given (the sandbox fetches nothing).
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any
from urllib.parse import unquote_to_bytes

from ..api.models import FileInput
from .context import SandboxContext
from .errors import bad_request

__all__ = ["store_attachments"]

_TOKEN = r"[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}"
_MEDIA_TYPE = re.compile(f"^{_TOKEN}/{_TOKEN}$")


def _decode_data_url(url: str) -> tuple[str, bytes]:
    """The media type and bytes of a ``data:`` URL (RFC 2397); a 400 when malformed."""
    header, comma, payload = url[5:].partition(",")
    if not comma:
        raise bad_request("Invalid value in request: an attachment data: URL has no comma")
    params = header.split(";")
    is_base64 = params[-1].strip().lower() == "base64"
    if is_base64:
        params.pop()
    media_type = params[0].strip().lower() or "text/plain"
    if not _MEDIA_TYPE.match(media_type):
        raise bad_request("Invalid value in request: an attachment data: URL has an invalid "
                          "media type")
    raw = unquote_to_bytes(payload)
    if is_base64:
        try:
            raw = base64.b64decode(b"".join(raw.split()), validate=True)
        except (binascii.Error, ValueError) as exc:
            raise bad_request("Invalid value in request: an attachment data: URL is not "
                              "valid base64") from exc
    return media_type, raw


def store_attachments(ctx: SandboxContext, files: list[FileInput] | None, base_url: str
                      ) -> list[dict[str, Any]]:
    """Attachments as recorded: ``data:`` URLs copied into the sandbox and served at
    ``{base_url}/files/{id}``; http(s) URLs kept as given (the sandbox fetches nothing)."""
    out: list[dict[str, Any]] = []
    for file in files or []:
        url = file.url
        if url.startswith("data:"):
            media_type, raw = _decode_data_url(url)
            file_id = ctx.new_id()
            ctx.db.run(
                "INSERT INTO attachments (id, content_type, data, name, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (file_id, media_type, raw, file.pretty_name, ctx.now_iso()),
            )
            url = f"{base_url.rstrip('/')}/files/{file_id}"
        item: dict[str, Any] = {"url": url}
        if file.pretty_name is not None:
            item["prettyName"] = file.pretty_name
        out.append(item)
    return out


# ---------------------------------------------------------------- writing
