"""The one TLS context every HTTP client of the process shares.

httpx2 builds a new verifying context for each client it makes (``verify=True``): the
system's certificate authorities read and parsed again, some 19 ms of CPU every time, even
for a client that will only ever speak plain HTTP on loopback. A context serves any number
of clients and threads at once, so the service's client, the gateway's upstream and the
sign-in all take :func:`shared_tls_context`: built by the first client the process makes,
then shared.

It is the very context httpx2 would have built (``httpx2.create_ssl_context()``): the
certificate chain checked against the system's authorities and the host name against the
certificate, exactly as before. httpx2 reads ``SSL_CERT_FILE`` and ``SSL_CERT_DIR`` when it
builds one, so one is kept per pair of their values: a process that names other authorities
gets a context of those. Every client of the project speaks HTTP/1.1, the protocol httpcore
sets on the context for each connection, so sharing changes nothing there either.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING

import httpx2

if TYPE_CHECKING:
    import ssl

__all__ = ["shared_tls_context"]

#: the contexts made so far, by the values of SSL_CERT_FILE and SSL_CERT_DIR they were made with
_made: dict[tuple[str | None, str | None], ssl.SSLContext] = {}
_making = threading.Lock()


def shared_tls_context() -> ssl.SSLContext:
    """httpx2's default verifying context, made on the first call (of a process, for the
    certificate authorities its environment names) and the same one afterwards."""
    where = (os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))
    context = _made.get(where)
    if context is None:
        with _making:
            context = _made.get(where)
            if context is None:
                context = httpx2.create_ssl_context()
                _made[where] = context
    return context
