"""The engine writes only to the sinks its caller hands it (``ragmeter.engine.sinks``): here a
journal and a result file kept in memory, so a run and its resumption touch no disk."""

from __future__ import annotations

from ragmeter.engine import evaluate as engine_evaluate

ROWS = [{"question": f"q{i}", "answer": a, "ground_truth": "Paris"} for i, a in enumerate(["Paris", "Rome", "Paris"])]


class MemoryJournal:
    location = "memory:journal"

    def __init__(self, scores=None):
        self.scores = dict(scores or {})
        self.appended: list = []
        self.calls: list[str] = []

    def finished(self):
        self.calls.append("finished")
        return dict(self.scores)

    def open(self):
        self.calls.append("open")

    def append(self, key, score):
        self.appended.append(key)
        self.scores[key] = score

    def close(self):
        self.calls.append("close")


class MemoryResultFile:
    def __init__(self, metrics):
        self.metrics, self.added, self.finished_with = metrics, [], None

    def add(self, result):
        self.added.append(result)

    def finish(self, info, usage, input_errors):
        self.finished_with = info
        return "memory:result"

    def abort(self):
        raise AssertionError("the run did not fail")


def test_a_run_writes_its_scores_to_the_sinks_it_is_handed_and_resumes_from_them(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))
    journals: dict[str, MemoryJournal] = {}
    files: list[MemoryResultFile] = []

    def open_journal(run_id):
        journals[run_id] = MemoryJournal(journals[run_id].scores if run_id in journals else None)
        return journals[run_id]

    def open_file(metrics):
        files.append(MemoryResultFile(metrics))
        return files[-1]

    first = engine_evaluate(ROWS, ["exact_match"], cache=False, show_progress=False, journal=open_journal,
                            result_file=open_file)
    (run_id, journal), = journals.items()
    assert first.info.run_id == run_id and first.info.journal == "memory:journal"
    assert journal.calls == ["finished", "open", "close"]
    assert sorted(row for row, _, _ in journal.appended) == [0, 1, 2]
    assert files[0].metrics == ["exact_match"] and files[0].finished_with is first.info
    assert sorted((r.row, r.scores["exact_match"].value) for r in files[0].added) == [(0, 1.0), (1, 0.0), (2, 1.0)]
    assert first.samples == [] and first.streamed.path == "memory:result"  # streamed, not kept
    assert first.info.resumed_scores == 0

    again = engine_evaluate(ROWS, ["exact_match"], cache=False, show_progress=False, journal=open_journal,
                            result_file=open_file)
    assert again.info.resumed_scores == 3 and journals[run_id].appended == []  # nothing scored twice
    assert sorted((r.row, r.scores["exact_match"].value) for r in files[1].added) == [(0, 1.0), (1, 0.0), (2, 1.0)]
    assert not (tmp_path / "cache").exists()  # no journal file, no result file, no cache


def test_without_sinks_the_engine_keeps_the_samples_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))
    result = engine_evaluate(ROWS, ["exact_match"], cache=False, show_progress=False)
    assert result["exact_match"] == [1.0, 0.0, 1.0] and result.info.journal is None and result.streamed is None
    assert not (tmp_path / "cache").exists()
