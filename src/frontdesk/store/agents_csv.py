"""Agents created many at once: an agents CSV read into rows (or why a line cannot be an
agent), and the report of what the service made of each line."""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import ValidationError

from ..api.models import Agent, BulkActionOutcome, CreateAgentInput
from .csv_files import CsvKind, line_fields, parse_csv, read_csv_file
from .people_checks import EMAIL, invalid_reason

__all__ = [
    "AGENT_CSV_COLUMNS",
    "BULK_LIMIT",
    "BulkReport",
    "BulkRow",
    "CsvRow",
    "bulk_detail",
    "parse_agents_csv",
    "read_agents_csv",
]

#: At most this many agents per bulk call (the service's limit).
BULK_LIMIT = 500


@dataclass(frozen=True)
class CsvRow:
    """One data line of an agents CSV: what it asks for, or why the console refuses it."""

    line: int
    display_name: str
    email: str
    agent: CreateAgentInput | None = None
    refusal: str = ""


@dataclass(frozen=True)
class BulkRow:
    """The outcome of one CSV line: created (with the new id) or not, and why."""

    line: int
    display_name: str
    email: str
    ok: bool
    detail: str
    agent_id: str | None = None


@dataclass(frozen=True)
class BulkReport:
    """Every line of a bulk creation, in file order."""

    rows: list[BulkRow] = field(default_factory=list)

    @property
    def created(self) -> int:
        """How many agents were created."""
        return sum(1 for r in self.rows if r.ok)

    @property
    def failed(self) -> int:
        """How many lines were not."""
        return sum(1 for r in self.rows if not r.ok)


#: CSV header → field of a new agent (case and ``_`` insensitive; lists split on ``;``).
AGENT_CSV_COLUMNS: dict[str, str] = {
    "displayname": "display_name",
    "email": "email",
    "phonenumber": "phone_number",
    "firstname": "first_name",
    "lastname": "last_name",
    "avatarurl": "avatar_url",
    "middlenames": "middle_names",
    "additionalemails": "additional_emails",
    "additionalphonenumbers": "additional_phone_numbers",
}
_AGENT_CSV = CsvKind(
    "agents", AGENT_CSV_COLUMNS,
    "displayName, email, phoneNumber, firstName, lastName, avatarUrl, middleNames, "
    "additionalEmails, additionalPhoneNumbers",
    lambda names: None if "display_name" in names and "email" in names
    else "The header must name at least displayName and email")


def parse_agents_csv(text: str) -> list[CsvRow]:
    """Read an agents CSV (header ``displayName,email,phoneNumber,…``) into rows.

    A line that cannot become an agent (no display name, a bad email address, the same email
    as an earlier line) is kept with its ``refusal``; a header without ``displayName`` and
    ``email``, or with a column nobody knows, refuses the whole file.
    """
    return parse_csv(text, _AGENT_CSV, _csv_row)


def read_agents_csv(path: str) -> list[CsvRow]:
    """The rows of the agents CSV at ``path`` (``~`` expanded; UTF-8, a BOM allowed)."""
    return parse_agents_csv(read_csv_file(path))


def _csv_row(line: int, names: list[str], values: list[str], seen: dict[str, int]) -> CsvRow:
    fields = line_fields(names, values)
    display_name = str(fields.get("display_name", ""))
    email = str(fields.get("email", ""))
    if len(values) > len(names):
        return CsvRow(line, display_name, email,
                      refusal=f"{len(values)} values for {len(names)} columns")
    if not display_name:
        return CsvRow(line, display_name, email, refusal="no display name")
    if not email:
        return CsvRow(line, display_name, email, refusal="no email address")
    if not EMAIL.match(email):
        return CsvRow(line, display_name, email, refusal="the email address is not valid")
    earlier = seen.get(email.casefold())
    if earlier is not None:
        return CsvRow(line, display_name, email,
                      refusal=f"the same email address as line {earlier}")
    try:
        agent = CreateAgentInput.model_validate(fields)
    except ValidationError as exc:
        return CsvRow(line, display_name, email, refusal=invalid_reason(exc))
    seen[email.casefold()] = line
    return CsvRow(line, display_name, email, agent=agent)


def bulk_detail(outcome: BulkActionOutcome[Agent]) -> tuple[bool, str, str | None]:
    """One outcome of a bulk call: created or not, the words to show, the new id."""
    if outcome.ok:
        return True, "created", outcome.data.id if outcome.data is not None else None
    error = outcome.error
    return False, error.message if error is not None else "refused by the service", None

