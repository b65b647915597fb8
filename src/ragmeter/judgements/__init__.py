"""The vocabulary of judgements: what a metric can ask a judge about a sample.

It sits below both the judges (which answer tasks) and the facts layer (which plans and
memoises them), so neither has to import the other's vocabulary from above:

* ``Need``: one named judgement a metric needs (``needs`` holds the shared ones);
* ``Task``: a need made concrete for one sample (the tagged sections it reads, its output
  type), and ``TASK_KINDS``, what each kind of judgement shows and returns;
* the output types (``Claims``, ``Verdict``, ...), the task prompts (``DEFAULT_PROMPTS``)
  and the sentence split that numbers ``<sentence>`` tags.
"""

from ragmeter.judgements import needs
from ragmeter.judgements.needs import DEPENDS_ON, Need
from ragmeter.judgements.outputs import (
    ChunkRelevance,
    Claims,
    CoveredPart,
    Critique,
    Entities,
    QuestionCoverage,
    Questions,
    SentenceSelection,
    Verdict,
)
from ragmeter.judgements.sentences import split_sentences
from ragmeter.judgements.task_prompts import DEFAULT_PROMPTS
from ragmeter.judgements.tasks import TASK_KINDS, Outcome, Sections, Task, TaskKind, empty_output, make_task

__all__ = [
    "ChunkRelevance",
    "DEFAULT_PROMPTS",
    "DEPENDS_ON",
    "TASK_KINDS",
    "Claims",
    "CoveredPart",
    "Critique",
    "Entities",
    "Need",
    "Outcome",
    "QuestionCoverage",
    "Questions",
    "Sections",
    "SentenceSelection",
    "Task",
    "TaskKind",
    "Verdict",
    "empty_output",
    "make_task",
    "needs",
    "split_sentences",
]
