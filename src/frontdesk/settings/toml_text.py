"""The settings' one TOML writer: tomlkit, loaded only when saving, writing new files and
changing hand-edited ones in place (their comments and layout kept), with the escaping the
settings need (control and invisible format characters written as escapes)."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


def _toml_string(value: str) -> str:
    """A TOML basic string: quotes, backslashes, control and format characters escaped."""
    out = ['"']
    for char in value:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif unicodedata.category(char) in ("Cc", "Cf"):
            # Control and invisible format characters (bidi overrides too) stay visible.
            code = ord(char)
            out.append(f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def _toml_value(value: object) -> str:
    """A scalar or a list of scalars as TOML text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    raise TypeError(f"cannot write a {type(value).__name__} to TOML")


def dumps_toml(data: Mapping[str, object]) -> str:
    """Serialise nested mappings of strings, numbers, booleans and lists of those to TOML.

    Enough for :class:`Settings`; ``None`` values are skipped (TOML has no null). A new file
    is written by the same writer as a changed one (:func:`merge_toml` into an empty
    document), so both escape and lay out alike.
    """
    return merge_toml("", data)


def merge_toml(current: str, data: Mapping[str, object]) -> str:
    """``current`` TOML text changed to hold exactly ``data``, keeping its comments and layout.

    Values equal to what the text holds are left as written; changed ones are written in
    place (control and invisible format characters escaped, so they stay visible), keeping
    their comment. Text that is not valid TOML is replaced by a new file holding ``data``.
    """
    import tomlkit  # only when saving: not on the way to the first frame
    from tomlkit.exceptions import TOMLKitError

    try:
        document = tomlkit.parse(current)
    except TOMLKitError:
        document = tomlkit.document()
    _merge_table(document, data)
    text = _space_tables(tomlkit.dumps(document)).lstrip("\n")
    return text if text.endswith("\n") or not text else text + "\n"


#: a table header line (a pattern string, compiled on the first write)
_TABLE_HEADER = r"^\[[^\]=,]+\]\s*(#.*)?$"


def _space_tables(text: str) -> str:
    """A blank line before each table header that directly follows a value (tomlkit adds
    keys and tables without one); a header under its own comment stays under it."""
    lines = text.split("\n")
    out: list[str] = []
    for line in lines:
        if (re.match(_TABLE_HEADER, line) and out and out[-1].strip()
                and not out[-1].lstrip().startswith("#")):
            out.append("")
        out.append(line)
    return "\n".join(out)


def _merge_table(table: Any, data: Mapping[str, object]) -> None:
    """Make a tomlkit table (or the document) hold ``data``; see :func:`merge_toml`."""
    import tomlkit

    for key in list(table.keys()):
        if data.get(key) is None:
            del table[key]
    for key, value in data.items():
        if not isinstance(key, str):
            raise TypeError(f"TOML keys must be strings, not {type(key).__name__}")
        if value is None:
            continue
        existing = table.get(key)
        if isinstance(value, Mapping):
            if not isinstance(existing, Mapping):
                existing = tomlkit.table(
                    is_super_table=bool(value) and all(isinstance(v, Mapping)
                                                       for v in value.values()))
                _merge_table(existing, value)
                table[key] = existing
            else:
                _merge_table(existing, value)
            continue
        item = tomlkit.parse(f"value = {_toml_value(value)}")["value"]
        if existing is None or _plain(existing) != _plain(item):
            table[key] = item


def _plain(item: Any) -> Any:
    """A tomlkit item as plain Python values (for comparing what a file holds)."""
    unwrap = getattr(item, "unwrap", None)
    return unwrap() if unwrap is not None else item
