"""The names frontdesk is known by: its folders' name, its environment variables, its
keyring service and its settings file."""

from __future__ import annotations

APP_NAME = "frontdesk"
HOME_ENV = "FRONTDESK_HOME"
API_KEY_ENV = "FRONTDESK_API_KEY"
SANDBOX_KEYS_ENV = "FRONTDESK_SANDBOX_KEYS"
#: Environment variables that hold secrets: read once, then taken out of the environment so
#: that no process the console starts (a browser, an editor, a clipboard helper) inherits them.
SECRET_ENV = (API_KEY_ENV, SANDBOX_KEYS_ENV)
KEYRING_SERVICE = "frontdesk"
SETTINGS_FILE = "config.toml"
DEFAULT_KEYRING_TIMEOUT = 3.0

