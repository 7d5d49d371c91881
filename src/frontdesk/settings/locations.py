"""Where frontdesk keeps its files: the platform's folders, or all under
``$FRONTDESK_HOME`` when that is set (tests and the demo use it to stay out of the user's
home)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import platformdirs

from .names import APP_NAME, HOME_ENV, SETTINGS_FILE


def _home(env: Mapping[str, str] | None) -> Path | None:
    """Return ``$FRONTDESK_HOME`` as a path, or None when it is unset or empty."""
    value = (os.environ if env is None else env).get(HOME_ENV, "").strip()
    return Path(value).expanduser() if value else None


def config_dir(env: Mapping[str, str] | None = None) -> Path:
    """Directory of ``config.toml``: the platform's config dir, or ``$FRONTDESK_HOME/config``."""
    home = _home(env)
    if home is not None:
        return home / "config"
    return platformdirs.user_config_path(APP_NAME, appauthor=False)


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    """Directory of the local cache database, drafts and outbox (``$FRONTDESK_HOME/data``)."""
    home = _home(env)
    if home is not None:
        return home / "data"
    return platformdirs.user_data_path(APP_NAME, appauthor=False)


def log_dir(env: Mapping[str, str] | None = None) -> Path:
    """Directory of log files (``$FRONTDESK_HOME/logs``)."""
    home = _home(env)
    if home is not None:
        return home / "logs"
    return platformdirs.user_log_path(APP_NAME, appauthor=False)


def cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """Directory of disposable cached files (``$FRONTDESK_HOME/cache``)."""
    home = _home(env)
    if home is not None:
        return home / "cache"
    return platformdirs.user_cache_path(APP_NAME, appauthor=False)


def settings_path(env: Mapping[str, str] | None = None) -> Path:
    """Path of the settings file, ``config_dir()/config.toml``."""
    return config_dir(env) / SETTINGS_FILE


def locations(env: Mapping[str, str] | None = None) -> dict[str, Path]:
    """Every place frontdesk keeps files, for ``frontdesk locate``; nothing is created."""
    return {
        "config": config_dir(env),
        "settings": settings_path(env),
        "data": data_dir(env),
        "logs": log_dir(env),
        "cache": cache_dir(env),
    }
