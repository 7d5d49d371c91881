"""The README's "Security and reliability" section promises things and names the tests that
prove them (``tests/<path>.py::<test name>``): every one of those tests must exist, and none may
be a test known to fail (``xfail``) — a promise needs a passing proof."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
HEADING = re.compile(r"^(#+)\s+Security and reliability\s*$", re.MULTILINE)
REFERENCE = re.compile(r"(tests/[\w/.-]+\.py)::([A-Za-z_]\w*)")


def section() -> str | None:
    """The text of the README's "Security and reliability" section (None when absent)."""
    text = README.read_text(encoding="utf-8") if README.exists() else ""
    found = HEADING.search(text)
    if found is None:
        return None
    level = len(found.group(1))
    rest = text[found.end():]
    end = re.search(rf"^#{{1,{level}}}\s", rest, re.MULTILINE)
    return rest[: end.start()] if end else rest


def functions_in(path: Path) -> dict[str, list[ast.expr]]:
    """Test functions of a module (also inside classes), with their decorators."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: dict[str, list[ast.expr]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found[node.name] = node.decorator_list
    return found


def is_xfail(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return ast.unparse(target).endswith("mark.xfail")


def test_every_test_the_readme_cites_exists_and_is_not_known_to_fail() -> None:
    text = section()
    references = REFERENCE.findall(text or "")
    if not references:  # absent, or still the placeholder
        pytest.skip("README section not written yet")
    problems: list[str] = []
    modules: dict[str, dict[str, list[ast.expr]]] = {}
    for file, name in sorted(set(references)):
        path = ROOT / file
        if not path.is_file():
            problems.append(f"{file}: no such file")
            continue
        if file not in modules:
            modules[file] = functions_in(path)
        decorators = modules[file].get(name)
        if decorators is None:
            problems.append(f"{file}::{name}: no such test")
        elif any(is_xfail(d) for d in decorators):
            problems.append(f"{file}::{name}: marked xfail, so it proves nothing yet")
    assert problems == []
