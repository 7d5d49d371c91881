"""Mode 3, Team: who is online and working."""
