"""API keys in the system keyring, never in the config file. Keyring calls run on a worker
thread with a timeout because a locked Secret Service can hang forever; when no secure
keyring exists we say so and offer the alternatives, never plaintext on our own."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import ConfigError, KeyringUnavailable
from .names import API_KEY_ENV, DEFAULT_KEYRING_TIMEOUT, KEYRING_SERVICE

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

_T = TypeVar("_T")

_ALTERNATIVES = (
    "frontdesk stores API keys only in a secure store and will not write them to a plain "
    "file on its own. Instead you can:\n"
    f"  - set the environment variable {API_KEY_ENV} to the key, or\n"
    "  - keep the key in a file only you can read (chmod 600 PATH) and pass --key-file PATH."
)


def _backend_name(backend: object) -> str:
    """``module.Class`` of a keyring backend, for messages."""
    cls = type(backend)
    return f"{cls.__module__}.{cls.__qualname__}"


def _ensure_usable(backend: KeyringBackend) -> None:
    """Refuse keyring backends that are not a secure store (fail, null, or low priority)."""
    from keyring.backends import fail, null

    if isinstance(backend, fail.Keyring | null.Keyring):
        usable = False
    else:
        try:
            usable = float(backend.priority) >= 1
        except Exception:
            usable = False
    if not usable:
        raise KeyringUnavailable(
            f"No secure system keyring is available (found {_backend_name(backend)}).\n"
            + _ALTERNATIVES
        )


class SecretStore:
    """API keys per profile in the system keyring (service ``frontdesk``, user = profile name).

    Every keyring call runs on its own daemon thread and is abandoned after ``timeout``
    seconds, because a locked Secret Service can block forever; a daemon thread never keeps
    the program from exiting. While an abandoned call is still stuck, further calls fail at
    once instead of piling up threads.
    """

    def __init__(
        self,
        backend: KeyringBackend | None = None,
        *,
        timeout: float = DEFAULT_KEYRING_TIMEOUT,
        service: str = KEYRING_SERVICE,
    ) -> None:
        """Use ``backend``, or the process-wide ``keyring.get_keyring()`` when None."""
        self._backend = backend
        self.timeout = timeout
        self.service = service
        self._stuck: Future[Any] | None = None
        self._lock = threading.Lock()

    def get_key(self, profile: str) -> str | None:
        """The stored key of ``profile``, or None when there is none."""
        return self._call(lambda b: b.get_password(self.service, profile), what="read")

    def set_key(self, profile: str, key: str) -> None:
        """Store ``key`` for ``profile``, replacing any earlier one."""
        if not key.strip():
            raise ConfigError("An API key must not be empty.")
        self._call(lambda b: b.set_password(self.service, profile, key), what="store", secret=key)

    def delete_key(self, profile: str) -> None:
        """Forget the key of ``profile``; deleting a key that is not there is not an error."""
        from keyring.errors import PasswordDeleteError

        def delete(backend: KeyringBackend) -> None:
            # keyring reports "nothing stored" as PasswordDeleteError.
            with contextlib.suppress(PasswordDeleteError):
                backend.delete_password(self.service, profile)

        self._call(delete, what="delete")

    def _wait(self, future: Future[_T]) -> _T:
        """The call's result, or :class:`FutureTimeout` once ``timeout`` seconds have passed
        (a seam: tests decide when a hanging keyring is given up, rather than the clock)."""
        return future.result(timeout=self.timeout)

    def _call(
        self, op: Callable[[KeyringBackend], _T], *, what: str, secret: str | None = None
    ) -> _T:
        """Run ``op`` on the backend in a daemon thread; translate hangs and failures."""
        with self._lock:
            if self._stuck is not None and not self._stuck.done():
                raise KeyringUnavailable(
                    "The system keyring is still not answering an earlier request "
                    "(it may be locked).\n" + _ALTERNATIVES
                )
            future: Future[_T] = Future()
            self._stuck = None

        def work() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                import keyring

                backend = self._backend if self._backend is not None else keyring.get_keyring()
                _ensure_usable(backend)
                future.set_result(op(backend))
            except BaseException as exc:
                future.set_exception(exc)

        threading.Thread(target=work, name="frontdesk-keyring", daemon=True).start()
        try:
            return self._wait(future)
        except FutureTimeout:
            with self._lock:
                self._stuck = future
            raise KeyringUnavailable(
                f"The system keyring did not answer within {self.timeout:g} s "
                "(it may be locked or waiting for a password prompt).\n" + _ALTERNATIVES
            ) from None
        except KeyringUnavailable:
            raise
        except Exception as exc:
            detail = f"{type(exc).__name__}: {exc}"
            if secret:
                detail = detail.replace(secret, "***")
            error = KeyringUnavailable(
                f"The system keyring could not {what} the API key ({detail}).\n" + _ALTERNATIVES
            )
            if secret:
                raise error from None
            raise error from exc
