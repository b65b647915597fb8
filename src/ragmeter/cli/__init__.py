"""The ``ragmeter`` command line."""
