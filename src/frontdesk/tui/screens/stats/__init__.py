"""Mode 6, Stats: the numbers of the day and the week for supervisors."""
