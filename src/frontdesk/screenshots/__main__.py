"""``python -m frontdesk.screenshots FOLDER``: write the pictures."""

import sys

from .pictures import main

sys.exit(main())
