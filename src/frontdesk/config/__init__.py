"""How a start-up finds the API key: the entry points' own part of the settings.

:mod:`.api_key` resolves the key a start-up uses (the environment, a key file, the system
keyring) and scrubs it from the environment children inherit. Everything that is kept
between runs (locations, ``config.toml``, key files, the keyring) is
:mod:`frontdesk.settings`, which the entry points, the store and the console import
directly.
"""
