"""Where frontdesk keeps its files, its settings, and how it finds the API key: the entry
point's view of them, for the CLI and the launchers.

Three concerns, all without Textual so the CLI and tests can use them alone:

* **Locations** — config, data, logs and cache directories from platformdirs, or all under
  ``$FRONTDESK_HOME`` when that is set (tests and the demo use it to stay out of the user's home).
* **Settings** — ``config.toml`` read with :mod:`tomllib`, checked by frozen dataclasses, and
  written back atomically (mode 0600) by a small TOML writer for the subset we use.
* **Secrets** — the API key lives in the system keyring (never in the config file). Keyring calls
  run on a worker thread with a timeout because a locked Secret Service can hang forever. When no
  secure keyring exists we say so and offer ``FRONTDESK_API_KEY`` or a 0600 key file; we never
  fall back to plaintext on our own.

The kept things themselves (locations, schema, files, key files, keyring) are
:mod:`frontdesk.settings`, which the store and the console import; this package adds how a
start-up resolves the key (:mod:`.api_key`) and re-exports the rest for the entry points.
"""

from __future__ import annotations

from ..settings import (
    API_KEY_ENV,
    APP_NAME,
    DEFAULT_KEYRING_TIMEOUT,
    HOME_ENV,
    KEYRING_SERVICE,
    SANDBOX_KEYS_ENV,
    SECRET_ENV,
    SETTINGS_FILE,
    ConfigError,
    KeyFileError,
    KeyNotFound,
    KeyringUnavailable,
    PollSettings,
    Profile,
    RateSettings,
    SecretStore,
    Settings,
    SettingsError,
    SettingsProblem,
    UISettings,
    cache_dir,
    config_dir,
    data_dir,
    dumps_toml,
    load_settings,
    locations,
    log_dir,
    merge_toml,
    read_key_file,
    save_settings,
    settings_path,
    write_key_file,
)
from .api_key import resolve_key, scrub_secret_environment

__all__ = [
    "API_KEY_ENV",
    "APP_NAME",
    "DEFAULT_KEYRING_TIMEOUT",
    "HOME_ENV",
    "KEYRING_SERVICE",
    "SANDBOX_KEYS_ENV",
    "SECRET_ENV",
    "SETTINGS_FILE",
    "ConfigError",
    "KeyFileError",
    "KeyNotFound",
    "KeyringUnavailable",
    "PollSettings",
    "Profile",
    "RateSettings",
    "SecretStore",
    "Settings",
    "SettingsError",
    "SettingsProblem",
    "UISettings",
    "cache_dir",
    "config_dir",
    "data_dir",
    "dumps_toml",
    "load_settings",
    "locations",
    "log_dir",
    "merge_toml",
    "read_key_file",
    "resolve_key",
    "save_settings",
    "scrub_secret_environment",
    "settings_path",
    "write_key_file",
]
