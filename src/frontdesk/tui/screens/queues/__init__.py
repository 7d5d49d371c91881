"""Mode 2, Queues: the queues and their members."""
