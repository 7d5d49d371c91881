"""``python -m frontdesk.screenshots FOLDER`` (``make screenshots``): an SVG of every
screen of the console at 100x30 and 160x45, named ``<screen>-<width>x<height>.svg``.

The pictures show the seeded demo organisation (seed 7) with every clock frozen at the same
moment and local times in UTC, so the same code draws the same pictures: a sandbox of its own
(a manual clock, no rate limit, no simulator) on a temporary database, and for each picture a
fresh console session (its own local store, on a temporary FRONTDESK_HOME) signed in as the
demo agent, driven with ``App.run_test`` and Pilot key presses, then
``App.save_screenshot``. A screen whose module or key is not there yet is skipped with a note.

``scene`` holds what every part shares (the moment, the sizes, the demo's key), ``shots``
the pictures and ``steps`` how to get to each, ``sandbox`` the service they are drawn from,
``pictures`` the run (``main``).

This package is a composition root run as a program, beside ``frontdesk.cli`` and
``frontdesk.launch`` above the layers: it assembles a sandbox, an API client, a session and
the console, which the console's own modules never import.
"""
