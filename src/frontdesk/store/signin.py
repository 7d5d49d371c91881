"""Signing in to a service: check a key and an identity, then keep the profile and the key.

Shared by ``frontdesk login`` and the first-run screen so that both say the same things and
store things the same way. Nothing here imports Textual, and the key stays inside an
:class:`~frontdesk.api.secrets.ApiKey` wherever it is kept, so it cannot leak through a repr,
a log line or a traceback that prints locals.

* :func:`verify` asks the service who the identity is, with the key: the :class:`Agent`, or
  :class:`~frontdesk.store.errors.Refused` saying what went wrong (the key was refused, the
  service cannot be reached, nobody has that email).
* :func:`verify_member` asks a team gateway whose personal key it is: the member (their
  agent and role), or ``Refused`` the same way.
* :func:`keep_key` puts the key where the profile will look for it (the keyring or a 0600 key
  file); :func:`save_profile` and :func:`remove_profile` update the settings file.
* Key files that frontdesk itself wrote are remembered (:func:`made_key_file`), so that
  ``frontdesk logout`` deletes only files it made, and only after asking.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from pathlib import Path
from typing import Literal

from ..api.client import ApiClient
from ..api.errors import ApiError, NotFound, TransportError, Unauthorized, UnexpectedResponse
from ..api.models import Agent, GatewayMember
from ..api.pacing import Pacer
from ..api.retry import RetryPolicy
from ..api.secrets import ApiKey
from ..keycheck import identity_fields
from ..service_address import NOT_JSON, no_service_text
from ..settings import (
    AlertSettings,
    KeyFileError,
    Profile,
    SecretStore,
    Settings,
    config_dir,
    load_settings,
    read_key_file,
    save_settings,
    write_key_file,
)
from .address import AGENTS, address_problem
from .errors import Refusal, Refused

__all__ = [
    "KeySource",
    "default_key_file",
    "forget_made_key_file",
    "gateway_profile",
    "identity_fields",
    "keep_key",
    "made_key_file",
    "remove_profile",
    "save_alerts",
    "save_profile",
    "verify",
    "verify_member",
]

KeySource = Literal["keyring", "env", "file"]


#: Signing in should answer quickly: one retry, short waits, a 10 s read timeout.
_SIGNIN_RETRY = RetryPolicy(max_attempts=2, base_delay=0.2, max_delay=0.5, max_retry_after=3.0)
_SIGNIN_TIMEOUT = 10.0
#: The list of key files frontdesk wrote itself, one path per line, in the config directory.
_MADE_KEY_FILES = "made-key-files"


async def verify(
    base_url: str,
    integrations_url: str | None,
    key: str | ApiKey,
    identity: str,
    *,
    http_timeout: float = _SIGNIN_TIMEOUT,
) -> Agent:
    """Ask the service at ``base_url`` who ``identity`` is, using ``key``.

    ``http_timeout`` bounds each request. Returns the agent, or raises :class:`Refused` with
    one sentence for people saying what is wrong (never with the key in it): what was typed
    is not usable (a rule), the key was refused (401/403) or nobody has that email or id
    (the service), the base URL is not the service's (a 404 for its list of agents:
    :mod:`frontdesk.store.address`), or the service cannot be reached or answered something
    else (:attr:`Refusal.UNREACHABLE`: nothing was checked).
    """
    try:
        email, agent_id = identity_fields(identity)
    except ValueError as error:
        raise Refused(str(error)) from None
    try:
        secret = key if isinstance(key, ApiKey) else ApiKey(key.strip())
    except ValueError:
        raise Refused("The API key is empty or is not one line of text.") from None
    try:
        client = ApiClient(base_url, secret, integrations_url, timeout=http_timeout,
                           retry=_SIGNIN_RETRY, pacer=Pacer(enabled=False))
    except (ValueError, TypeError) as error:
        raise Refused(f"Cannot use {base_url}: {error}") from None
    try:
        async with client:
            if email is not None:
                page = await client.agents.list_page(email=email, page_size=5)
                wanted = email.casefold()
                found = [a for a in page.items if a.email.casefold() == wanted] or page.items
                if not found:
                    raise Refused(f"No agent or admin has the email {email} at {base_url}.",
                                  kind=Refusal.SERVICE)
                return found[0]
            assert agent_id is not None
            try:
                return await client.agents.get(agent_id)
            except NotFound as error:
                said = await address_problem(client, base_url, False, error)
                if said is not None:
                    raise Refused(said, kind=Refusal.SERVICE, error=error) from None
                raise
    except Unauthorized as error:
        raise Refused(f"The key was refused by {base_url} (HTTP {error.status or 401}). "
                      "Check the API key and try again.", error=error) from None
    except NotFound as error:
        if email is not None:
            raise Refused(no_service_text(base_url, 404, AGENTS),
                          kind=Refusal.SERVICE, error=error) from None
        raise Refused(f"No agent or admin has the id {agent_id} at {base_url}.",
                      error=error) from None
    except UnexpectedResponse as error:
        raise Refused(no_service_text(base_url, NOT_JSON, AGENTS),  # nothing was checked
                      kind=Refusal.UNREACHABLE, error=error) from None
    except TransportError as error:
        if error.status is None:
            raise Refused(f"Cannot reach the service at {base_url}: {error.message}",
                          kind=Refusal.UNREACHABLE, error=error) from None
        raise Refused(
            f"The service at {base_url} answered something unexpected: {error.message}",
            kind=Refusal.UNREACHABLE, error=error) from None
    except ApiError as error:
        raise Refused(f"The service at {base_url} answered: {error}",
                      kind=Refusal.UNREACHABLE, error=error) from None


async def verify_member(base_url: str, key: str | ApiKey, *,
                        http_timeout: float = _SIGNIN_TIMEOUT) -> GatewayMember:
    """Ask the team gateway at ``base_url`` whose personal ``key`` it is.

    Returns the member (the agent they act as, their email and role), or raises
    :class:`Refused` with one sentence for people: the key was refused (401), the address
    is not a team gateway (404: a service without a gateway in front, say), or the gateway
    cannot be reached or answered something else (:attr:`Refusal.UNREACHABLE`).
    """
    try:
        secret = key if isinstance(key, ApiKey) else ApiKey(key.strip())
    except ValueError:
        raise Refused("The personal key is empty or is not one line of text.") from None
    try:
        client = ApiClient(base_url, secret, timeout=http_timeout, retry=_SIGNIN_RETRY,
                           pacer=Pacer(enabled=False))
    except (ValueError, TypeError) as error:
        raise Refused(f"Cannot use {base_url}: {error}") from None
    try:
        async with client:
            return await client.gateway.me()
    except Unauthorized as error:
        raise Refused(f"The gateway at {base_url} refused the key (HTTP {error.status or 401})."
                      " Check your personal key and try again.", error=error) from None
    except NotFound as error:
        raise Refused(f"{base_url} is not a team gateway (it has no /gateway/v1/me). Check "
                      "the address your team gave you.", kind=Refusal.SERVICE,
                      error=error) from None
    except TransportError as error:
        if error.status is None:
            raise Refused(f"Cannot reach the gateway at {base_url}: {error.message}",
                          kind=Refusal.UNREACHABLE, error=error) from None
        raise Refused(f"The gateway at {base_url} answered something unexpected: "
                      f"{error.message}", kind=Refusal.UNREACHABLE, error=error) from None
    except ApiError as error:
        raise Refused(f"The gateway at {base_url} answered: {error}",
                      kind=Refusal.UNREACHABLE, error=error) from None


#: Where a team gateway serves the service's deprecated endpoint listing, under its own URL.
GATEWAY_INTEGRATIONS = "/integrations"


def gateway_profile(name: str, url: str, agent_id: str | None = None) -> Profile:
    """The profile of a member signing in through the team gateway at ``url``: the gateway is
    the base URL (and, under it, the deprecated endpoint listing), the member's agent the
    identity. Raises :class:`~frontdesk.settings.SettingsError` for a name or URL that
    cannot be used."""
    profile = Profile(name=name, base_url=url, agent_id=agent_id, gateway=True)
    return dataclasses.replace(profile,
                               integrations_url=profile.base_url + GATEWAY_INTEGRATIONS)


# --------------------------------------------------------------------------- keeping the key


def default_key_file(profile: str) -> Path:
    """Where frontdesk offers to write a profile's key file: ``config/keys/<profile>.key``."""
    return config_dir() / "keys" / f"{profile}.key"


