"""frontdesk's benchmarks: one per performance budget of docs/quality.md.

``python -m bench`` (``make bench``) runs them all and prints a table; see ``bench/README.md``.
This package is kept import-free so that a start-up probe launched from it stays cheap.
"""
