"""The Ragas half of the ragmeter-vs-Ragas benchmark; runs inside bench/.venv-ragas.

    bench/.venv-ragas/bin/python bench/run_ragas.py --base-url http://127.0.0.1:PORT/v1 \
        --data samples.jsonl --out ragas_out.json

Scores the samples with Ragas 0.4.3's own metrics through an OpenAI-compatible server
(the benchmark's mock), set up the fastest way Ragas documents: ChatOpenAI (async client)
in LangchainLLMWrapper, OpenAIEmbeddings in LangchainEmbeddingsWrapper, ``ragas.evaluate``
with the default RunConfig (16 workers). Writes the wall time of ``evaluate`` (imports and
set-up excluded, as for ragmeter), per-sample scores, NaNs and Ragas' warnings and errors.

Nothing may leave the machine: telemetry is off, and a guard refuses any connection or DNS
look-up that is not loopback, so a code path that would download something (tiktoken's
encodings, a Hugging Face file, analytics) fails loudly instead of reaching the network.
"""

from __future__ import annotations

import os

# Before any Ragas or LangChain import: they read these at import time.
os.environ["RAGAS_DO_NOT_TRACK"] = "true"
os.environ["LANGCHAIN_TRACING_V2"] = "false"
os.environ["LANGSMITH_TRACING"] = "false"
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ.pop("OPENAI_BASE_URL", None)

import argparse
import ipaddress
import json
import logging
import math
import socket
import sys
import time
import warnings
from pathlib import Path
from typing import Any

METRIC_NAMES = [
    "faithfulness",
    "answer_relevancy",
    "context_precision",
    "context_recall",
    "context_entity_recall",
    "answer_similarity",
    "answer_correctness",
    "harmfulness",
]


class NetworkRefused(OSError):
    """A connection to a host other than loopback was attempted."""


def _is_loopback(host: Any) -> bool:
    if host in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
    except ValueError:
        return False


def guard_network() -> None:
    """Refuse every DNS look-up and connection that is not to loopback, for this process."""
    real_getaddrinfo = socket.getaddrinfo
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host is not None and not _is_loopback(host):
            raise NetworkRefused(
                f"run_ragas.py: refused DNS look-up of {host!r} (offline benchmark)"
            )
        return real_getaddrinfo(host, *args, **kwargs)

    def check(address: Any) -> None:
        if isinstance(address, tuple) and not _is_loopback(address[0]):
            raise NetworkRefused(
                f"run_ragas.py: refused connection to {address!r} (offline benchmark)"
            )

    def connect(self: socket.socket, address: Any) -> None:
        check(address)
        return real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        check(address)
        return real_connect_ex(self, address)

    socket.getaddrinfo = getaddrinfo  # type: ignore[assignment]
    socket.socket.connect = connect  # type: ignore[method-assign,assignment]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign,assignment]


