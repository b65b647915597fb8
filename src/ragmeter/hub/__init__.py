"""Test sets, datasets and results on the Hugging Face Hub, and in folders laid out like a Hub repo.

Why a folder first: ``save_to_disk`` writes exactly the files ``push_to_hub`` uploads, so a
push can be checked before it leaves the machine, the local and the Hub round trips are the
same code, and ``load_from_hub`` is "download the files, then ``load_from_disk``".

The layout (one folder, one Hub dataset repo)::

    README.md                               dataset card: YAML front matter + schema, settings,
                                            metric summary, how to load
    ragmeter.json                           which kind this is, and what does not fit a table
    data/<split>-00000-of-00001.parquet     the rows, for the dataset viewer and ``datasets``
    result.json                             results only: ``EvaluationResult.save`` output

Why Parquet plus ``ragmeter.json``: the Hub's viewer and ``datasets.load_dataset`` read the
Parquet files that the card's ``configs`` lists; what a table cannot hold (a test set's
generation settings; a dataset's source rows, load errors and source; a result's run info,
verdicts and usage) lives beside it, so loading gives back the object whole. A result's
Parquet is a flat view (one score, reason, error and verdicts column per metric); its exact
copy is ``result.json``, the format the report and the gate already read.

Why free-form fields are JSON text columns: per-row ``metadata`` and ``sources`` hold
different keys and types from row to row, which no single columnar struct holds without
inventing nulls (see ``ragmeter.data.dataset``); JSON text gives back exactly what was put in.

One concern per module: ``_schema`` (kinds, Arrow columns, tables, the manifest), ``_folder``
(the folder a repo is: write and read), ``_card`` (the dataset card), ``_network`` (the Hub:
push, download, unreachable).
"""

from ragmeter.hub._folder import load_from_disk, save_to_disk
from ragmeter.hub._network import HubUnreachable, load_from_hub, push_to_hub, reaching_the_hub
from ragmeter.hub._schema import (
    CARD,
    FORMAT,
    FORMAT_VERSION,
    KINDS,
    MANIFEST,
    RESULT_FILE,
    SAMPLE_SCHEMA,
    SPLITS,
    Column,
    HubObject,
    Kind,
    kind_of,
    testset_schema,
)

__all__ = [
    "CARD",
    "Column",
    "FORMAT",
    "FORMAT_VERSION",
    "HubObject",
    "HubUnreachable",
    "KINDS",
    "Kind",
    "MANIFEST",
    "RESULT_FILE",
    "SAMPLE_SCHEMA",
    "SPLITS",
    "kind_of",
    "load_from_disk",
    "load_from_hub",
    "push_to_hub",
    "reaching_the_hub",
    "save_to_disk",
    "testset_schema",
]
