"""``ragmeter align --optimize`` through the OpenAI mock server, with a scripted judge whose
agreement depends on its few-shot examples: lenient about numbers (it checks only the
words of a claim) unless its support prompt shows an example, besides the default one, of
a claim refuted by a number. Examples made from train disagreements teach it; the test split,
which the tuning never saw, shows the gain; the chosen prompt set loads with --prompts."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from ragmeter.align import labels_from_records
from ragmeter.align.optimize import REWRITE_SYSTEM, optimize_prompts
from ragmeter.cli.app import app
from ragmeter.testing import OpenAIMockServer, scripted_judge

FACTS = [
    ("The bridge opened in 1932.", "The bridge opened in 1937."),
    ("The lake is 40 metres deep.", "The lake is 90 metres deep."),
    ("The museum has 12 rooms.", "The museum has 31 rooms."),
    ("The river is 210 kilometres long.", "The river is 410 kilometres long."),
    ("The school was founded in 1890.", "The school was founded in 1790."),
    ("The tower has 8 floors.", "The tower has 5 floors."),
    ("The festival started in 1967.", "The festival started in 1976."),
    ("The island has 300 residents.", "The island has 900 residents."),
    ("The choir has 45 singers.", "The choir has 54 singers."),
    ("The castle was built in 1405.", "The castle was built in 1504."),
]


def records():
    rows = []
    for i, (right, wrong) in enumerate(FACTS):
        rows.append({"id": f"r{i}", "question": "What is true?", "answer": right, "contexts": [right],
                     "labels": {"faithfulness": 1}})
        rows.append({"id": f"w{i}", "question": "What is true?", "answer": wrong, "contexts": [right],
                     "labels": {"faithfulness": 0}, "note": "the number is wrong"})
    return rows


def _section(user: str, tag: str) -> list[str]:
    return [m.strip() for m in re.findall(rf"<{tag}(?: n=\"\d+\")?>\n(.*?)\n</{tag}>", user, re.DOTALL)]


def number_blind_judge(request):
    messages = request["messages"]
    system = messages[0]["content"]
    if system == REWRITE_SYSTEM:  # instruction variants that do not help this judge
        return json.dumps({"instructions": ["Decide for each claim whether the passages support it.",
                                            "Judge every claim against the passages."]})
    user = messages[-1]["content"]
    if "Task answer_support:" not in user:
        return scripted_judge.respond(request)
    refuted = sum(1 for line in user.splitlines() if line.startswith("Example.") and '"verdict": false' in line)
    strict = refuted >= 2  # the default example plus at least one more
    passages = _section(user, "context")
    verdicts = []
    for claim in _section(user, "answer_claim"):
        ok = scripted_judge.supported(claim if strict else re.sub(r"\d+", "", claim), passages)
        verdicts.append({"reason": "checked", "verdict": ok})
    return json.dumps({"answer_support": {"verdicts": verdicts}})


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


def test_optimize_raises_test_agreement_and_the_prompts_load(tmp_path, monkeypatch):
    from ragmeter.cli.app import out

    monkeypatch.setattr(out, "width", 250)
    labels_path = tmp_path / "labels.jsonl"
    labels_path.write_text("".join(json.dumps(r) + "\n" for r in records()), encoding="utf-8")
    with OpenAIMockServer(chat_responder=number_blind_judge) as server:
        judge = f"openai:mock@{server.base_url}"
        report, best = optimize_prompts(labels_from_records(records()), "faithfulness", judge=judge, cache=False,
                                        resamples=100, seed=0)
        assert (report.train, report.test) == (10, 10)
        # the lenient judge passes every answer: balanced accuracy 0.5 on both splits
        assert report.variants[0].train_agreement == 0.5
        assert report.test_before.balanced_accuracy.value == 0.5
        assert report.chosen.endswith("example(s) from train disagreements")
        assert report.test_after.balanced_accuracy.value == 1.0
        assert report.test_after.balanced_accuracy.value > report.test_before.balanced_accuracy.value
        # instruction variants were asked for and tried, and did not help this judge
        tried = {v.name: v.train_agreement for v in report.variants}
        assert tried["instruction 1 written by the judge"] == 0.5
        added = best["answer_support"].examples[1:]
        assert added and all(e.output["verdicts"][0]["verdict"] is False for e in added)
        assert all(e.output["verdicts"][0]["reason"] == "the number is wrong" for e in added)

        out_prompts = tmp_path / "tuned.json"
        result = CliRunner().invoke(app, ["align", str(labels_path), "--judge", judge, "--optimize", "--no-cache",
                                          "--resamples", "100", "-q", "--prompts-out", str(out_prompts)])
        assert result.exit_code == 0, result.output
        text = " ".join(result.output.split())
        assert "before (baseline prompts)" in text and "chosen: 1 example(s) from train disagreements" in text
        # the written prompt set loads with --prompts and the judge now agrees on every sample
        again = CliRunner().invoke(app, ["align", str(labels_path), "--judge", judge, "--prompts", str(out_prompts),
                                         "--no-cache", "--resamples", "100", "-q", "--json", str(tmp_path / "a.json")])
        assert again.exit_code == 0, again.output
        tuned = json.loads((tmp_path / "a.json").read_text())["runs"][0]["metrics"]["faithfulness"]
        assert tuned["balanced_accuracy"]["value"] == 1.0


def test_optimize_refuses_what_it_cannot_tune():
    with pytest.raises(ValueError, match="knows how to tune faithfulness"):
        optimize_prompts(labels_from_records(records()), "context_recall", judge="openai:m@http://127.0.0.1:1/v1")
    with pytest.raises(ValueError, match="the local judge has none"):
        optimize_prompts(labels_from_records(records()), "faithfulness", judge="local")