def keep_key(
    profile: str,
    key: ApiKey,
    source: KeySource,
    *,
    key_file: str | os.PathLike[str] | None = None,
    store: SecretStore | None = None,
) -> None:
    """Put ``key`` where a profile with ``key_source = source`` will find it.

    ``keyring``: the system keyring (raises :class:`~frontdesk.settings.KeyringUnavailable`,
    with its plain explanation, when there is none or it does not answer). ``file``: a 0600
    file at ``key_file`` (remembered as made by frontdesk unless it already held this key).
    ``env``: nothing is stored; the person sets ``FRONTDESK_API_KEY`` themselves.
    This call blocks up to the keyring's timeout: run it off the UI thread.
    """
    if source == "keyring":
        (store or SecretStore()).set_key(profile, key.reveal())
    elif source == "file":
        if key_file is None:
            raise KeyFileError("A key file path is needed to keep the key in a file.")
        path = Path(key_file).expanduser()
        with contextlib.suppress(KeyFileError):
            if ApiKey(read_key_file(path)) == key:
                return  # the person's own file already holds this key: leave it as it is
        if not path.parent.exists():
            path.parent.mkdir(parents=True, mode=0o700)
        write_key_file(path, key.reveal())
        _remember_made(path)


def _made_list() -> Path:
    return config_dir() / _MADE_KEY_FILES


