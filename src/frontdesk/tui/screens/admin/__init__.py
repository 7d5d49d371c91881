"""Mode 5, Admin: the organisation's settings, one section per module."""
