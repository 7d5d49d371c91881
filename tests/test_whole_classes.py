"""No class is cut into parts that re-declare their host: a class that declares attributes it
never sets (bare annotations in its body, no ``__init__`` or ``__new__`` of its own) while its
methods use them is a part of another, whose state it copies for the type checker with
nothing to keep the copies in step. A class too big for one file stays whole or hands work
to a collaborator it owns (CONTRIBUTING.md)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "frontdesk"

#: bases and decorators whose bare annotations are fields, not borrowed state
_FIELDS = {"NamedTuple", "TypedDict", "Protocol", "BaseModel", "Record", "Input", "Enum",
           "StrEnum", "IntEnum", "Exception", "dataclass",
           "_Section"}  # the settings' sections are dataclasses (dataclass_transform)
#: parts still to be made collaborators (each named here is a promise, not a licence)
STILL_PARTS: set[str] = set()


def _names(nodes: list[ast.expr]) -> set[str]:
    return {ast.unparse(node).split("(")[0].split("[")[0].split(".")[-1] for node in nodes}


def parts() -> set[str]:
    """Every class of the project that declares state it never sets, and uses it."""
    found: set[str] = set()
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            if _names(node.bases) & _FIELDS or _names(node.decorator_list) & _FIELDS:
                continue
            methods = {item.name for item in node.body
                       if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)}
            if "__init__" in methods or "__new__" in methods or not methods:
                continue
            declared = {item.target.id for item in node.body if isinstance(item, ast.AnnAssign)
                        and item.value is None and isinstance(item.target, ast.Name)}
            declared |= {item.target.id for block in node.body if isinstance(block, ast.If)
                         and "TYPE_CHECKING" in ast.unparse(block.test)
                         for item in block.body if isinstance(item, ast.AnnAssign)
                         and isinstance(item.target, ast.Name)}
            if declared:
                found.add(f"{path.relative_to(SRC).as_posix()}:{node.name}")
    return found


def test_no_class_is_split_into_parts_that_re_declare_their_host() -> None:
    found = parts()
    assert found - STILL_PARTS == set(), "parts that re-declare their host: make them whole"
    assert STILL_PARTS - found == set(), "made whole: take them off STILL_PARTS"
