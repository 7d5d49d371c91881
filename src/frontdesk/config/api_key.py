"""Where the console finds the API key at start-up (the environment wins, then the
profile's keyring, variable or key file), and taking secrets out of the environment once read."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from ..settings import (
    API_KEY_ENV,
    SECRET_ENV,
    KeyFileError,
    KeyNotFound,
    Profile,
    SecretStore,
    read_key_file,
)


def scrub_secret_environment(env: dict[str, str] | None = None) -> list[str]:
    """Take every secret variable (:data:`SECRET_ENV`) out of ``env`` (the process's own
    environment by default), so that child processes never inherit them; call it once the key
    has been read. Returns the names removed."""
    target: Any = os.environ if env is None else env
    removed = [name for name in SECRET_ENV if name in target]
    for name in removed:
        del target[name]
    return removed



def resolve_key(
    profile: Profile,
    env: Mapping[str, str] = os.environ,
    *,
    store: SecretStore | None = None,
) -> str:
    """The API key for ``profile``.

    ``FRONTDESK_API_KEY`` wins when set (scripts and CI); otherwise the profile's
    ``key_source`` decides: the keyring (through ``store``, a default :class:`SecretStore`
    when None), the environment variable, or the 0600 key file.
    """
    from_env = env.get(API_KEY_ENV, "").strip()
    if from_env:
        return from_env
    if profile.key_source == "env":
        raise KeyNotFound(
            f"Profile {profile.name!r} takes its API key from the environment, "
            f"but {API_KEY_ENV} is not set."
        )
    if profile.key_source == "file":
        if not profile.key_file:
            raise KeyFileError(f"Profile {profile.name!r} has key_source = 'file' but no key_file.")
        return read_key_file(profile.key_file)
    key = (store or SecretStore()).get_key(profile.name)
    if not key:
        raise KeyNotFound(
            f"No API key for profile {profile.name!r} in the system keyring. "
            f"Run `frontdesk login` to store one, or set {API_KEY_ENV}."
        )
    return key
