"""What ``ragmeter review`` prints: one record as a reviewer reads it, and the summary.

Record text is printed as ``rich.text.Text``, never as markup: a question that holds
"[bold]" or "[/x]" (documentation about markup has them) is shown as written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ragmeter.cli.answer_excerpt import excerpt

if TYPE_CHECKING:
    from testset_gen.record import TestsetRecord
    from testset_gen.review.outcome import ReviewTally

CONTEXT_CHARACTERS = 600
"""About what a reviewer reads at a glance per context: the answer's sentence and its neighbours."""


def show_record(console: Console, record: TestsetRecord, position: int, total: int) -> None:
    """Number, evolution type, id, question, ground truth, and each reference context with
    the file it came from, cut around the ground truth's words."""
    console.rule(Text(f"{position} of {total} · {record.evolution_type} · {record.id}"))
    console.print(Text.assemble(("question: ", "bold"), record.question))
    console.print(Text.assemble(("ground truth: ", "bold"), record.ground_truth))
    for number, context in enumerate(record.reference_contexts, start=1):
        where = source_label(record.sources[number - 1]) if number <= len(record.sources) else ""
        heading = f"context {number}" + (f" ({where})" if where else "") + ": "
        console.print(Text.assemble((heading, "bold"), excerpt(context, record.ground_truth, CONTEXT_CHARACTERS)))


def source_label(source: Mapping[str, Any]) -> str:
    """"guide/install.md, page 3": the file a context came from, as the generator recorded it."""
    name = str(source.get("source") or source.get("title") or "")
    page = source.get("page")
    return f"{name}, page {page}" if name and page not in (None, "") else name


def summary_table(tallies: Mapping[str, ReviewTally]) -> Table:
    """Per evolution type: records, reviewed, kept (of which edited), dropped, and the three
    notes given most often when dropping; a total row when there is more than one type."""
    table = Table("evolution", "records", "reviewed", "kept", "edited", "dropped", "most common notes",
                  title="review")
    table.columns[-1].overflow = "fold"
    for kind, counts in tallies.items():
        notes = ", ".join(f"{note} {n}" for note, n in sorted(counts.notes.items(), key=lambda kv: (-kv[1], kv[0]))[:3])
        table.add_row(kind, str(counts.total), str(counts.reviewed), str(counts.kept), str(counts.edited),
                      str(counts.dropped), Text(notes or "-"))
    if len(tallies) > 1:
        table.add_row("all", *(str(sum(getattr(c, name) for c in tallies.values()))
                               for name in ("total", "reviewed", "kept", "edited", "dropped")), "")
    return table
