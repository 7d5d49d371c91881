"""Running the console on a target until it ends (shared by the console and the demo)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .common import Fail, clean_text

if TYPE_CHECKING:
    from ..launch import Target
    from ..settings import Settings


def run_console(target: Target, settings: Settings) -> int:
    """Open the console on ``target`` (the Textual app owns the terminal until it quits)."""
    from .. import launch
    from ..keycheck import KeyRefused
    from ..store.local import LocalStoreError

    try:
        return launch.run_console(target, settings)
    except (LocalStoreError, KeyRefused) as error:
        raise Fail(1, clean_text(str(error))) from None
