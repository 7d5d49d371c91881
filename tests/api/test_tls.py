"""Every HTTP client of the process shares one TLS context, and it checks certificates as
httpx2's own default does."""

from __future__ import annotations

import ssl
from pathlib import Path
from typing import Any

import httpx2
import pytest

from frontdesk.api.client import ApiClient
from frontdesk.api.secrets import ApiKey
from frontdesk.api.tls import shared_tls_context
from frontdesk.gateway.upstream import Upstream


def _context_of(http: httpx2.AsyncClient) -> Any:
    """The TLS context an httpx2 client's connections are made with."""
    return http._transport._pool._ssl_context  # type: ignore[attr-defined]


async def test_clients_share_one_context() -> None:
    first = ApiClient("https://service.example", "key")
    second = ApiClient("http://127.0.0.1:1", "key")
    upstream = Upstream("https://service.example", None, ApiKey("key"))
    try:
        assert _context_of(first._http) is shared_tls_context()
        assert _context_of(second._http) is shared_tls_context()
        assert _context_of(upstream._client) is shared_tls_context()
    finally:
        await first.aclose()
        await second.aclose()
        await upstream.aclose()


def test_the_shared_context_checks_as_httpx2s_default() -> None:
    shared, default = shared_tls_context(), httpx2.create_ssl_context()
    assert shared.verify_mode == ssl.CERT_REQUIRED and shared.check_hostname
    assert shared.verify_mode == default.verify_mode
    assert shared.check_hostname == default.check_hostname
    assert shared.options == default.options
    assert shared.minimum_version == default.minimum_version
    assert shared.verify_flags == default.verify_flags
    assert shared.cert_store_stats() == default.cert_store_stats()


def test_other_authorities_named_get_a_context_of_their_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    authorities = ssl.get_default_verify_paths().openssl_cafile
    if not Path(authorities).is_file():
        pytest.skip("the system has no certificate authorities' file")
    before = shared_tls_context()
    with monkeypatch.context() as patch:
        # the system's file, by a name no earlier call can have used
        patch.setenv("SSL_CERT_FILE", f"{Path(authorities).parent}/./{Path(authorities).name}")
        named = shared_tls_context()
        assert named is not before and named is shared_tls_context()
        assert named.cert_store_stats() == ssl.create_default_context(
            cafile=authorities).cert_store_stats()
    assert shared_tls_context() is before  # the environment as it was: the context as it was
