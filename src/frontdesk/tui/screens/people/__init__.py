"""Mode 4, People: end users and agents."""
