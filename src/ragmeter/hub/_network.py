"""The Hub itself: ``push_to_hub`` (one commit of the folder ``save_to_disk`` writes),
``load_from_hub`` (download at one resolved commit, then ``load_from_disk``), and
``HubUnreachable`` in place of the HTTP library's connection errors."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ragmeter.errors import BadFile, RagmeterError
from ragmeter.hub._folder import load_from_disk, read_manifest, save_to_disk
from ragmeter.hub._schema import MANIFEST, HubObject, Kind, kind_of


def push_to_hub(
    obj: HubObject,
    repo_id: str,
    *,
    private: bool = True,
    token: str | None = None,
    endpoint: str | None = None,
    commit_message: str | None = None,
    license: str = "unknown",
) -> str:
    """Upload ``obj`` to the Hub dataset repo ``repo_id`` (created if missing) and return its URL.

    Private by default: evaluation data often holds a company's documents. ``private`` only
    applies when the repo is created; an existing repo keeps its visibility. ``token``:
    else ``HF_TOKEN`` or the token saved by ``hf auth login``. ``endpoint``: else
    ``HF_ENDPOINT`` (read at call time), else huggingface.co. One commit holds all files.
    """
    from huggingface_hub import CommitOperationAdd, HfApi

    kind = kind_of(obj)
    api = HfApi(endpoint=_endpoint(endpoint), token=_require_token(token))
    with reaching_the_hub(repo_id, api.endpoint, "push to"):
        repo = api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ragmeter-hub-") as tmp, reaching_the_hub(repo_id, api.endpoint, "push to"):
        folder = save_to_disk(obj, Path(tmp) / "repo", repo_id=repo.repo_id, license=license)
        manifest = read_manifest(folder)
        operations = [
            CommitOperationAdd(path_in_repo=rel, path_or_fileobj=str(folder / rel))
            for rel in [*manifest["files"], MANIFEST]
        ]
        api.create_commit(
            repo.repo_id,
            operations=operations,
            commit_message=commit_message or f"ragmeter: upload {kind} ({manifest['data']['num_rows']} rows)",
            repo_type="dataset",
        )
    return str(repo)


def load_from_hub(
    repo_id: str,
    *,
    kind: Kind | None = None,
    revision: str | None = None,
    token: str | None = None,
    endpoint: str | None = None,
    cache_dir: str | Path | None = None,
) -> HubObject:
    """Download a repo written by ``push_to_hub`` (into the Hugging Face cache) and load it.

    The revision (branch, tag or commit; default the main branch) is resolved to one commit
    first and every file is read at that commit, so a push landing mid-download cannot mix
    two versions. ``kind`` as in ``load_from_disk``.
    """
    from huggingface_hub import HfApi, hf_hub_download
    from huggingface_hub.errors import EntryNotFoundError

    api = HfApi(endpoint=_endpoint(endpoint), token=token)
    with reaching_the_hub(repo_id, api.endpoint, "download"):
        commit = api.dataset_info(repo_id, revision=revision).sha
    if commit is None:
        raise BadFile(f"the Hub did not say which commit {repo_id}@{revision or 'main'} is")

    def download(filename: str) -> Path:
        return Path(
            hf_hub_download(
                repo_id, filename, repo_type="dataset", revision=commit, token=token,
                endpoint=api.endpoint, cache_dir=str(cache_dir) if cache_dir is not None else None,
            )
        )

    try:
        with reaching_the_hub(repo_id, api.endpoint, "download"):
            manifest_path = download(MANIFEST)
    except EntryNotFoundError:
        raise BadFile(
            f"{repo_id} has no {MANIFEST}: it was not pushed by ragmeter. Read its tables with "
            f"datasets.load_dataset({repo_id!r}) and ragmeter.Dataset.from_hf(...)"
        ) from None
    folder = manifest_path.parent
    with reaching_the_hub(repo_id, api.endpoint, "download"):
        for rel in read_manifest(folder)["files"]:
            download(rel)
    return load_from_disk(folder, kind=kind)


class HubUnreachable(RagmeterError):
    """The Hub could not be reached (no network, a proxy, a wrong endpoint, offline mode).

    Raised in place of the HTTP library's own connection error, which names neither the
    repo nor what to check. Transient: the same call may work once the network is back."""

    transient = True


_TRANSPORT_ERRORS = ("TransportError", "NetworkError", "ConnectError", "TimeoutException", "ProxyError")
"""Class names of httpx's (and httpx2's) connection-level errors, matched by name so either
library's classes are recognised without importing it."""


@contextmanager
def reaching_the_hub(repo_id: str, endpoint: str | None, action: str) -> Iterator[None]:
    """Turn a failure to reach the Hub into ``HubUnreachable`` naming the repo, the endpoint
    and what to check. HTTP answers (404, 401...) pass through: they say what is wrong."""
    where = endpoint or "https://huggingface.co"
    try:
        yield
    except Exception as exc:
        names = {cls.__name__ for cls in type(exc).__mro__}
        offline = "OfflineModeIsEnabled" in names
        if not (offline or names & set(_TRANSPORT_ERRORS) or isinstance(exc, ConnectionError)):
            raise
        check = ("HF_HUB_OFFLINE is set: unset it to use the Hub" if offline else
                 "check the network, any proxy (HTTPS_PROXY) and the endpoint (--endpoint / HF_ENDPOINT)")
        raise HubUnreachable(f"cannot {action} {repo_id} at {where}: {type(exc).__name__}: {exc}; {check}") from exc


# --- Hub plumbing ---------------------------------------------------------------------------


def _endpoint(endpoint: str | None) -> str | None:
    """The argument, else ``HF_ENDPOINT`` as it is now (huggingface_hub reads it once, at import)."""
    chosen = endpoint or os.environ.get("HF_ENDPOINT") or None
    return chosen.rstrip("/") if chosen else None


def _require_token(token: str | None) -> str:
    """Pushing needs a write token; say so before any request instead of after a 401."""
    if token:
        return token
    from huggingface_hub import get_token

    saved = get_token()
    if not saved:
        raise PermissionError(
            "pushing to the Hub needs a token with write access: pass token=... (--token), "
            "set HF_TOKEN, or run `hf auth login`"
        )
    return saved


