"""The other faces for metrics people write: a ``JudgedMetric`` class joins the bundled call,
the dry run counts the G-Eval steps once, the run store and ``resume`` keep written metrics,
``ragmeter prompts`` shows their prompts and G-Eval's steps, and the report draws levels."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel, Field
from typer.testing import CliRunner

import ragmeter
from ragmeter.cli.app import app
from ragmeter.metrics import GEval, JudgedMetric, Rubric
from ragmeter.testing import OpenAIMockServer, scripted_judge

ROWS = [
    {"question": "Where is Paris?", "answer": "Paris is in France.", "contexts": ["Paris is the capital of France."]},
    {"question": "What is the Seine?", "answer": "The Seine is a river in Paris.", "contexts": ["The Seine flows through Paris."]},
]


class CitationCheck(BaseModel):
    reason: str = Field(description="one short sentence")
    cited: int = Field(ge=0, description="how many sentences of the answer name a context")
    sentences: int = Field(ge=1)


class CitationShare(JudgedMetric):
    """Share of the answer's sentences the judge finds backed by a named context."""

    name = "citation_share"
    prompt = "Count the sentences of the <answer> and how many of them name a <context> passage."
    output = CitationCheck
    sections = ("answer", "context")

    def formula(self, answer: CitationCheck) -> tuple[float, str]:
        return answer.cited / answer.sentences, answer.reason


CITATIONS = scripted_judge.make_responder(answers={"metric_citation_share": {"reason": "one of two", "cited": 1, "sentences": 2}})


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("RAGMETER_RUNS", str(tmp_path / "runs.db"))


def run(server, metrics, **options):
    options.setdefault("cache", False)
    options.setdefault("record", False)
    return ragmeter.evaluate(ROWS, metrics, judge=f"openai:mock@{server.base_url}", journal=options.pop("journal", False),
                             show_progress=False, **options)


def test_a_judged_metric_class_joins_the_bundled_call():
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as server:
        faithfulness_alone = run(server, ["faithfulness"])["faithfulness"]
        alone = len(server.calls("/chat/completions"))
    with OpenAIMockServer(chat_responder=CITATIONS) as server:
        result = run(server, ["faithfulness", CitationShare()])
        calls = server.calls("/chat/completions")
    assert len(calls) == alone == 2 * len(ROWS)  # no call of its own
    first = calls[0].json["messages"][-1]["content"]
    assert "Task metric_citation_share: Count the sentences of the <answer>" in first and "Task answer_claims:" in first
    assert result["citation_share"] == [0.5, 0.5]
    assert result.samples[0].scores["citation_share"].verdicts == {"reason": "one of two", "cited": 1, "sentences": 2}
    assert result["faithfulness"] == faithfulness_alone == [1.0, 0.0]  # "river" is not in the context


def test_the_local_judge_needs_an_llm_judge_for_a_judged_metric():
    result = ragmeter.evaluate(ROWS[:1], [CitationShare()], judge="local", journal=False, record=False,
                               show_progress=False, cache=False)
    assert result.samples[0].scores["citation_share"].error.kind == "NeedsLLMJudge"


def test_the_dry_run_counts_the_steps_once_and_no_call_per_sample_for_written_metrics():
    tone = Rubric("tone", "Friendly?")
    helpful = GEval("helpful", "Does it help?")
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as server:
        judge = f"openai:mock@{server.base_url}"
        base = ragmeter.estimate(ROWS, ["faithfulness"], judge=judge, cache=False, show_progress=False)
        more = ragmeter.estimate(ROWS, ["faithfulness", tone, helpful], judge=judge, cache=False, show_progress=False)
        assert server.calls("/chat/completions") == []  # a dry run sends nothing
    assert base.calls == 2 * len(ROWS)
    assert more.calls == base.calls + 1  # the G-Eval steps
    assert more.prompt_tokens > base.prompt_tokens and more.completion_tokens > base.completion_tokens


def test_the_run_store_and_resume_keep_written_metrics(tmp_path):
    from ragmeter.runs import RunStore

    @ragmeter.metric(name="answer_length")
    def answer_length(sample):
        return min(1.0, len(sample.answer) / 40)

    tone = Rubric("tone", "Friendly?", {1: "cold", 3: "warm"})
    journal = tmp_path / "journal.jsonl"
    with OpenAIMockServer(chat_responder=scripted_judge.make_responder(levels={"rubric_tone": 2})) as server:
        first = run(server, [tone, answer_length], record=True, journal=journal)
        sent = len(server.calls("/chat/completions"))
        again = run(server, [tone, answer_length], journal=journal)
        assert len(server.calls("/chat/completions")) == sent  # resumed from the journal: nothing sent
    assert first["tone"] == again["tone"] == [0.5, 0.5]
    assert again.info.resumed_scores == 2 * len(ROWS)
    with RunStore() as store:
        recorded = store.list()[0]
    assert recorded.metrics == ["tone", "answer_length"]
    assert recorded.summary["tone"].mean == 0.5
    assert recorded.summary["answer_length"].mean == pytest.approx((len(ROWS[0]["answer"]) + len(ROWS[1]["answer"])) / 80)


def test_prompts_shows_written_prompts_and_the_steps_a_run_then_reuses(tmp_path, monkeypatch):
    from ragmeter.cli.app import out

    monkeypatch.setattr(out, "width", 250)
    runner = CliRunner()
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as server:
        judge = f"openai:mock@{server.base_url}"
        shown = runner.invoke(app, ["prompts", "--g-eval", "helpful=Does it help?", "--judge", judge])
        assert shown.exit_code == 0, shown.output
        assert "metric_citation_share" in shown.output and "Count the sentences of the <answer>" in shown.output
        assert "g_eval helpful: evaluation steps" in shown.output
        assert "1. Read the answer against: Does it help?" in shown.output
        assert len(server.calls("/chat/completions")) == 1
        result = run(server, [GEval("helpful", "Does it help?")], cache=True)
        # the steps came from the cache the prompts command filled: only the samples' calls
        assert len(server.calls("/chat/completions")) == 1 + len(ROWS)
    assert result.info.metrics["helpful"]["steps"][0] == "Read the answer against: Does it help?"


def test_the_report_draws_levels_and_shows_the_criteria():
    from ragmeter.report import render_report

    tone = Rubric("tone", "Friendly?", {1: "cold", 2: "cool", 3: "warm"})
    with OpenAIMockServer(chat_responder=scripted_judge.make_responder(levels={"rubric_tone": 2})) as server:
        result = run(server, [tone, GEval("helpful", "Does it help?", steps=["Read it.", "Grade it."])])
    page = render_report(result)
    data = json.loads(page.split('id="report-data">')[1].split("</script>")[0])
    tone_chart = data["charts"][0]["figure"]["data"][0]
    assert tone_chart["x"] == [1, 2, 3] and tone_chart["y"] == [0, 2, 0]
    helpful_chart = data["charts"][1]["figure"]["data"][0]
    assert helpful_chart["x"] == [1, 2, 3, 4, 5] and helpful_chart["y"] == [0, 0, 0, 0, 2]
    assert '<section id="criteria">' in page and "<li>2: cool</li>" in page and "<li>Grade it.</li>" in page


def test_a_judged_metric_s_prompt_can_be_replaced():
    with OpenAIMockServer(chat_responder=CITATIONS) as server:
        run(server, [CitationShare()], prompts={"metric_citation_share": "Count the cited sentences of the <answer>."})
        user = server.calls("/chat/completions")[0].json["messages"][-1]["content"]
    assert "Task metric_citation_share: Count the cited sentences of the <answer>." in user
