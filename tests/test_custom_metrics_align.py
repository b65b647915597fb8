"""``ragmeter align --optimize`` tunes a rubric's prompt: a scripted judge that grades every
answer polite unless its rubric prompt shows an example of a rude one learns from examples
made of train disagreements; the held-out test split shows the gain, and the chosen prompt
set loads with ``--prompts``. Plain ``align`` measures a rubric's agreement too."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from ragmeter.align import labels_from_records
from ragmeter.align.optimize import REWRITE_SYSTEM, optimize_prompts
from ragmeter.cli.app import app
from ragmeter.metrics import Rubric
from ragmeter.testing import OpenAIMockServer, scripted_judge

RUBRIC = "tone=Is the answer polite?; 1: rude; 5: polite"
TOPICS = ["the bridge", "the lake", "the museum", "the river", "the school", "the tower", "the festival",
          "the island", "the choir", "the castle"]


def records():
    rows = []
    for i, topic in enumerate(TOPICS):
        rows.append({"id": f"p{i}", "question": f"Tell me about {topic}.", "answer": f"Happy to help: {topic} is old.",
                     "labels": {"tone": 1}})
        rows.append({"id": f"r{i}", "question": f"Tell me about {topic}.", "answer": f"Obviously {topic} is old, look it up!",
                     "labels": {"tone": 0}, "note": "condescending"})
    return rows


def lenient_until_shown(request):
    """Grades every answer 5 unless the rubric task shows an example graded 1; then an
    answer with '!' is 1."""
    messages = request["messages"]
    if messages[0]["content"] == REWRITE_SYSTEM:
        return json.dumps({"instructions": ["Grade the answer on the criterion.", "Use the scale below."]})
    user = messages[-1]["content"]
    if "Task rubric_tone:" not in user:
        return scripted_judge.respond(request)
    block = user[user.index("Task rubric_tone:"):]
    strict = any(line.startswith("Example.") and '"level": 1}' in line for line in block.splitlines())
    answer = re.search(r"<answer>\n(.*?)\n</answer>", user, re.DOTALL).group(1)
    level = 1 if strict and "!" in answer else 5
    return json.dumps({"rubric_tone": {"reason": "strict" if strict else "lenient", "level": level}})


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("RAGMETER_RUNS", str(tmp_path / "runs.db"))


def test_optimize_improves_a_rubric_on_the_test_split_and_the_prompts_load(tmp_path, monkeypatch):
    from ragmeter.cli.app import out

    monkeypatch.setattr(out, "width", 250)
    labels_path = tmp_path / "labels.jsonl"
    labels_path.write_text("".join(json.dumps(r) + "\n" for r in records()), encoding="utf-8")
    prompts_out = tmp_path / "prompts.json"
    runner = CliRunner()
    with OpenAIMockServer(chat_responder=lenient_until_shown) as server:
        judge = f"openai:mock@{server.base_url}"
        ran = runner.invoke(app, ["align", str(labels_path), "--optimize", "--rubric", RUBRIC, "-m", "tone",
                                  "--judge", judge, "--prompts-out", str(prompts_out), "-q", "--resamples", "100"])
        assert ran.exit_code == 0, ran.output
        assert "chosen: 1 example(s) from train disagreements" in ran.output

        saved = json.loads(prompts_out.read_text(encoding="utf-8"))
        rubric_prompt = next(p for p in saved if p["name"] == "rubric")
        assert rubric_prompt["examples"][-1]["output"] == {"reason": "condescending", "level": 1}

        data = tmp_path / "data.jsonl"
        data.write_text("".join(json.dumps({k: v for k, v in r.items() if k not in ("labels", "note")}) + "\n"
                                for r in records()[:2]), encoding="utf-8")
        for prompts, expected in ((None, [1.0, 1.0]), (prompts_out, [1.0, 0.0])):
            result_path = tmp_path / f"result-{expected[1]}.json"
            args = ["evaluate", str(data), "--rubric", RUBRIC, "--metrics", "tone", "--judge", judge, "-o",
                    str(result_path), "-q", "--no-record", "--no-cache"]
            done = runner.invoke(app, args + (["--prompts", str(prompts)] if prompts else []))
            assert done.exit_code == 0, done.output
            samples = sorted(json.loads(result_path.read_text())["samples"], key=lambda s: s["row"])
            assert [s["scores"]["tone"]["value"] for s in samples] == expected


def test_optimize_through_python_reports_test_agreement_before_and_after():
    labels = labels_from_records(records())
    tone = Rubric("tone", "Is the answer polite?", {1: "rude", 5: "polite"})
    with OpenAIMockServer(chat_responder=lenient_until_shown) as server:
        report, best = optimize_prompts(labels, tone, judge=f"openai:mock@{server.base_url}", seed=0, resamples=200)
    assert report.prompt == "rubric" and report.metric == "tone"
    assert report.test_before.balanced_accuracy.value == pytest.approx(0.5)
    assert report.test_after.balanced_accuracy.value == pytest.approx(1.0)
    assert len(best["rubric"].examples) == 2  # the default example and one made from a train disagreement


def test_optimize_refuses_a_metric_it_cannot_tune():
    labels = labels_from_records(records())
    with pytest.raises(ValueError, match="--optimize knows how to tune faithfulness, rubrics"):
        optimize_prompts(labels, "exact_match", judge="openai:x@http://127.0.0.1:9/v1")


def test_align_measures_a_rubric_s_agreement(tmp_path, monkeypatch):
    from ragmeter.cli.app import out

    monkeypatch.setattr(out, "width", 250)
    labels_path = tmp_path / "labels.jsonl"
    labels_path.write_text("".join(json.dumps(r) + "\n" for r in records()), encoding="utf-8")
    with OpenAIMockServer(chat_responder=lenient_until_shown) as server:
        ran = CliRunner().invoke(app, ["align", str(labels_path), "--rubric", RUBRIC, "--judge",
                                       f"openai:mock@{server.base_url}", "--json", str(tmp_path / "a.json"),
                                       "-q", "--resamples", "100"])
    assert ran.exit_code == 0, ran.output
    tone = json.loads((tmp_path / "a.json").read_text())["runs"][0]["metrics"]["tone"]
    assert tone["n"] == 20 and tone["confusion"] == {"tp": 10, "fp": 10, "fn": 0, "tn": 0}  # the lenient judge


def test_a_critique_turns_labels_into_examples():
    from ragmeter.metrics import AspectCritique
    from ragmeter.data import Sample

    polite = AspectCritique("polite", "Is the answer polite?")
    example = polite.label_example(Sample(question="q", answer="a!"), 0.0, "rude")
    assert polite.tuned_prompt == "critique"
    assert example.input == {"question": "q", "answer": "a!", "criterion": "Is the answer polite?"}
    assert example.output == {"reason": "rude", "verdict": False}
