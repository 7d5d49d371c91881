"""The one reader of the CSV files People imports (agents, end users).

A file is UTF-8 (a byte-order mark allowed); its first line is the header, whose names are
matched without regard to case, ``_`` or spaces; list fields are split on ``;``. What refuses
the whole file (no file, no header, a column nobody knows, a line that is not CSV, no rows)
raises :class:`~frontdesk.store.errors.Refused`; what is wrong with one line is the caller's
row reader's to say, so that the other lines still go.
"""

from __future__ import annotations

import csv
import io
import os
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .errors import Refused

__all__ = ["LIST_FIELDS", "MAX_BYTES", "MAX_ROWS", "CsvKind", "line_fields", "parse_csv",
           "read_csv_file"]

R = TypeVar("R")

#: The fields whose cell holds several values, separated by ``;``.
LIST_FIELDS = frozenset({"middle_names", "additional_emails", "additional_phone_numbers"})

#: ``row(line number, field names, the line's cells, seen)``: one row of the file (a refused
#: one included); ``seen`` is the caller's, to find lines that repeat an earlier one.
RowReader = Callable[[int, list[str], list[str], dict[str, int]], R]


@dataclass(frozen=True, slots=True)
class CsvKind:
    """What a file holds: its rows' ``noun`` ("agents"), its ``columns`` (a header name in
    lower case without ``_`` or spaces → the field), the names as a person writes them
    (``known``, for the refusal of an unknown column) and ``required``, the refusal of a
    header that lacks what every row needs (None when it has it)."""

    noun: str
    columns: Mapping[str, str]
    known: str
    required: Callable[[list[str]], str | None]


#: The largest CSV file People reads, in bytes, and the most rows it takes from one.
MAX_BYTES = 5_000_000
MAX_ROWS = 10_000


def read_csv_file(path: str) -> str:
    """The text of the CSV file at ``path`` (``~`` expanded); ``Refused`` when there is
    none, it is a folder or a device (``/dev/zero`` would never end), it is larger than
    ``MAX_BYTES``, it is not UTF-8 text or it cannot be read."""
    typed = path.strip() if isinstance(path, str) else ""
    if not typed:
        raise Refused("Type the path of a CSV file")
    target = Path(typed).expanduser()
    try:
        with target.open("rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise Refused(f"{target} is not a regular file")
            data = file.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise Refused(f"There is no file {target}") from None
    except IsADirectoryError:
        raise Refused(f"{target} is a folder, not a CSV file") from None
    except OSError as error:
        raise Refused(f"Could not read {target}: {error.strerror or error}") from None
    if len(data) > MAX_BYTES:
        raise Refused(f"{target} is larger than {MAX_BYTES // 1_000_000} MB: split it into "
                      "smaller files")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Refused(f"{target} is not a text file in UTF-8") from None


def parse_csv(text: str, kind: CsvKind, row: RowReader[R]) -> list[R]:
    """The file's rows (blank lines skipped), each read by ``row``."""
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        first = ",".join(name.strip() for name in kind.known.split(",")[:3])
        raise Refused(f"The file is empty: the first line must be the header {first},…"
                      ) from None
    except csv.Error as error:
        raise Refused(f"The file is not a CSV: {error}") from None
    names: list[str] = []
    for raw in header:
        key = raw.strip().lstrip("\ufeff").replace("_", "").replace(" ", "").lower()
        if key not in kind.columns:
            raise Refused(f"Unknown column '{raw.strip()}' in the header (known: {kind.known})")
        names.append(kind.columns[key])
    problem = kind.required(names)
    if problem is not None:
        raise Refused(problem)
    rows: list[R] = []
    seen: dict[str, int] = {}
    try:
        for values in reader:
            if not any(v.strip() for v in values):
                continue
            if len(rows) == MAX_ROWS:
                raise Refused(f"The file has more than {MAX_ROWS:,} {kind.noun}: split it "
                              "into smaller files")
            rows.append(row(reader.line_num, names, values, seen))
    except csv.Error as error:
        raise Refused(f"Line {reader.line_num} is not valid CSV: {error}") from None
    if not rows:
        raise Refused(f"The file has a header but no {kind.noun}")
    return rows


def line_fields(names: list[str], values: list[str]) -> dict[str, Any]:
    """One line's non-empty cells by field (list fields split on ``;``)."""
    fields: dict[str, Any] = {}
    for name, value in zip(names, values, strict=False):
        value = value.strip()
        if not value:
            continue
        if name in LIST_FIELDS:
            fields[name] = [part.strip() for part in value.split(";") if part.strip()]
        else:
            fields[name] = value
    return fields
