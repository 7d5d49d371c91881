"""The project's documents are a map: every file, folder and module they name exists.

CONTRIBUTING.md, docs/quality.md and the README send a reader to paths; after a file moves or
is split, a stale path sends them nowhere. Checked here:

- in CONTRIBUTING's layout tree, every ``name.py`` and ``folder/`` is looked for in the folder
  whose block it is written in (``api/`` … ``client.py`` is ``src/frontdesk/api/client.py``);
- everywhere else in each document, every path in backticks (``tui/screens/inbox/thread.py``,
  ``tests/tui/conftest.py``, ``guard.py``) must be the end of a path in the repository;
- every module in backticks (``store.typed_time``, ``tui.answers.Answered``,
  ``frontdesk.store.session.Session``) must be a module of the package, and the name after it
  (if any) defined at its top level.

Placeholders (``<group>``, ``<mode>``) and globs are skipped.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = ("CONTRIBUTING.md", "docs/quality.md", "README.md")
#: where the repository's paths are looked for (not the virtualenv, caches or git)
SEARCHED = ("src", "tests", "bench", "docs", "styles", "examples", ".ci")
#: what a backticked word must end with to be taken for a file
FILE_ENDINGS = (".py", ".md", ".toml", ".tcss", ".lock", ".json", ".cfg")
#: names of things that are written by a run, not kept in the repository
NOT_KEPT = {".venv/mypy_cache", "screenshots/", "config.toml", "demo/sandbox.db.key"}

LAYOUT = re.compile(r"^## Layout\s*$.*?^```\n(.*?)^```", re.MULTILINE | re.DOTALL)
BACKTICKED = re.compile(r"`([^`\n]+)`")
#: a dotted name in the package (``sandbox.faults`` alone is the test fixture's attribute)
DOTTED = re.compile(r"(?:frontdesk\.\w+|api|store|tui|settings)(?:\.\w+)+")
PACKAGE = ROOT / "src" / "frontdesk"
WORD = re.compile(r"[\w./<>-]+")


@cache
def repository_paths() -> frozenset[str]:
    """Every file and folder of the repository, as POSIX paths from its root (folders end
    with ``/``)."""
    found: set[str] = {p.name + ("/" if p.is_dir() else "") for p in ROOT.iterdir()}
    for top in SEARCHED:
        base = ROOT / top
        if not base.exists():
            continue
        found.add(f"{top}/")
        for path in base.rglob("*"):
            if "__pycache__" in path.parts or "__snapshots__" in path.parts:
                continue
            relative = path.relative_to(ROOT).as_posix()
            found.add(relative + "/" if path.is_dir() else relative)
    return frozenset(found)


def exists_somewhere(name: str) -> bool:
    """Whether ``name`` is a path of the repository or the end of one."""
    if name in NOT_KEPT:
        return True
    name = name.rstrip("/")
    return any(p.rstrip("/") == name or p.rstrip("/").endswith("/" + name)
               for p in repository_paths())


def is_placeholder(word: str) -> bool:
    return any(mark in word for mark in "<>*{}…") or "://" in word


def pathlike(word: str) -> bool:
    """A word in backticks that names a file or folder (not code, not a key)."""
    if " " in word or is_placeholder(word) or word.startswith(("-", ".venv/bin")):
        return False
    if word.startswith(("/", "v1/")):  # a path of the service, not of the repository
        return False
    if word.endswith(FILE_ENDINGS):
        return True
    return "/" in word and re.fullmatch(r"[\w.-]+(/[\w.-]+)*/?", word) is not None


def layout_entries(text: str) -> list[tuple[str, str]]:
    """``(folder, name)`` for each file and folder the layout tree names: its folder is the
    innermost one whose block (the lines indented under it) the name is written in."""
    found = LAYOUT.search(text)
    assert found is not None, "CONTRIBUTING.md has no layout tree"
    entries: list[tuple[str, str]] = []
    stack: list[tuple[int, str]] = []  # (indentation, folder from the root)
    for line in found.group(1).splitlines():
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        while stack and stack[-1][0] >= indent:
            stack.pop()
        folder = stack[-1][1] if stack else ""
        first = line.split()[0]
        if first.endswith("/") and not is_placeholder(first):
            stack.append((indent, folder + first))
            entries.append((folder, first))
            words = line.split(None, 1)[1] if len(line.split(None, 1)) > 1 else ""
            folder = folder + first
        else:
            words = line
        for word in WORD.findall(words):
            word = word.rstrip(".,;:")
            if word.endswith(".py") and not is_placeholder(word):
                entries.append((folder, word))
    return entries


def test_every_file_the_layout_tree_names_is_where_it_says() -> None:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    paths = repository_paths()
    missing = [folder + name for folder, name in layout_entries(text)
               if folder + name not in paths]
    assert missing == []


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_path_a_document_names_exists(document: str) -> None:
    text = (ROOT / document).read_text(encoding="utf-8")
    named = {word for word in BACKTICKED.findall(text) if pathlike(word)}
    assert named, f"{document} names no paths: is the pattern still right?"
    missing = sorted(word for word in named if not exists_somewhere(word))
    assert missing == []


def top_level_names(module: Path) -> set[str]:
    """What a module defines or imports at its top level, and the names it lists as strings
    at its top level (``__all__``, a package's table of names it loads on first use)."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    names: set[str] = {node.value for statement in tree.body
                       if isinstance(statement, ast.Assign | ast.AnnAssign)
                       for node in ast.walk(statement)
                       if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    for node in tree.body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def module_problem(dotted: str) -> str | None:
    """Why ``dotted`` names no module of the package (or nothing in it); None when it does."""
    parts = dotted.removeprefix("frontdesk.").split(".")
    for end in range(len(parts), 0, -1):
        folder = PACKAGE.joinpath(*parts[:end])
        module = folder / "__init__.py" if folder.is_dir() else folder.with_suffix(".py")
        if module.is_file():
            rest = parts[end:]
            if rest and rest[0] not in top_level_names(module):
                return f"{dotted}: {module.relative_to(ROOT)} has no {rest[0]}"
            return None
    return f"{dotted}: no such module"


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_module_a_document_names_exists(document: str) -> None:
    text = (ROOT / document).read_text(encoding="utf-8")
    named = {word.removesuffix("()") for word in BACKTICKED.findall(text)
             if DOTTED.fullmatch(word.removesuffix("()"))}
    problems = sorted(filter(None, map(module_problem, named)))
    assert problems == []