def _read_made() -> list[str]:
    try:
        return [line for line in _made_list().read_text("utf-8").splitlines() if line.strip()]
    except (OSError, UnicodeDecodeError):
        return []


def _write_made(paths: list[str]) -> None:
    target = _made_list()
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(target, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write("".join(p + "\n" for p in paths))


def _remember_made(path: Path) -> None:
    name = str(path.resolve())
    made = _read_made()
    if name not in made:
        _write_made([*made, name])


def made_key_file(path: str | os.PathLike[str]) -> bool:
    """Whether frontdesk wrote the key file at ``path`` itself (so logout may delete it)."""
    return str(Path(path).expanduser().resolve()) in _read_made()


def forget_made_key_file(path: str | os.PathLike[str]) -> None:
    """Stop remembering ``path`` as a key file frontdesk made (after deleting it)."""
    name = str(Path(path).expanduser().resolve())
    made = _read_made()
    if name in made:
        _write_made([p for p in made if p != name])


# --------------------------------------------------------------------------- the settings file


def save_profile(profile: Profile, path: Path | None = None) -> Settings:
    """Add or replace ``profile`` in the settings file; it becomes the default when there is
    no default yet (the first profile). Returns the settings as saved."""
    settings = load_settings(path)
    profiles = {**settings.profiles, profile.name: profile}
    default = settings.default_profile or profile.name
    updated = dataclasses.replace(settings, profiles=profiles, default_profile=default)
    save_settings(updated, path)
    return updated


def save_alerts(alerts: AlertSettings, path: Path | None = None) -> Settings:
    """Keep ``alerts`` as the settings file's ``[alerts]`` (the rest of the file as it was,
    comments included). Returns the settings as saved."""
    settings = load_settings(path)
    updated = dataclasses.replace(settings, alerts=alerts)
    save_settings(updated, path)
    return updated


def remove_profile(name: str, path: Path | None = None) -> Settings:
    """Delete profile ``name`` from the settings file. When it was the default, the only
    remaining profile (if exactly one is left) becomes the default. Returns the new settings."""
    settings = load_settings(path)
    profiles = {k: v for k, v in settings.profiles.items() if k != name}
    default = settings.default_profile
    if default == name or default not in profiles:
        default = next(iter(profiles)) if len(profiles) == 1 else None
    updated = dataclasses.replace(settings, profiles=profiles, default_profile=default)
    save_settings(updated, path)
    return updated
