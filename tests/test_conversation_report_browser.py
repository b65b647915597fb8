"""The report's conversation view in a real browser (headless Chromium): a conversation row
opens on its messages in order, with its tool calls, and on each per-turn metric's turns.
Skipped only when Chromium, chromedriver or selenium is absent."""

from __future__ import annotations

import pytest

from browser import MISSING, available, headless_chromium

if not available():
    pytest.skip(MISSING, allow_module_level=True)
pytest.importorskip("selenium.webdriver", reason="selenium not installed: pip install selenium")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from ragmeter import evaluate_conversations  # noqa: E402
from ragmeter.report import write_report  # noqa: E402
from ragmeter.testing import OpenAIMockServer, scripted_judge  # noqa: E402
from test_conversation_metrics import RAG_CHAT  # noqa: E402


def test_a_conversation_opens_message_by_message_with_calls_and_turn_scores(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as server:
        result = evaluate_conversations([RAG_CHAT], ["faithfulness", "tool_call_accuracy"], retrieval_tools=["search"],
                                        judge=f"openai:mock@{server.base_url}", show_progress=False, journal=False,
                                        record=False, cache=False)
    page = write_report(result, tmp_path / "report.html").resolve().as_uri()
    with headless_chromium() as driver:
        driver.get(page)
        WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
        driver.find_element(By.CSS_SELECTOR, '#samples-table tr.srow[data-row="0"]').click()
        messages = driver.find_elements(By.CSS_SELECTOR, "ol.conversation li.msg")
        assert [m.find_element(By.CSS_SELECTOR, "b.role").text for m in messages] == [
            "user 1", "assistant", "tool search", "assistant 1", "user 2", "assistant", "tool search", "assistant 2",
            "user 3", "assistant 3"]
        calls = [c.text for c in driver.find_elements(By.CSS_SELECTOR, "ol.conversation code.call")]
        assert calls == ['→ search({"q":"capital of France"})', '→ search({"q":"Paris population"})']
        card = driver.find_element(By.CSS_SELECTOR, ".mcard")
        assert "mean of 2 turns: turn 1 1.00, turn 2 0.50" in card.text
        assert "Paris lies on the Loire." in card.text  # the turn's unsupported claim, in its verdicts
        assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
