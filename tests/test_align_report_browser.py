"""The report's annotate mode in a real browser (headless Chromium): agree / disagree /
corrected score and a note on an opened sample, kept across a reload (localStorage), and
exported as a labels file that ``load_labels`` reads back. Skipped when Chromium,
chromedriver or selenium is absent."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from test_report import XSS, make_result, rich_result

from browser import MISSING, available, headless_chromium

if not available():
    pytest.skip(MISSING, allow_module_level=True)
pytest.importorskip("selenium.webdriver", reason="selenium not installed: pip install selenium")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from ragmeter.align import load_labels  # noqa: E402
from ragmeter.report import write_report  # noqa: E402


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    with headless_chromium() as browser:
        yield browser


def load(driver, url: str) -> None:
    driver.get_log("browser")
    driver.get(url)
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")


def severe_logs(driver) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def open_row(driver, row: int):
    driver.find_element(By.CSS_SELECTOR, f'#samples-table tr.srow[data-row="{row}"]').click()
    return WebDriverWait(driver, 5).until(
        lambda d: d.find_element(By.CSS_SELECTOR, f'tr.srow[data-row="{row}"] + tr.detail-row'))


def controls(detail, metric: str):
    return detail.find_element(By.CSS_SELECTOR, f'.annot[data-metric="{metric}"]')


def test_annotate_in_the_report_and_export_labels(driver, tmp_path) -> None:
    page = write_report(rich_result(), tmp_path / "report.html").resolve().as_uri()
    load(driver, page)
    driver.execute_script("window.localStorage.clear()")
    load(driver, page)
    detail = open_row(driver, 0)
    assert detail.find_elements(By.CSS_SELECTOR, ".annot") == []  # only in annotate mode
    driver.find_element(By.ID, "annotate-on").click()
    detail = driver.find_element(By.CSS_SELECTOR, 'tr.srow[data-row="0"] + tr.detail-row')
    faith = controls(detail, "faithfulness")
    faith.find_element(By.CSS_SELECTOR, ".annot-disagree").click()  # judge 1.0 (yes) -> label 0
    faith.find_element(By.CSS_SELECTOR, ".annot-note").send_keys("the capital is not the answer's point")
    recall = controls(detail, "context_recall")
    recall.find_element(By.CSS_SELECTOR, ".annot-agree").click()  # label = the judge's 0.5
    f1 = controls(detail, "token_f1")
    f1.find_element(By.CSS_SELECTOR, ".annot-score").send_keys("0.6\t")  # a corrected score
    assert "label 0" in faith.text
    # the hostile sample: a note with markup stays text
    detail = open_row(driver, 2)
    hostile = controls(detail, "faithfulness")
    hostile.find_element(By.CSS_SELECTOR, ".annot-agree").click()
    hostile.find_element(By.CSS_SELECTOR, ".annot-note").send_keys(XSS)
    # a failed score (NoClaims) offers only a corrected score
    detail = open_row(driver, 1)
    assert controls(detail, "faithfulness").find_elements(By.CSS_SELECTOR, ".annot-agree") == []

    # kept in the browser: a reload shows the same labels
    load(driver, page)
    assert driver.find_element(By.ID, "annotate-count").text.startswith("4 label(s) on 2 sample(s)")
    exported = driver.execute_script("return document.getElementById('annotate-export').textContent")
    path = tmp_path / "labels.jsonl"
    path.write_text(exported, encoding="utf-8")
    labels = load_labels(path)
    assert not labels.errors
    first, hostile_label = labels.samples
    assert first.sample.id == "paris" and first.sample.contexts == ["France's capital is Paris."]
    assert first.labels == {"faithfulness": 0.0, "context_recall": 0.5, "token_f1": 0.6}
    assert first.note == "faithfulness: the capital is not the answer's point"
    assert hostile_label.sample.id == "hostile" and hostile_label.note == XSS
    assert driver.execute_script("return document.querySelectorAll('#annotate script, #annotate img').length") == 0
    assert severe_logs(driver) == []


def test_annotate_mode_on_an_empty_run(driver, tmp_path) -> None:
    """An empty run still gets a working page: no labels, nothing to export, no script error
    (labels are kept per run id, so the other run's labels do not show here)."""
    page = write_report(make_result([], ["faithfulness"], run_id="empty-run"), tmp_path / "empty.html").resolve().as_uri()
    load(driver, page)
    driver.find_element(By.ID, "annotate-on").click()
    assert driver.find_element(By.ID, "annotate-count").text == "0 label(s) on 0 sample(s)"
    assert driver.execute_script("return document.getElementById('annotate-export').textContent") == ""
    assert severe_logs(driver) == []
