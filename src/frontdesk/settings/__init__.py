"""What frontdesk keeps between runs and how it is checked: the settings schema, where the
files are, ``config.toml`` read and written, API keys in 0600 files and in the system keyring.

Below the console and the store (both may import it) and free of Textual, HTTP and pydantic,
so the settings are read before the console's first frame without paying for them. The entry
point's own concerns (which key a start-up uses, scrubbing it from the environment) are in
:mod:`frontdesk.config`.
"""

from __future__ import annotations

from .checks import SettingsError, SettingsProblem
from .errors import ConfigError, KeyFileError, KeyNotFound, KeyringUnavailable
from .key_files import read_key_file, write_key_file
from .locations import cache_dir, config_dir, data_dir, locations, log_dir, settings_path
from .names import (
    API_KEY_ENV,
    APP_NAME,
    DEFAULT_KEYRING_TIMEOUT,
    HOME_ENV,
    KEYRING_SERVICE,
    SANDBOX_KEYS_ENV,
    SECRET_ENV,
    SETTINGS_FILE,
)
from .schema import (
    AlertSettings,
    ComposeSettings,
    PollSettings,
    Profile,
    RateSettings,
    Settings,
    UISettings,
)
from .secret_store import SecretStore
from .settings_file import load_settings, save_settings
from .toml_text import dumps_toml, merge_toml

__all__ = [
    "API_KEY_ENV",
    "APP_NAME",
    "DEFAULT_KEYRING_TIMEOUT",
    "HOME_ENV",
    "KEYRING_SERVICE",
    "SANDBOX_KEYS_ENV",
    "SECRET_ENV",
    "SETTINGS_FILE",
    "AlertSettings",
    "ComposeSettings",
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
    "save_settings",
    "settings_path",
    "write_key_file",
]
