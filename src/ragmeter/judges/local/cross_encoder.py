"""A Hugging Face NLI cross-encoder as the claim verifier (``--verifier nli:NAME_OR_PATH``).

No NLI model ships on PyPI, so ragmeter ships none: this is for users who have one (HHEM,
MiniCheck, DeBERTa-NLI), by hub name or by the directory of a copy. Its options come from
the verifier spec (``verifier_spec``), so everything a real model needs can be said on the
command line.
"""

from __future__ import annotations

import math
import os
import re
import threading
from pathlib import Path
from typing import Any, Sequence

from ragmeter.extras import require
from ragmeter.judges.local.verifier_spec import DEFAULT_BATCH_SIZE, DEFAULT_MAX_LENGTH, NLISpec
from ragmeter.text.nlp import LocalModelUnavailable

_GENERIC_LABEL = re.compile(r"(label_?)?\d+", re.I)
"""Labels that say nothing ("0", "1", "LABEL_1"): transformers' defaults, and MiniCheck's."""


def hub_offline() -> bool:
    """Whether Hugging Face downloads are off (``HF_HUB_OFFLINE``), as huggingface_hub reads it."""
    if os.environ.get("HF_HUB_OFFLINE", "").strip().upper() in {"1", "ON", "YES", "TRUE"}:
        return True
    try:
        from huggingface_hub import constants
    except ImportError:
        return False
    return bool(constants.HF_HUB_OFFLINE)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= 300 else text[:297] + "..."


