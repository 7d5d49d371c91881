"""The layers stay apart: api and store never import Textual, the tui never speaks HTTP, the
sandbox imports only the contract, and starting the console loads no sandbox framework."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "frontdesk"


def imports_of(package: str) -> dict[str, set[str]]:
    """Module file → every module it imports (absolute names; relative ones resolved)."""
    found: dict[str, set[str]] = {}
    root = SRC / package
    for path in root.rglob("*.py"):
        module = "frontdesk." + ".".join(path.relative_to(SRC).with_suffix("").parts)
        if module.endswith(".__init__"):
            module = module.removesuffix(".__init__")
            base = module.split(".")
        else:
            base = module.split(".")[:-1]
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parent = base[: len(base) - node.level + 1]
                    prefix = ".".join(parent)
                    target = f"{prefix}.{node.module}" if node.module else prefix
                    names.add(target)
                    names.update(f"{target}.{alias.name}" for alias in node.names)
                elif node.module:
                    names.add(node.module)
        found[str(path.relative_to(SRC))] = names
    return found


def offenders(package: str, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(
        f"{file} imports {name}"
        for file, names in imports_of(package).items()
        for name in names
        if any(name == f or name.startswith(f + ".") for f in forbidden)
    )


@pytest.mark.parametrize("package", ["api", "store"])
def test_api_and_store_never_import_textual(package: str) -> None:
    assert offenders(package, ("textual", "frontdesk.tui", "frontdesk.sandbox")) == []


def test_store_does_not_reach_into_the_sandbox_or_the_console() -> None:
    assert offenders("store", ("frontdesk.tui", "frontdesk.sandbox", "httpx")) == []


def test_tui_never_speaks_http() -> None:
    assert offenders("tui", ("httpx", "frontdesk.sandbox", "frontdesk.api.client",
                             "frontdesk.api.transport", "frontdesk.api.resources")) == []


def test_sandbox_imports_only_the_contract_of_the_client_side() -> None:
    allowed_config = {"sandbox/cli.py"}  # `sandbox serve` defaults its database to data_dir()
    found = [
        line for line in offenders("sandbox", ("frontdesk.tui", "frontdesk.store",
                                                "frontdesk.api.client", "frontdesk.api.transport",
                                                "frontdesk.api.resources", "frontdesk.config",
                                                "frontdesk.launch", "frontdesk.cli"))
        if line.split(" imports ")[0] not in allowed_config
    ]
    assert found == []


def test_text_sanitiser_does_not_import_textual() -> None:
    source = (SRC / "text.py").read_text()
    assert "import textual" not in source and "from textual" not in source


def test_starting_the_console_does_not_load_the_sandbox_framework() -> None:
    code = (
        "import sys\n"
        "import frontdesk.cli, frontdesk.tui.app, frontdesk.store.session, frontdesk.launch\n"
        "bad = [m for m in ('fastapi', 'uvicorn', 'starlette', 'frontdesk.sandbox.app') "
        "if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, timeout=60)
    assert result.stdout.strip() == ""


def test_api_models_load_without_the_http_stack() -> None:
    code = ("import sys\nimport frontdesk.api.models\n"
            "print('httpx' in sys.modules, 'textual' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, timeout=60)
    assert result.stdout.split() == ["False", "False"]
