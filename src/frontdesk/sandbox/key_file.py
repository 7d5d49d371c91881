"""Where a sandbox database's own API key is kept, and the key itself.

Apart from the sandbox's command line (which needs argparse) so that the demo's start reads
its key without loading it.
"""

from __future__ import annotations

from pathlib import Path


def key_file_for(db: Path) -> Path:
    """Where a database's own API key is kept: ``<db>.key`` beside it."""
    return db.with_name(db.name + ".key")


def stable_key(db: Path) -> str:
    """The database's own key: read from ``<db>.key``, or made and kept there (mode 0600,
    in a 0700 directory) the first time. Raises ``KeyFileError`` when the file exists but
    cannot be used (readable by others, say): it is never replaced silently."""
    from ..settings import read_key_file, write_key_file
    from .keys import new_key

    path = key_file_for(db)
    if path.exists():
        return read_key_file(path).splitlines()[0].strip()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = new_key()
    write_key_file(path, key)
    return key
