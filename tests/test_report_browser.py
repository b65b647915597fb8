"""The report in a real browser (headless Chromium): charts drawn, rows that open, sorting,
filtering, hostile text shown as text, no script errors and no network requests.

One browser for the module; each test loads the page afresh. Skipped only when Chromium,
chromedriver or selenium is absent.
"""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from test_report import BREAKOUT, XSS, baseline_pair, make_result, rich_result, score

from browser import MISSING, available, headless_chromium

if not available():
    pytest.skip(MISSING, allow_module_level=True)
pytest.importorskip("selenium.webdriver", reason="selenium not installed: pip install selenium")

from selenium.common.exceptions import NoAlertPresentException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from ragmeter.report import write_report  # noqa: E402


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("report")
    current, baseline = baseline_pair()
    many = make_result(
        [{"id": f"s{i}", "question": f"question {i}", "answer": f"answer {i}",
          "scores": {"token_f1": score(((i * 37) % 450) / 449, f"reason {i}")}} for i in range(450)],
        ["token_f1"],
    )
    return {
        "rich": write_report(rich_result(), folder / "rich.html").resolve().as_uri(),
        "baseline": write_report(current, folder / "baseline.html", baseline=baseline).resolve().as_uri(),
        "many": write_report(many, folder / "many.html").resolve().as_uri(),
        "empty": write_report(make_result([], ["faithfulness"]), folder / "empty.html").resolve().as_uri(),
    }


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    with headless_chromium() as browser:
        yield browser


def load(driver, url: str) -> None:
    driver.get_log("browser")  # drop what earlier pages logged
    driver.get(url)
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")


def severe_logs(driver) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def rows(driver) -> list:
    return driver.find_elements(By.CSS_SELECTOR, "#samples-table tbody tr.srow")


def row_ids(driver) -> list[str]:
    # one round trip, however long the table
    return driver.execute_script(
        "return [...document.querySelectorAll('#samples-table tbody tr.srow')].map(tr => tr.dataset.row)")


def open_row(driver, row: int):
    driver.find_element(By.CSS_SELECTOR, f'#samples-table tr.srow[data-row="{row}"]').click()
    detail = WebDriverWait(driver, 5).until(
        lambda d: d.find_element(By.CSS_SELECTOR, f'tr.srow[data-row="{row}"] + tr.detail-row'))
    assert detail.is_displayed()
    return detail


def test_every_metric_chart_is_drawn(driver, pages) -> None:
    load(driver, pages["rich"])
    for i in range(3):
        drawn = driver.execute_script(
            "const svg = document.querySelector(arguments[0] + ' .main-svg');"
            "return svg ? [svg.childNodes.length, document.querySelectorAll(arguments[0] + ' .bars path').length] : null;",
            f"#chart-{i}")
        assert drawn is not None, f"chart {i} not drawn"
        nodes, bars = drawn
        assert nodes > 0 and bars > 0
    assert severe_logs(driver) == []


def test_clicking_a_row_shows_its_reasons_verdicts_and_errors(driver, pages) -> None:
    load(driver, pages["rich"])
    assert driver.find_elements(By.CSS_SELECTOR, "tr.detail-row") == []
    detail = open_row(driver, 0)
    text = detail.text
    assert "What is the capital of France?" in text and "France's capital is Paris." in text
    assert "1 of 1 claims supported" in text and "1 of 2 ground-truth claims found" in text
    assert "Paris is the capital." in text  # a verdict, rendered as a table row
    detail = open_row(driver, 1)
    assert "NoClaims" in detail.text and "the answer makes no claims to check" in detail.text
    # a second click closes it again
    driver.find_element(By.CSS_SELECTOR, 'tr.srow[data-row="1"]').click()
    assert driver.find_elements(By.CSS_SELECTOR, 'tr.srow[data-row="1"] + tr.detail-row') == []
    assert severe_logs(driver) == []


