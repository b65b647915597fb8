"""A person's review of a generated test set: which records to keep, drop or correct.

The offline generator writes records of which, as people rated them, about half are usable
(docs/testset.md); no filter found so far tells the good half apart. A person can, in
seconds a record. ``ragmeter review`` shows each record and writes each decision to a review
file as it is made; this package holds what that command needs besides the terminal:

* ``loading``: read a test set, each bad row named and skipped;
* ``decisions``: the review file (one decision per line, appended, read back to resume);
* ``outcome``: the kept records (in the test set's order, edits applied) and the tallies.
"""
