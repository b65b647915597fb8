"""One path per setting: the typed option groups, the CLI's shared judge option group, and
the one-line warning for a setting the chosen judge does not use."""

from __future__ import annotations

import inspect
import json
import logging

import pytest
import typer
from typer.testing import CliRunner

from ragmeter.adapters._framework import ADAPTER_CALLS, build_judge
from ragmeter.calls.options import DEFAULT_CALLS, LLMCallOptions
from ragmeter.cli.app import app
from ragmeter.errors import InvalidOption
from ragmeter.judges import JudgeOptions, get_judge
from ragmeter.judges.options import CascadeOptions, LocalModelOptions

runner = CliRunner()


def test_flat_names_and_groups_fill_the_same_typed_groups():
    flat = JudgeOptions.of({"timeout": 5, "max_attempts": 2, "verifier": "lexical", "band": (0.2, 0.8)})
    grouped = JudgeOptions.of({"llm": {"timeout": 5, "max_attempts": 2}, "local": LocalModelOptions(verifier="lexical"),
                               "cascade": {"band": (0.2, 0.8)}})
    assert flat == grouped
    assert flat.llm == LLMCallOptions(timeout=5, max_attempts=2)
    assert flat.local == LocalModelOptions(verifier="lexical") and flat.cascade == CascadeOptions(band=(0.2, 0.8))
    # a flat name on top of its group's mapping wins over it
    assert JudgeOptions.of({"llm": {"timeout": 5}, "timeout": 7}).llm.timeout == 7


def test_an_unknown_option_is_an_invalid_option_and_still_a_value_error():
    with pytest.raises(InvalidOption, match=r"unknown judge option\(s\) \['timout'\]"):
        JudgeOptions.of({"timout": 5})
    with pytest.raises(ValueError, match="unknown llm options"):
        JudgeOptions.of({"llm": {"verifier": "lexical"}})


def test_the_timeout_reaches_the_retry_policy_of_judge_and_embedder():
    options = JudgeOptions.of({"timeout": 2.5, "max_attempts": 3})
    judge = get_judge("openai:m@http://127.0.0.1:9/v1", cache=False, options=options)
    assert (judge.policy.timeout, judge.policy.max_attempts) == (2.5, 3)
    from ragmeter.embedders import get_embedder

    embedder = get_embedder("openai:e@http://127.0.0.1:9/v1", cache=False, calls=options.llm)
    assert (embedder.policy.timeout, embedder.policy.max_attempts) == (2.5, 3)
    # each default is written once, in the group: the retry policy has none of its own
    assert get_judge("openai:m@http://127.0.0.1:9/v1", cache=False).policy == DEFAULT_CALLS.retry_policy()
    with pytest.raises(TypeError):
        from ragmeter.calls.retry import RetryPolicy

        RetryPolicy()


def test_adapters_take_the_same_call_options():
    class Backend:
        identity = model = "fake"

    judge = build_judge(Backend(), name="x", cache=False, options=None, settings={"timeout": 9})
    assert judge.policy.timeout == 9 and judge.mode == ADAPTER_CALLS.structured == "prompt"
    judge = build_judge(Backend(), name="x", cache=False, options=LLMCallOptions(max_attempts=2), settings={})
    assert judge.policy.max_attempts == 2 and judge.mode == "json_schema"  # "auto" starts with json_schema
    with pytest.raises(InvalidOption):
        build_judge(Backend(), name="x", cache=False, options=None, settings={"verifier": "lexical"})


@pytest.mark.parametrize(("judge", "options", "said"), [
    ("local", {"timeout": 5}, "timeout set, but the local judge makes no LLM calls"),
    ("local", {"prices": {"m": (1.0, 2.0)}}, "prices set, but the local judge makes no LLM calls: ignored by the judge"),
    ("openai:m@http://127.0.0.1:9/v1", {"verifier": "lexical"}, "verifier set, but judge 'openai:m@http://127.0.0.1:9/v1' has no local models"),
    ("local", {"band": (0.1, 0.9)}, "band set, but judge 'local' is not a cascade"),
])
def test_a_setting_the_judge_does_not_use_is_named_in_one_warning(judge, options, said, caplog):
    with caplog.at_level(logging.WARNING, logger="ragmeter"):
        get_judge(judge, cache=False, options=options)
    lines = [r.getMessage() for r in caplog.records if said in r.getMessage()]
    assert len(lines) == 1 and "\n" not in lines[0]


def test_settings_a_judge_uses_give_no_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="ragmeter"):
        get_judge("local", cache=False, options={"verifier": "lexical", "threads": 1})
        get_judge("local+openai:m@http://127.0.0.1:9/v1", cache=False,
                  options={"timeout": 3, "verifier": "lexical", "band": (0.1, 0.9)})
    assert not [r for r in caplog.records if "set, but" in r.getMessage()]


def _flags(command_name: str) -> dict[str, str]:
    command = typer.main.get_command(app)
    params = command.commands[command_name].params  # type: ignore[attr-defined]
    return {p.name: p.opts[0] for p in params if p.param_type_name == "option"}


def test_evaluate_generate_align_and_monitor_share_one_judge_option_group():
    from ragmeter.cli.options import GROUP

    shared = {name: option.param_decls[0] for name, (_, option) in GROUP.items()}
    assert shared == {"timeout": "--timeout", "max_attempts": "--max-attempts", "price": "--price",
                      "verifier": "--verifier", "threads": "--threads", "band": "--escalate-band"}
    for command in ("evaluate", "generate", "align", "monitor"):
        flags = _flags(command)
        assert {name: flags.get(name) for name in shared} == shared, command


def test_timeout_with_the_local_judge_is_a_one_line_warning_in_the_cli(tmp_path):
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps({"question": "q", "answer": "Paris", "contexts": ["Paris"]}) + "\n")
    # --dry-run builds the judge without loading its models
    result = runner.invoke(app, ["evaluate", str(data), "--metrics", "faithfulness", "--judge", "local", "--timeout", "5",
                                 "--dry-run", "--no-record", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert result.stderr.count("timeout set, but the local judge makes no LLM calls") == 1
    assert "the local judge makes no LLM calls and costs nothing" in result.stdout


def test_evaluate_keeps_its_call_signature_and_declares_it_once():
    import ragmeter
    from ragmeter.engine import aevaluate as engine_aevaluate

    public = inspect.signature(ragmeter.evaluate)
    assert list(public.parameters)[:3] == ["data", "metrics", "judge"]
    assert public.parameters["record"].default is True and "recorder" not in public.parameters
    assert public.parameters["journal"].default is True and public.parameters["resume"].default is True
    assert public.parameters["out"].default is None and "result_file" not in public.parameters
    # the scoring options are the engine's aevaluate's, declared there once; the sinks are named as users write them
    sinks = {"out", "journal", "resume", "record"}
    engine_sinks = {"result_file", "journal", "recorder"}
    assert public.parameters.keys() - sinks == inspect.signature(engine_aevaluate).parameters.keys() - engine_sinks
    result = ragmeter.evaluate([{"question": "q", "answer": "Paris", "ground_truth": "Paris"}], metrics=["exact_match"],
                               judge="local", record=False, journal=False, show_progress=False)
    assert result["exact_match"] == [1.0]
