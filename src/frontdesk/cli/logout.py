"""``frontdesk logout``: forget a profile and its key (a key file only when frontdesk made it)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from .common import Fail, parse, secret_store
from .console import pick_profile
from .logs import file_logging


def _confirm(question: str, assume_yes: bool) -> bool:
    """A yes/no question; ``--yes`` answers yes, no terminal answers no."""
    if assume_yes:
        return True
    if not sys.stdin.isatty():
        return False
    try:
        return input(question).strip().lower() in ("y", "yes")
    except EOFError:
        return False


def logout_main(argv: Sequence[str]) -> int:
    """``frontdesk logout``: delete a profile's key (keyring, or a key file we made) and the
    profile."""
    parser = argparse.ArgumentParser(
        prog="frontdesk logout",
        description="Forget a profile: deletes its key from the system keyring (and a key "
        "file frontdesk wrote, after asking) and removes the profile from the settings.")
    parser.add_argument("--profile", metavar="NAME",
                        help="the profile to forget (default: the default profile)")
    parser.add_argument("-y", "--yes", action="store_true",
                        help="do not ask before deleting a key file frontdesk wrote")
    args = parse(parser, argv)
    from ..settings import ConfigError, KeyringUnavailable, load_settings
    from ..store import signin

    try:
        settings = load_settings()
    except ConfigError as error:
        raise Fail(1, str(error)) from None
    with file_logging():
        profile = pick_profile(settings, args.profile)
        if profile is None:
            print("No profiles: nothing to sign out of.")
            return 0
        name = profile.name
        problem = None
        notes = []
        if profile.key_source == "keyring":
            try:
                secret_store().delete_key(name)
            except KeyringUnavailable as error:
                problem = str(error).strip().splitlines()[0]
        elif profile.key_source == "file" and profile.key_file:
            path = Path(profile.key_file).expanduser()
            if not path.exists():
                signin.forget_made_key_file(path)
            elif signin.made_key_file(path):
                if _confirm(f"Delete the key file {path}? [y/N] ", args.yes):
                    path.unlink(missing_ok=True)
                    signin.forget_made_key_file(path)
                    notes.append(f"deleted the key file {path}")
                else:
                    notes.append(f"kept the key file {path} (delete it yourself)")
            else:
                notes.append(f"left your key file {path} in place")
        try:
            signin.remove_profile(name)
        except ConfigError as error:
            raise Fail(1, str(error)) from None
        print(f"Signed out: profile '{name}' removed" + "".join(f"; {n}" for n in notes) + ".")
        if problem:
            raise Fail(1, f"the key could not be deleted from the keyring: {problem}")
        return 0
