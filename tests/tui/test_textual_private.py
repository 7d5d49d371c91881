"""Each private name of Textual the console relies on is still there, with the parameters our
overrides are written for (``tui/textual_private.py``): a Textual upgrade that removes or
renames one fails here, by that name, rather than somewhere in a key burst, a stylesheet or
an option list. And no module imports from Textual's private modules but that list, and
each report to Textual that an entry names (``docs/textual-reports/``) is there."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

import pytest
import textual

import frontdesk
from frontdesk.tui.textual_private import PRIVATE_NAMES, PrivateName


def _set_by_init(owner: type, attribute: str) -> bool:
    """Whether one of Textual's classes in ``owner``'s MRO sets ``self.<attribute>``."""
    assignment = re.compile(rf"\bself\.{re.escape(attribute)}\s*(:[^=\n]*)?=[^=]")
    return any(assignment.search(inspect.getsource(cls)) for cls in owner.__mro__
               if cls.__module__.startswith("textual"))


@pytest.mark.parametrize("entry", PRIVATE_NAMES, ids=lambda e: f"{e.module}:{e.name}")
def test_textual_still_has_the_private_name(entry: PrivateName) -> None:
    gone = f"Textual {textual.__version__} has no {entry.module}:{entry.name} ({entry.why})"
    module = importlib.import_module(entry.module)
    owner_name, _, attribute = entry.name.rpartition(".")
    if not owner_name:
        assert hasattr(module, attribute), gone
        return
    owner = getattr(module, owner_name, None)
    assert isinstance(owner, type), gone
    if entry.per_instance:
        assert hasattr(owner, attribute) or _set_by_init(owner, attribute), gone
        return
    found = getattr(owner, attribute, None)
    assert found is not None, gone
    if entry.overridden is not None:
        parameters = tuple(inspect.signature(found).parameters)[1:]
        assert parameters == entry.overridden, (
            f"Textual {textual.__version__}: {entry.module}:{entry.name} now takes "
            f"{parameters}, our override {entry.overridden} ({entry.why})")


def test_the_list_names_each_once() -> None:
    names = [(e.module, e.name) for e in PRIVATE_NAMES]
    assert len(names) == len(set(names))
    assert all(e.why for e in PRIVATE_NAMES)


#: the project's root (this file is ``tests/tui/test_textual_private.py``)
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("report", sorted({e.report for e in PRIVATE_NAMES if e.report}))
def test_each_report_named_is_there_with_its_reproduction(report: str) -> None:
    """Each behaviour of Textual's we patch links its report to Textual, from the project's
    root; the reproductions it names (``repro_….py``) sit beside it."""
    path = ROOT / report
    assert path.is_file(), f"{report} is named in tui/textual_private.py but is not there"
    reproductions = set(re.findall(r"repro_\w+\.py", path.read_text(encoding="utf-8")))
    assert reproductions, f"{report} names no reproduction"
    missing = [name for name in reproductions if not (path.parent / name).is_file()]
    assert not missing, f"{report} names {missing}, not beside it"


def _private_module(name: str) -> bool:
    return name.split(".")[0] == "textual" and any(p.startswith("_") for p in name.split("."))


def test_only_the_list_imports_from_textuals_private_modules() -> None:
    """An import from ``textual._…`` (or ``textual.widgets._…``), or of a private name of
    Textual's (``textual.keys._character_to_key``), goes through ``tui/textual_private.py``,
    in the console, its tests and its bench alike, so the list stays whole."""
    elsewhere: list[str] = []
    for folder in (Path(frontdesk.__file__).parent, ROOT / "tests", ROOT / "bench"):
        for path in sorted(folder.rglob("*.py")):
            if path.name == "textual_private.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom):
                    module = node.module or ""
                    modules = [module] + [f"{module}.{alias.name}" for alias in node.names
                                          if module.split(".")[0] == "textual"]
                elif isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                else:
                    continue
                elsewhere += [f"{path.relative_to(ROOT)}:{node.lineno} {m}" for m in modules
                              if _private_module(m)]
    assert not elsewhere, elsewhere
