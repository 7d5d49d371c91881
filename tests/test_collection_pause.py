"""The collector's one counted hold: the start-up and an opening thread are two holders, and
collection resumes only when the last of them lets go. Checked in a fresh interpreter: the
hold and the collector are the process's own, which other tests' consoles share."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import gc
from frontdesk import collection_pause, startup

frozen = []
gc.freeze = lambda: frozen.append(True)
assert gc.isenabled()
startup.hold_gc()
startup.hold_gc()  # the start-up holds once, however often it asks
release_thread = collection_pause.hold()  # a thread opens before the first frame
assert not gc.isenabled()
startup.release_gc()
assert frozen == [True]  # what start-up built is frozen at its first frame ...
assert not gc.isenabled()  # ... but the thread still holds the collector
release_thread()
assert gc.isenabled()
release_thread()  # idempotent: a second release changes nothing
startup.release_gc()
assert gc.isenabled() and frozen == [True]

gc.disable()  # a pause made elsewhere is left as it is
release = collection_pause.hold()
release()
assert not gc.isenabled()
print("ok")
"""


def test_collection_resumes_when_the_last_holder_lets_go() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          check=False)
    assert done.stdout.strip() == "ok", done.stderr[-2000:]
