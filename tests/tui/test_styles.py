"""The stylesheets are found the same way in a checkout and in an installed wheel."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import frontdesk
from frontdesk.tui.styles import FIRST_FRAME, styles_dir, stylesheets

CHECKOUT = Path(__file__).resolve().parents[2]


def test_a_checkout_uses_its_top_level_styles() -> None:
    assert styles_dir() == CHECKOUT / "styles"
    names = [path.name for path in stylesheets()]
    assert names[: len(FIRST_FRAME)] == list(FIRST_FRAME)
    assert sorted(names) == sorted(p.name for p in (CHECKOUT / "styles").glob("*.tcss"))


def test_an_installed_package_uses_the_styles_packed_inside_it(tmp_path: Path) -> None:
    """The wheel's layout (``frontdesk/styles`` inside the package, no checkout around it)."""
    package = tmp_path / "site" / "frontdesk"
    shutil.copytree(Path(frontdesk.__file__).parent, package,
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(CHECKOUT / "styles", package / "styles")
    code = ("import frontdesk.tui.styles as s; "
            "print(s.__file__); print(s.styles_dir()); print(len(s.stylesheets()))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, timeout=60, cwd=tmp_path,
                            env={"PYTHONPATH": str(tmp_path / "site"), "PATH": ""})
    module, folder, count = result.stdout.split()
    assert Path(module).is_relative_to(package)
    assert Path(folder) == package / "styles"
    assert int(count) == len(list((CHECKOUT / "styles").glob("*.tcss")))
