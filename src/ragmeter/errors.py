"""Typed errors: why a score could not be computed.

A score that cannot be computed is never a silent NaN: it is ``None`` with one of these
errors attached. Each error has a stable ``kind`` (its class name) that survives JSON, so a
result file read back, a CI log or a dashboard can group failures by cause.

``transient`` says whether trying again later may succeed (rate limits, timeouts, a server
that was down, a reply that was cut off). A resumed run recomputes transient failures and
keeps the others; the engine asks the error, never a list of kinds.

Others stop a command before it does anything: ``InvalidOption`` (a bad option or argument
value), ``InvalidOptionType`` (an argument of the wrong kind), ``BadFile`` (a file that is
not what it should be), ``UnknownMetric``, ``UnsafeAccess``, ``MissingExtra``
(``ragmeter.extras``). Each says the CLI's exit code it ends a command with (``exit_code``).
"""

from __future__ import annotations

import re
from typing import ClassVar

from pydantic import BaseModel


class RagmeterError(Exception):
    """Base of every error ragmeter raises on purpose."""

    transient: ClassVar[bool] = False
    stops_run: ClassVar[bool] = False
    """True for failures that make every remaining score fail the same way (an endpoint that
    cannot be reached): the engine stops the run with this one error instead of recording it
    on every score."""

    @property
    def exit_code(self) -> int:
        """The ragmeter CLI's exit code when this error ends a command: 1 for one that stopped
        a run under way (``stops_run``: the run failed), 2 for the others, which stop a command
        before it starts (a bad option or file, a missing extra or key, an unknown metric)."""
        return 1 if self.stops_run else 2

    @property
    def kind(self) -> str:
        return type(self).__name__

    def to_info(self) -> "ErrorInfo":
        return ErrorInfo(kind=self.kind, message=str(self), transient=self.transient)


# --- input -------------------------------------------------------------------------------


class InvalidInput(RagmeterError):
    """A field of a record has the wrong type or shape (a number where text belongs...)."""


class MissingInput(InvalidInput):
    """A field a metric needs is absent, empty or blank."""


class AppFailed(InvalidInput):
    """The app under test failed on this row (``ragmeter run`` recorded its error in
    ``metadata.app_error``), so the fields it should have produced are not there. One error
    naming the app's failure, instead of a ``MissingInput`` per metric."""


# --- judges and embedders ----------------------------------------------------------------


class JudgeError(RagmeterError):
    """Base of judge failures."""

    @property
    def fault(self) -> str:
        """What went wrong, for counting a run's failures by cause: the kind, unless a
        subclass can say more (``JudgeOutputInvalid``: a refusal, a reply cut off)."""
        return self.kind


class JudgeUnavailable(JudgeError):
    """The judge could not be reached or refused the request (connection, auth, 5xx)."""

    transient = True


class EndpointUnreachable(JudgeUnavailable):
    """Connections to the judge's or embedder's endpoint failed again and again with no answer
    (see ``ragmeter.calls.breaker``): the run stops early with this one error."""

    stops_run = True


class RateLimited(JudgeUnavailable):
    """The endpoint kept answering 429 after every retry."""


class JudgeTimeout(JudgeError):
    """The judge did not answer within the per-call timeout, on every attempt."""

    transient = True


class JudgeRequestRejected(JudgeError):
    """The endpoint rejected the request itself (HTTP 4xx other than 429): not retried."""


class JudgeOutputInvalid(JudgeError):
    """The judge's output did not parse or validate, even after one repair re-ask.

    Transient: an invalid reply is never cached, so a later try sends the request again and a
    server that was truncating or garbling replies under load may answer well."""

    transient = True

    reply: str = ""
    """The start of the last reply that failed (set by the LLM judge), so a caller can tell a
    refusal in prose from broken JSON without parsing the message."""
    cut_off: bool = False
    """True when that reply was cut off (``finish_reason: "length"``)."""

    @property
    def fault(self) -> str:
        """``truncated reply`` (cut off), ``refusal`` (prose that declines, no JSON in it), or
        ``malformed output``: three causes with three different remedies (more tokens, another
        prompt or model, a model that follows the schema)."""
        if self.cut_off:
            return "truncated reply"
        if "{" not in self.reply and _REFUSAL.search(self.reply):
            return "refusal"
        return "malformed output"


_REFUSAL = re.compile(r"^\W*(i'?m sorry|i am sorry|sorry|i can'?t|i cannot|i am unable|i'?m unable|"
                      r"i won'?t|i will not|as an ai|unfortunately,? i)", re.I)


class JudgeFailedThroughout(JudgeError):
    """Every call a run made to the judge failed (the test-set generator: no question, no
    summary, no review came back). The run's output would be empty because of the judge, not
    because of its input, so the run stops with this error (exit 1) instead of writing an
    empty file that reads as "the documents gave nothing". The message counts the calls and
    names the error kinds."""

    stops_run = True


class NeedsLLMJudge(JudgeError):
    """This judgement has no local implementation; configure an LLM judge to get it."""


class UnsupportedLanguage(NeedsLLMJudge):
    """The local judge's models do not read the language of this input (they are English):
    an LLM judge, or the cascade (``--judge local+openai:MODEL``), scores it. A kind of
    ``NeedsLLMJudge``, so the cascade sends the judgement to its LLM whole."""


