"""testset_gen: documents -> knowledge graph -> evolved questions with ground truth.

The generator itself is not written yet; this package reserves the import name that the
distribution ships (see the project's issue tracker for its plan).
"""

__version__ = "0.1.0"
