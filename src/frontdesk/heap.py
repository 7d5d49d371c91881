"""Freed memory handed back to the system after a large build.

Building a view of a hundred thousand conversations, or reading a thread of ten thousand
messages, makes a burst of short-lived objects (the answer's parsed JSON, sorting's lists, the
rows' old lists). Once they are freed, what CPython had asked of the C library's ``malloc``
(lists, dicts and strings larger than 512 bytes, the interpreter's own buffers) stays with the
process: glibc keeps free pages for later rather than giving them back, and the console's
resident size stays at its peak. ``malloc_trim(0)`` gives them back (a few milliseconds with a
large inbox), so it runs once after such a build, after its frame is on screen.

Only where the C library is glibc; elsewhere :func:`give_back` does nothing. ``ctypes`` is
loaded on the first call, never at start-up.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

__all__ = ["give_back"]

#: glibc's ``malloc_trim`` once looked up (False: there is none here)
_trim: Callable[[int], int] | bool | None = None


def _find_trim() -> Callable[[int], int] | bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        trim: Callable[[int], int] = libc.malloc_trim
    except (OSError, AttributeError):  # musl, or no libc.so.6 by that name
        return False
    return trim


def give_back() -> bool:
    """Give the C library's free memory back to the system (glibc's ``malloc_trim``); True
    when some was given back."""
    global _trim
    if _trim is None:
        _trim = _find_trim()
    if _trim is False or _trim is True:
        return False
    return bool(_trim(0))