class EmbedderError(RagmeterError):
    """The embedder failed (model could not load, endpoint failed)."""

    transient = True


class EmbedderRejected(EmbedderError):
    """The embedder cannot serve this: a model or package that is missing, a request the
    endpoint refuses. Trying again changes nothing."""

    transient = False


# --- metrics -----------------------------------------------------------------------------


class NoClaims(RagmeterError):
    """The text has no claims to check (a refusal, "I don't know"): the score is undefined."""


class NoEntities(RagmeterError):
    """The ground truth names no entities, so their recall is undefined."""


class InvalidScore(RagmeterError):
    """A formula produced a value outside [0, 1] or not a number: a bug, reported, not hidden."""


class MetricFailed(RagmeterError):
    """An unexpected exception inside a metric; the message carries the original error."""

    transient = True


# --- choosing ----------------------------------------------------------------------------


class InvalidOption(RagmeterError, ValueError):
    """An option or argument a user gave has a value ragmeter cannot use (an unknown name, a
    number out of range, a setting of the wrong group). Raised before any work starts, so the
    CLI prints it as one line and exits 2. Also a ``ValueError``, as it was before it had a
    type of its own."""


class InvalidOptionType(RagmeterError, TypeError):
    """An argument of the wrong kind (a judge that is neither a spec string nor a judge
    object...). Also a ``TypeError``, as it was before; the CLI exits 2."""


class BadFile(RagmeterError, ValueError):
    """A file given to ragmeter is not what it should be (not a ragmeter result, a prompts
    file that is not a JSON object, an unknown extension); the message names the file. The
    CLI exits 2. Also a ``ValueError``, as it was before."""


class NoMean(RagmeterError, ValueError):
    """A metric's mean asked for (``float(result.summary()[name])``) when none of its scores
    was computed: an error, never a silent NaN; the message says how many failed. Also a
    ``ValueError``, as ``float()`` of something that is not a number is."""


class UnknownMetric(RagmeterError, ValueError):
    """A metric name asked for is not among those available; the message names the closest
    one ("did you mean") and the others, since the usual cause is a typo."""


class InvalidMetricsFile(RagmeterError, ValueError):
    """A metrics file (YAML or TOML) that cannot be read into metrics; the message names the
    file and the entry at fault."""


class InvalidVerifierSpec(RagmeterError, ValueError):
    """A verifier spec the local judge cannot use (``--verifier``, ``judge_options=
    {"verifier": ...}``): an unknown verifier, an unknown option of ``nli:NAME?OPTION=VALUE``
    or a bad value. Raised when the judge is built, before any sample is scored, so a typo
    costs one line (naming the option, in ``option``), not a run of per-sample errors."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


# --- the run store -----------------------------------------------------------------------


class RunStoreError(RagmeterError):
    """The run store cannot do what was asked. Raised before a run starts (or by a ``runs``
    command), so the CLI shows it as one line and exits 2, never as a traceback."""


class RunStoreDamaged(RunStoreError):
    """The store's database cannot be read: not an SQLite file, cut short, or a WAL beside it
    that holds damaged pages. Nothing is written into it (recording into a broken file loses
    the run anyway); the message names the file, so it can be moved aside, and says that
    ``--no-record`` runs the evaluation without the store."""


class InvalidTag(RunStoreError, ValueError):
    """A tag the store cannot hold: over 255 characters, or holding a NUL character (which
    PostgreSQL refuses in any text). Said before the run starts, whichever the backend, so a
    tag that SQLite would take does not fail the same command on PostgreSQL."""


class RunStillRecording(RunStoreError):
    """A run asked to be deleted is still being recorded by an evaluation (status
    ``running``). Deleting it under that evaluation loses the run either way; refusing
    protects the common case, and ``--force`` serves the other (a run left ``running`` by a
    process that was killed)."""


# --- serving runs ------------------------------------------------------------------------


class UnsafeAccess(RagmeterError, ValueError):
    """``ragmeter ui`` would let people read the runs who should not: bound beyond loopback
    with no access token, or given a token short enough to guess. The UI does not start."""


class ErrorInfo(BaseModel):
    """The JSON form of an error, as stored in journals and result files."""

    kind: str
    message: str
    transient: bool = False

    @property
    def retry_on_resume(self) -> bool:
        """Whether a resumed run computes this score again: the flag as recorded, or the
        error type's flag today (a journal written before a kind became transient, such as
        ``JudgeOutputInvalid``, has its failures retried too)."""
        known = _KINDS.get(self.kind)
        return self.transient or (known is not None and known.transient)

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


def _subclasses(cls: type[RagmeterError]) -> list[type[RagmeterError]]:
    return [cls, *(sub for child in cls.__subclasses__() for sub in _subclasses(child))]


_KINDS: dict[str, type[RagmeterError]] = {cls.__name__: cls for cls in _subclasses(RagmeterError)}


def error_info(exc: BaseException) -> ErrorInfo:
    """Turn any exception into an ``ErrorInfo``; unknown exceptions become ``MetricFailed``."""
    if isinstance(exc, RagmeterError):
        return exc.to_info()
    return MetricFailed(f"{type(exc).__name__}: {exc}").to_info()
