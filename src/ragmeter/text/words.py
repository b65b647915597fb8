"""English word lists shared by the local rules (hedges, question parts, critiques).

Kept apart from spaCy's stopwords on purpose: these are the exact lists the rules were
written and checked against, and they must not move when the spaCy model is upgraded.
"""

from __future__ import annotations

import re

__all__ = ["STOPWORDS", "WH_WORDS", "WORD", "YES_NO_OPENERS"]

WORD = re.compile(r"\w+", re.UNICODE)
"""A word: a run of letters, digits and underscores in any script."""

STOPWORDS = frozenset("""
a about above after again against all also am an and any are aren as at be because been before
being below between both but by can cannot could couldn did didn do does doesn doing don down
during each either else even ever every few for from further had hadn has hasn have haven having
he her here hers herself him himself his how i if in into is isn it its itself just ll let me
might mightn more most much must mustn my myself neither nor not now of off on once only or other
our ours ourselves out over own re same shall she should shouldn so some such than that the their
theirs them themselves then there these they this those through to too under until up upon us ve
very was wasn we were weren what when where which while who whom whose why will with won would
wouldn you your yours yourself yourselves s t d m o y ain ma shan needn via per really quite
rather just still already yet though although however therefore thus hence anyway besides
""".split())
"""Function words that never carry an answer's content."""

WH_WORDS = frozenset("what who whom whose when where which why how".split())
"""Question words."""

YES_NO_OPENERS = frozenset("""is are was were do does did can could will would should has have had
may might must am isn aren wasn weren don doesn didn""".split())
"""Auxiliaries that open a yes/no question ("Is ...", "Did ...")."""
