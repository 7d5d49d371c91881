"""Files sent as a multipart form (the help centre's attachment upload): the ``files`` parts
read from the body, and the request body as the OpenAPI document describes it."""

from __future__ import annotations

from email import policy
from email.parser import BytesParser

from .errors import bad_request

__all__ = ["UPLOAD_BODY", "files_of"]

#: The upload's request body, for the OpenAPI document.
UPLOAD_BODY = {
    "requestBody": {
        "required": True,
        "content": {"multipart/form-data": {"schema": {
            "type": "object",
            "properties": {"files": {"type": "array",
                                     "items": {"type": "string", "format": "binary"}}},
        }}},
    },
}


def files_of(content_type: str, payload: bytes) -> list[tuple[str, str, bytes]]:
    """The ``files`` parts of a multipart form: (file name, media type, bytes); 400 for a
    body that is not one."""
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode("latin-1",
                                                                             "replace")
    try:
        message = BytesParser(policy=policy.HTTP).parsebytes(head + payload)
    except (ValueError, TypeError, IndexError) as exc:
        raise bad_request("Invalid value in request: the multipart body cannot be read") \
            from exc
    if not message.is_multipart():
        raise bad_request("Invalid value in request: the multipart body cannot be read")
    out: list[tuple[str, str, bytes]] = []
    for part in message.iter_parts():
        if part.get_param("name", header="content-disposition") != "files":
            continue
        data = part.get_payload(decode=True)
        raw_name = part.get_filename() or "file"
        out.append((str(raw_name)[:255], part.get_content_type(),
                    data if isinstance(data, bytes) else b""))
    return out
