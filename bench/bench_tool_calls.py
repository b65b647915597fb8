"""ragmeter's tool_call_accuracy and tool_call_f1 beside Ragas 0.4.3's, on 8 hand-made agent runs.

    PYTHONPATH=src:. python bench/bench_tool_calls.py [--ragas-python bench/.venv-ragas/bin/python]

ragmeter scores the conversations (OpenAI chat format, ``bench/tool_call_cases.py``) through
``evaluate``; Ragas scores the same calls in its own virtualenv (a subprocess running
``bench/run_ragas_tool_calls.py``). Prints one row per case and exits 1 if any score differs
by more than Ragas' rounding (ToolCallF1 rounds to 4 decimals).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE.parent))

from bench.tool_call_cases import CASES  # noqa: E402
from ragmeter.conversations import load_conversations  # noqa: E402
from ragmeter.metrics import ToolCallAccuracy, ToolCallF1  # noqa: E402

RAGAS_PYTHON = HERE / ".venv-ragas" / "bin" / "python"
TOLERANCE = 5e-5  # half of Ragas' last kept decimal


def ragmeter_scores() -> dict[str, dict[str, float]]:
    import ragmeter

    data = load_conversations(CASES)
    # a run holds one metric per name: the unordered mode is a second run
    strict = ragmeter.evaluate(data, [ToolCallAccuracy(), ToolCallF1()], journal=False, cache=False,
                               record=False, show_progress=False)
    unordered = ragmeter.evaluate(data, [ToolCallAccuracy(strict_order=False)], journal=False, cache=False,
                                  record=False, show_progress=False)
    out = {}
    for s, u in zip(strict.samples, unordered.samples):
        out[s.id] = {"accuracy_strict": s.scores["tool_call_accuracy"].value,
                     "accuracy_unordered": u.scores["tool_call_accuracy"].value,
                     "f1": s.scores["tool_call_f1"].value}
    return out


def ragas_messages(sample: Any) -> list[dict[str, Any]]:
    """A conversation's messages as Ragas reads them: human / ai / tool, flat calls (from
    ragmeter's parse, so both tools see the very same arguments)."""
    kinds = {"user": "human", "assistant": "ai", "tool": "tool", "system": "human"}
    return [{"type": kinds[m.role], "content": m.content,
             "tool_calls": [{"name": c.name, "arguments": c.arguments} for c in m.tool_calls]}
            for m in sample.messages]


def ragas_shape() -> list[dict[str, Any]]:
    """The cases as Ragas reads them."""
    return [{"id": sample.id, "messages": ragas_messages(sample),
             "reference_tool_calls": [{"name": c.name, "arguments": c.arguments} for c in sample.reference_tool_calls]}
            for sample in load_conversations(CASES)]


def ragas_scores(python: Path) -> tuple[str, dict[str, dict[str, float]]]:
    proc = subprocess.run([str(python), str(HERE / "run_ragas_tool_calls.py")], input=json.dumps(ragas_shape()),
                          capture_output=True, text=True, check=False, timeout=600)
    if proc.returncode != 0:
        raise SystemExit(f"the Ragas side failed (exit {proc.returncode}):\n{proc.stderr[-2000:]}")
    out = json.loads(proc.stdout)
    return out["ragas"], out["scores"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ragas-python", type=Path, default=RAGAS_PYTHON)
    args = parser.parse_args()
    ours = ragmeter_scores()
    version, theirs = ragas_scores(args.ragas_python)
    columns = ("accuracy_strict", "accuracy_unordered", "f1")
    print(f"{'case':16} " + " ".join(f"{c + ' ragmeter/ragas ' + version:>34}" for c in columns))
    differ = 0
    for case in CASES:
        cells = []
        for c in columns:
            a, b = ours[case["id"]][c], theirs[case["id"]][c]
            same = abs(a - b) <= TOLERANCE
            differ += not same
            cells.append(f"{a:.4f} / {b:.4f} {'=' if same else 'DIFFERENT'}".rjust(34))
        print(f"{case['id']:16} " + " ".join(cells))
    print(f"{len(CASES) * len(columns) - differ} of {len(CASES) * len(columns)} scores equal")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
