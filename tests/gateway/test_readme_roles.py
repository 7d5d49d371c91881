"""The README's role table (section "For teams") is ROLE_TABLE, written out: regenerate it
with ``python tests/gateway/test_readme_roles.py`` after changing the table."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from frontdesk.api.operations import OPERATION_TABLE
from frontdesk.api.roles import ROLE_TABLE, Role

README = Path(__file__).resolve().parents[2] / "README.md"
START, END = "<!-- role table: ROLE_TABLE -->", "<!-- end of role table -->"


def role_table() -> str:
    """Markdown: for each API group, the operations each role gains."""
    gains: dict[str, dict[Role, list[str]]] = defaultdict(lambda: defaultdict(list))
    for op in OPERATION_TABLE:
        group, name = op.name.split(".", 1)
        gains[group][ROLE_TABLE[op.name]].append(name.replace("_", " "))
    lines = ["| group | agent | supervisor adds | admin adds |", "|---|---|---|---|"]
    for group, by_role in gains.items():
        cells = [", ".join(by_role.get(role, [])) or "—" for role in Role]
        lines.append(f"| {group.replace('_', ' ')} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def test_the_readme_shows_the_role_table_as_it_is() -> None:
    text = README.read_text(encoding="utf-8")
    shown = text.split(START, 1)[1].split(END, 1)[0].strip()
    assert shown == role_table(), "run: python tests/gateway/test_readme_roles.py"


if __name__ == "__main__":
    text = README.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    README.write_text(head + START + "\n" + role_table() + "\n" + END + rest.split(END, 1)[1],
                      encoding="utf-8")
