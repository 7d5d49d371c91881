"""``frontdesk profiles``: the stored profiles, the default marked."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from .common import Fail, clean_text, parse


def profiles_main(argv: Sequence[str]) -> int:
    """``frontdesk profiles``: name, base URL, who you are, where the key is; never the key."""
    parser = argparse.ArgumentParser(
        prog="frontdesk profiles",
        description="List the profiles: name, base URL, who you are, where the key comes from "
        "(never the key). '*' marks the default profile.")
    parse(parser, argv)
    from ..settings import ConfigError, load_settings

    try:
        settings = load_settings()
    except ConfigError as error:
        raise Fail(1, str(error)) from None
    if not settings.profiles:
        print("No profiles yet: run `frontdesk login` to connect to a service, or "
              "`frontdesk demo` to try the console.")
        return 0
    rows = [("", "NAME", "BASE URL", "AS", "KEY")]
    for name in sorted(settings.profiles):
        profile = settings.profiles[name]
        key: str = profile.key_source
        if profile.key_source == "file" and profile.key_file:
            key = f"file {profile.key_file}"
        where = f"{profile.base_url} (gateway)" if profile.gateway else profile.base_url
        rows.append(("*" if name == settings.default_profile else "", name, where,
                     profile.agent_email or profile.agent_id or "?", key))
    widths = [max(len(clean_text(row[i])) for row in rows) for i in range(4)]
    for row in rows:
        cells = [clean_text(cell).ljust(width) for cell, width in zip(row, widths, strict=False)]
        print(" ".join([*cells, clean_text(row[4])]).rstrip())
    return 0