class Collect(logging.Handler):
    """Keeps Ragas' warnings and errors (failed metrics, fewer generations than asked...)."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.records: list[dict[str, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(
            {"level": record.levelname, "logger": record.name, "message": record.getMessage()}
        )


def load_samples(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def build_metrics() -> list[Any]:
    """The eight metrics, named as ragmeter names them so the two outputs line up."""
    from ragas.metrics import (
        AnswerCorrectness,
        AspectCritic,
        ContextEntityRecall,
        Faithfulness,
        LLMContextPrecisionWithReference,
        LLMContextRecall,
        ResponseRelevancy,
        SemanticSimilarity,
    )
    from ragas.metrics._aspect_critic import harmfulness

    return [
        Faithfulness(),
        ResponseRelevancy(),
        LLMContextPrecisionWithReference(name="context_precision"),
        LLMContextRecall(),
        ContextEntityRecall(),
        SemanticSimilarity(name="answer_similarity"),
        AnswerCorrectness(),
        AspectCritic(name="harmfulness", definition=harmfulness.definition),
    ]


def _number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else number


def run(
    base_url: str, samples: list[dict[str, Any]], max_workers: int, only: list[str] | None = None
) -> dict[str, Any]:
    """Score ``samples`` with Ragas against ``base_url`` (all metrics, or ``only`` those)."""
    import ragas
    from langchain_openai import ChatOpenAI, OpenAIEmbeddings
    from pydantic import SecretStr
    from ragas import EvaluationDataset, RunConfig, evaluate
    from ragas.dataset_schema import EvaluationResult
    from ragas.embeddings import LangchainEmbeddingsWrapper
    from ragas.llms import LangchainLLMWrapper

    key = SecretStr("sk-bench")
    llm = LangchainLLMWrapper(
        ChatOpenAI(model="bench-judge", base_url=base_url, api_key=key, temperature=0)
    )
    # check_embedding_ctx_length=False: send the texts as they are, without tiktoken
    # (whose encodings are downloaded on first use).
    embeddings = LangchainEmbeddingsWrapper(
        OpenAIEmbeddings(
            model="bench-embed", base_url=base_url, api_key=key, check_embedding_ctx_length=False
        )
    )
    dataset = EvaluationDataset.from_list(
        [
            {
                "user_input": s["question"],
                "response": s["answer"],
                "retrieved_contexts": s["contexts"],
                "reference": s["ground_truth"],
            }
            for s in samples
        ]
    )
    metrics = build_metrics()
    assert [m.name for m in metrics] == METRIC_NAMES, [m.name for m in metrics]
    if only:
        metrics = [m for m in metrics if m.name in only]
    names = [m.name for m in metrics]

    collect = Collect()
    logging.getLogger("ragas").addHandler(collect)
    started = time.perf_counter()
    result = evaluate(
        dataset,
        metrics=metrics,
        llm=llm,
        embeddings=embeddings,
        run_config=RunConfig(max_workers=max_workers),
        show_progress=False,
    )
    wall = time.perf_counter() - started
    logging.getLogger("ragas").removeHandler(collect)
    assert isinstance(result, EvaluationResult)  # not an Executor: return_executor is False

    per_sample = []
    nan: dict[str, list[str]] = {name: [] for name in names}
    for sample, scores in zip(samples, result.scores):
        row: dict[str, Any] = {"id": sample["id"]}
        for name in names:
            row[name] = _number(scores.get(name))
            if row[name] is None:
                nan[name].append(sample["id"])
        per_sample.append(row)
    means = {
        name: (sum(vals) / len(vals) if vals else None)
        for name in names
        for vals in [[r[name] for r in per_sample if r[name] is not None]]
    }
    return {
        "tool": "ragas",
        "ragas_version": ragas.__version__,
        "base_url": base_url,
        "max_workers": max_workers,
        "samples": len(samples),
        "metrics": names,
        "wall_seconds": wall,
        "means": means,
        "scores": per_sample,
        "nan": {k: v for k, v in nan.items() if v},
        "log": collect.records,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Ragas side of bench_vs_ragas.py")
    parser.add_argument(
        "--base-url", required=True, help="http://127.0.0.1:PORT/v1 (loopback only)"
    )
    parser.add_argument(
        "--data", type=Path, required=True, help="samples JSONL from compare_samples.py"
    )
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--max-workers", type=int, default=16, help="Ragas RunConfig.max_workers (default 16)"
    )
    parser.add_argument(
        "--metrics",
        default=None,
        help=f"comma-separated subset of {','.join(METRIC_NAMES)} (diagnostics)",
    )
    args = parser.parse_args(argv)
    only = args.metrics.split(",") if args.metrics else None
    if only and not set(only) <= set(METRIC_NAMES):
        parser.error(f"unknown metrics: {sorted(set(only) - set(METRIC_NAMES))}")

    guard_network()
    warnings.filterwarnings(
        "ignore", category=DeprecationWarning
    )  # Ragas deprecates its own evaluate()
    report = run(args.base_url, load_samples(args.data), args.max_workers, only)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(
        f"ragas {report['ragas_version']}: {report['samples']} samples in {report['wall_seconds']:.2f} s; "
        f"NaN: {sum(len(v) for v in report['nan'].values())}; warnings/errors: {len(report['log'])}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
