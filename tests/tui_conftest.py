"""tests/tui/conftest.py as an importable module, for tests outside tests/tui that build a
console the same way (its ``Console`` makes signed-in sessions and apps).

Both conftest files are named ``conftest``, so neither can be imported by that name from
another folder; this loads the console's one under a name of its own, once.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["tui_fixtures"]


def tui_fixtures() -> ModuleType:
    """tests/tui/conftest.py as a module: its Console builds sessions and apps."""
    path = Path(__file__).resolve().parent / "tui" / "conftest.py"
    spec = importlib.util.spec_from_file_location("frontdesk_tui_fixtures", path)
    assert spec is not None and spec.loader is not None
    module = sys.modules.get(spec.name)
    if module is None:
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    return module