def test_hostile_text_is_shown_not_run(driver, pages) -> None:
    load(driver, pages["rich"])
    detail = open_row(driver, 2)
    text = detail.text
    assert XSS in text and BREAKOUT in text and "<b>bold</b>" in text and f"reason with {XSS}" in text
    assert driver.execute_script(
        "return document.querySelectorAll('#samples-table script, #samples-table img').length"
        " + [...document.querySelectorAll('#samples-table b')].filter(b => b.textContent === 'bold').length"
    ) == 0
    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert.text
    assert severe_logs(driver) == []


def test_sorting_by_a_metric_puts_the_worst_first(driver, pages) -> None:
    load(driver, pages["rich"])
    header = driver.find_element(By.CSS_SELECTOR, '#samples-table th[data-key="m2"]')  # token_f1
    header.click()
    assert row_ids(driver) == ["1", "2", "0"]  # 0.1, 0.3, 0.8
    header = driver.find_element(By.CSS_SELECTOR, '#samples-table th[data-key="m2"]')  # the head is redrawn
    assert header.get_attribute("aria-sort") == "ascending"
    driver.find_element(By.CSS_SELECTOR, '#samples-table th[data-key="m2"]').click()
    assert row_ids(driver) == ["0", "2", "1"]
    # a failed score sorts last either way
    driver.find_element(By.CSS_SELECTOR, '#samples-table th[data-key="m0"]').click()  # faithfulness
    assert row_ids(driver) == ["2", "0", "1"]


def test_filter_and_errors_only(driver, pages) -> None:
    load(driver, pages["rich"])
    box = driver.find_element(By.ID, "filter")
    box.send_keys("atlantis")
    WebDriverWait(driver, 5).until(lambda d: row_ids(d) == ["1"])
    assert "1 matching" in driver.find_element(By.ID, "count").text
    box.clear()
    box.send_keys(" ")  # an input event with an empty needle
    WebDriverWait(driver, 5).until(lambda d: len(row_ids(d)) == 3)
    driver.find_element(By.ID, "only-errors").click()
    assert row_ids(driver) == ["1", "2"]


def test_error_link_opens_its_sample(driver, pages) -> None:
    load(driver, pages["rich"])
    driver.find_element(By.CSS_SELECTOR, '#errors a[data-open-row="2"]').click()
    detail = WebDriverWait(driver, 5).until(
        lambda d: d.find_element(By.CSS_SELECTOR, 'tr.srow[data-row="2"] + tr.detail-row'))
    assert "JudgeOutputInvalid" in detail.text


def test_worst_first_and_show_more_on_a_long_table(driver, pages) -> None:
    load(driver, pages["many"])
    assert len(row_ids(driver)) == 200  # drawn a page at a time
    driver.find_element(By.CSS_SELECTOR, '#worst option[value="m0"]').click()
    values = [float(v) for v in driver.execute_script(
        "return [...document.querySelectorAll('#samples-table tr.srow td:last-child')].map(td => td.textContent)")]
    assert values == sorted(values) and values[0] == 0.0
    driver.find_element(By.ID, "more").click()
    assert len(row_ids(driver)) == 400
    driver.find_element(By.ID, "more").click()
    assert len(row_ids(driver)) == 450
    assert not driver.find_element(By.ID, "more").is_displayed()


def test_baseline_page(driver, pages) -> None:
    load(driver, pages["baseline"])
    assert driver.execute_script("return document.querySelectorAll('#chart-compare .main-svg').length") > 0
    statuses = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#baseline .status")]
    assert statuses == ["regressed", "improved", "no significant change", "not comparable"]
    detail = open_row(driver, 0)
    assert "baseline" in detail.text
    assert severe_logs(driver) == []


def test_empty_run_page(driver, pages) -> None:
    load(driver, pages["empty"])
    assert rows(driver) == []
    assert driver.execute_script("return document.querySelectorAll('#chart-0 .main-svg').length") > 0
    assert severe_logs(driver) == []


def test_nothing_is_fetched(driver, pages) -> None:
    load(driver, pages["baseline"])
    fetched = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert fetched == []
