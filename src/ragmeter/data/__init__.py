"""The data layer: ``Sample`` (one record), ``Dataset`` (many, with per-row load errors)."""

from ragmeter.data.dataset import COLUMNS, SAMPLE_DATA_PATH, Dataset, RowError, empty_message
from ragmeter.data.sample import ALIASES, FIELDS, Sample

__all__ = ["ALIASES", "COLUMNS", "FIELDS", "SAMPLE_DATA_PATH", "Dataset", "RowError", "Sample", "empty_message"]
