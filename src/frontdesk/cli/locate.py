"""``frontdesk locate``: where config, settings, data, logs and cache live."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from .common import parse
from .logs import LOG_FILE


def locate_main(argv: Sequence[str]) -> int:
    """``frontdesk locate``: where config, settings, data, logs and cache live."""
    parser = argparse.ArgumentParser(
        prog="frontdesk locate",
        description="Show where frontdesk keeps its files (set FRONTDESK_HOME to keep them "
        "all under one folder). Nothing is created.")
    parse(parser, argv)
    from ..launch import demo_paths, running_demo
    from ..sandbox.key_file import key_file_for
    from ..settings import KEYRING_SERVICE, locations

    places: dict[str, object] = dict(locations())
    places["log file"] = locations()["logs"] / LOG_FILE
    places["keys"] = f"system keyring, service '{KEYRING_SERVICE}' (user = profile name)"
    demo = running_demo()
    if demo is None:
        places["demo sandbox"] = "not running (`frontdesk demo` starts it)"
    else:
        places["demo sandbox"] = f"{demo.base_url} (integrations: {demo.integrations_url})"
        places["demo API key"] = demo.key
    places["demo key file"] = key_file_for(demo_paths()[0])
    width = max(len(name) for name in places)
    for name, value in places.items():
        print(f"{name.ljust(width)}  {value}")
    return 0