class CrossEncoderVerifier:
    """Any Hugging Face NLI cross-encoder (HHEM, MiniCheck, DeBERTa-NLI), by name or path.

    ``scoring="logits"``: the tokenizer reads (premise, claim) as one sequence pair, the
    model returns one logit per label, and the support probability is the softmax
    probability of the entailment label. That label is ``entailment_label`` (a name or an
    index) when given; else the one label containing "entail" (DeBERTa-NLI:
    contradiction / entailment / neutral), failing that "support", "consistent" or
    "faithful"; else, for a two-output model whose labels say nothing ("0"/"1",
    "LABEL_0"/"LABEL_1": MiniCheck's RoBERTa and DeBERTa models), output 1, the class
    such models train as "supported". A model with a single output is read as a support
    logit through a sigmoid. Any other layout is a ``LocalModelUnavailable`` asking for
    ``label=``, never a guess.

    ``scoring="predict"``: the model's own ``predict(pairs)`` gives the probabilities. Why:
    HHEM-2.1-Open's custom code wraps each pair in its own prompt with its own tokenizer, so
    tokenising the pair ourselves would score text it was never trained on. ``"auto"``
    (default) uses ``predict`` when the loaded model defines one (only custom code does).

    Loaded with ``transformers`` directly (``AutoModelForSequenceClassification``), which is
    what ``sentence_transformers.CrossEncoder`` wraps, without depending on that wrapper's
    changing API. A hub name needs a network the first time (or ``HF_HUB_OFFLINE=1`` and a
    cached copy); a directory path always works offline. ``trust_remote_code`` is off unless
    asked for: it runs the model's code (pin a ``revision`` when you turn it on).
    """

    def __init__(self, name_or_path: str, entailment_label: str | int | None = None,
                 batch_size: int = DEFAULT_BATCH_SIZE, max_length: int = DEFAULT_MAX_LENGTH,
                 device: str = "cpu", trust_remote_code: bool = False,
                 revision: str | None = None, tokenizer: str | None = None,
                 scoring: str = "auto") -> None:
        self.spec = NLISpec(name_or_path, entailment_label, max_length, batch_size,
                            trust_remote_code, revision, tokenizer, device, scoring)
        self.name_or_path = name_or_path
        self.name = self.spec.text
        self.batch_size = batch_size
        self.max_length = max_length
        self.device = device
        self.trust_remote_code = trust_remote_code
        self._requested_label = entailment_label
        self._loaded: tuple[Any, Any, int, bool] | None = None
        self._lock = threading.Lock()

    @classmethod
    def from_spec(cls, spec: NLISpec) -> "CrossEncoderVerifier":
        """The verifier an ``nli:`` spec describes (``verifier_spec.parse_nli``)."""
        return cls(spec.model, spec.label, spec.batch_size, spec.max_length, spec.device,
                   spec.trust_remote_code, spec.revision, spec.tokenizer, spec.scoring)

    # --- loading --------------------------------------------------------------------------

    def _load(self) -> tuple[Any, Any, int, bool]:
        """(tokenizer or None, model, index of the support output, scored by ``predict``)."""
        if self._loaded is not None:
            return self._loaded
        with self._lock:
            if self._loaded is not None:
                return self._loaded
            try:
                from transformers import AutoModelForSequenceClassification, AutoTokenizer
                from transformers.utils import logging as hf_logging
            except ImportError as exc:
                raise LocalModelUnavailable(
                    "an NLI verifier needs transformers and torch: "
                    "pip install 'ragmeter[local]'") from exc
            hf_logging.disable_progress_bar()
            spec = self.spec
            common = {"trust_remote_code": spec.trust_remote_code, "revision": spec.revision}
            try:
                model = AutoModelForSequenceClassification.from_pretrained(spec.model, **common)
                by_predict = spec.scoring == "predict" or (
                    spec.scoring == "auto" and callable(getattr(model, "predict", None)))
                if by_predict and not callable(getattr(model, "predict", None)):
                    raise LocalModelUnavailable(
                        f"{spec.model!r} has no predict(pairs) method; use scoring=logits")
                tokenizer = None if by_predict else AutoTokenizer.from_pretrained(
                    spec.tokenizer or spec.model,
                    **(common if spec.tokenizer is None else {"trust_remote_code": spec.trust_remote_code}))
            except LocalModelUnavailable:
                raise
            except Exception as exc:  # noqa: BLE001 (any load failure becomes one typed error)
                raise LocalModelUnavailable(self._load_failure(exc)) from exc
            model.to(spec.device)
            model.eval()
            config = model.config
            index = 0 if by_predict else self._find_label(
                getattr(config, "id2label", None), int(getattr(config, "num_labels", 1)))
            self._loaded = (tokenizer, model, index, by_predict)
            return self._loaded

    def _load_failure(self, exc: BaseException) -> str:
        """One line: what failed, and what to do about it."""
        name = self.spec.model
        said = f"could not load the NLI model {name!r}: {type(exc).__name__}: {_one_line(exc)}"
        if "trust_remote_code" in str(exc) and not self.spec.trust_remote_code:
            return (f"{said} -- this model runs its own code: if you trust it, add "
                    f"?trust_remote_code=1 (and pin ?revision=COMMIT)")
        if Path(name).expanduser().is_dir():
            return f"{said} -- the directory holds no model transformers can load"
        how = (f"on a machine with a network run `hf download {name} --local-dir DIR` "
               f"(older huggingface_hub: `huggingface-cli download`) or "
               f"huggingface_hub.snapshot_download, copy DIR here and use nli:DIR")
        if hub_offline():
            return (f"{said} -- HF_HUB_OFFLINE=1 and the model is not in the Hugging Face "
                    f"cache: {how}")
        return f"{said} -- a hub name needs a network the first time; to run offline, {how}"

    @property
    def entailment_index(self) -> int:
        """Index of the output read as support (loads the model)."""
        return self._load()[2]

    @property
    def scored_by_predict(self) -> bool:
        """Whether the model's own ``predict`` scores the pairs (loads the model)."""
        return self._load()[3]

    def _find_label(self, id2label: dict | None, num_labels: int) -> int:
        labels = {int(k): str(v) for k, v in (id2label or {}).items()}
        wanted = self._requested_label
        if num_labels == 1:
            return 0
        if isinstance(wanted, int):
            if not 0 <= wanted < num_labels:
                raise LocalModelUnavailable(
                    f"label={wanted} is not an output of {self.name_or_path!r} "
                    f"({num_labels} labels)")
            return wanted
        if isinstance(wanted, str):
            for i, label in labels.items():
                if label.casefold() == wanted.casefold():
                    return i
            raise LocalModelUnavailable(
                f"{self.name_or_path!r} has no label {wanted!r}; its labels: {labels}")
        for keys in (("entail",), ("support", "consistent", "faithful")):
            hits = [i for i, label in labels.items()
                    if any(k in label.casefold() for k in keys)
                    and not label.casefold().startswith(("not", "non", "un", "in"))]
            if len(hits) == 1:
                return hits[0]
        if num_labels == 2 and all(_GENERIC_LABEL.fullmatch(v) for v in labels.values()):
            return 1
        raise LocalModelUnavailable(
            f"cannot tell which output of {self.name_or_path!r} means entailment "
            f"(labels: {labels}); add ?label=NAME_OR_INDEX to the verifier spec")

    # --- scoring --------------------------------------------------------------------------

    def support(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        if not pairs:
            return []
        torch = require("local", "torch", "the NLI verifier")

        tokenizer, model, index, by_predict = self._load()
        out: list[float] = []
        with torch.inference_mode():
            for start in range(0, len(pairs), self.batch_size):
                chunk = list(pairs[start:start + self.batch_size])
                if by_predict:
                    probs = self._predicted(model, chunk)
                else:
                    encoded = tokenizer(
                        [p for p, _ in chunk], [c for _, c in chunk], padding=True,
                        truncation=True, max_length=self.max_length, return_tensors="pt",
                    ).to(self.device)
                    logits = model(**encoded).logits.double()
                    if logits.shape[-1] == 1:
                        probs = torch.sigmoid(logits[:, 0]).tolist()
                    else:
                        probs = torch.softmax(logits, dim=-1)[:, index].tolist()
                out.extend(float(min(1.0, max(0.0, p))) for p in probs)
        return out

    def _predicted(self, model: Any, chunk: list[tuple[str, str]]) -> list[float]:
        """The model's own ``predict`` on (premise, hypothesis) pairs, checked: one number in
        [0, 1] per pair (a model that says otherwise is not read as a probability)."""
        raw = model.predict(chunk)
        values = raw.tolist() if hasattr(raw, "tolist") else list(raw)
        values = [float(v) for v in values]
        if len(values) != len(chunk) or any(math.isnan(v) or not -1e-6 <= v <= 1 + 1e-6
                                            for v in values):
            raise LocalModelUnavailable(
                f"{self.name_or_path!r}'s predict() did not return one probability per pair "
                f"({len(values)} values for {len(chunk)} pairs); use scoring=logits")
        return values
