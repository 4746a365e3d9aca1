"""The browser helpers work: a stand-in app is served, driven in Chromium,
restarted with its data, and photographed phone-sized."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Browser

from tests.support import browser_support
from tests.support.browser_support import (
    REPO_ROOT,
    AppServer,
    FlutterPage,
    app_command,
    chromium_missing_reason,
    start_app_server,
)

STANDIN = REPO_ROOT / "tests" / "support" / "browser_standin_app.py"


@pytest.fixture
def app_server_command() -> list[str]:
    return [sys.executable, str(STANDIN), "--port", "{port}", "--data-dir", "{data_dir}"]


@pytest.mark.browser
def test_a_stand_in_app_is_driven_restarted_and_photographed(
    app_server: AppServer, browser_page: FlutterPage, tmp_path: Path
) -> None:
    browser_page.wait_for_text("Count: 0")
    browser_page.click_button("Add one")
    browser_page.wait_for_text("Count: 1")
    browser_page.click_button("Add one")
    browser_page.wait_for_text("Count: 2")

    browser_page.type_into("Name", "Annabel")
    browser_page.type_into("Name", "Ann")
    assert browser_page.field_value("Name") == "Ann"
    browser_page.click_button("Greet")
    browser_page.wait_for_text("Hello, Ann!", exact=True)
    assert browser_page.texts()[0] == "Count: 2"

    browser_page.click_button("Save in browser")
    browser_page.wait_for_text("Browser store ok")
    report = next(line for line in browser_page.texts() if line.startswith("Browser store ok"))
    local_storage_chars = browser_page.page.evaluate(
        "() => Object.keys(localStorage).filter(k => k.startsWith('flutter.standin/'))"
        ".reduce((n, k) => n + k.length + localStorage.getItem(k).length, 0)"
    )
    assert report == f"Browser store ok: {local_storage_chars} bytes"

    shot = browser_page.screenshot(tmp_path / "shots" / "standin.png")
    with Image.open(shot) as image:
        assert image.size == (390, 844)

    app_server.restart(crash=True)
    browser_page.reload()
    browser_page.wait_for_text("Count: 2")
    assert (app_server.data_dir / "farkle-table.json").is_file()


@pytest.mark.browser
def test_typing_over_a_field_whose_first_select_all_came_too_early_still_replaces_its_text(
    chromium_browser: Browser,
) -> None:
    # A field that does not yet listen swallows the first Control+A, as a Flutter field focused a
    # moment before Flutter took it over does: "1000" typed over "10000" must not read "100001000".
    page = FlutterPage.new_phone(chromium_browser)
    try:
        page.page.set_content(
            '<input aria-label="Target" value="10000">'
            "<script>let early = true; document.querySelector('input').addEventListener('keydown', e => {"
            " if (early && e.ctrlKey && e.key.toLowerCase() === 'a') { early = false; e.preventDefault(); } });</script>")
        page.type_into("Target", "1000")
        assert page.field_value("Target") == "1000"
    finally:
        page.close()


def test_a_server_that_exits_fails_fast_with_its_log(tmp_path: Path) -> None:
    command = [sys.executable, "-c", "import sys; print('port {port} refused', flush=True); sys.exit(3)"]
    with pytest.raises(RuntimeError, match=r"(?s)exited with 3.*port \d+ refused"):
        with start_app_server(tmp_path / "data", command=command):
            pass


def test_the_real_app_is_started_with_port_and_data_dir(tmp_path: Path) -> None:
    assert app_command(8600, tmp_path)[1:] == ["-m", "app", "--port", "8600", "--data-dir", str(tmp_path)]


def test_missing_chromium_skips_locally_and_fails_on_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser_support, "chromium_available", lambda: False)
    local = chromium_missing_reason({})
    on_ci = chromium_missing_reason({"CI": "true"})
    assert local is not None and local[0] is False and "apt-get install chromium" in local[1]
    assert on_ci is not None and on_ci[0] is True and "CI is set" in on_ci[1]
    monkeypatch.setattr(browser_support, "chromium_available", lambda: True)
    assert chromium_missing_reason({"CI": "true"}) is None


def test_fast_taps_are_counted_from_the_lists_shown() -> None:
    from tests.browser.test_browser_taps import EXPECTED_FINAL, PREFILL, SCREENS, landed

    plan = SCREENS["lookup"].plan()
    sent = [(80.0 * i, True) for i in range(len(plan))]
    queue, every, sparse = list(PREFILL), [(0.0, list(PREFILL))], [(0.0, list(PREFILL))]
    for i, tap in enumerate(plan):  # every tap landing, each drawn 50 ms after it was sent
        queue = queue + [tap["face"]] if "face" in tap else queue[1:]
        every.append((80.0 * i + 50, list(queue)))
        if i % 5 == 4 or i == len(plan) - 1:  # or drawn five at a time
            sparse.append((80.0 * i + 50, list(queue)))
    assert queue == EXPECTED_FINAL and EXPECTED_FINAL not in [s for _, s in every[:-1]]
    assert landed(every, sent, plan) == 30
    assert landed(sparse, sent, plan) == 30  # several taps in one frame: still all of them
    # the 2nd tap (take the first die away) lost: the 1 stays, one die more at the end
    lost = [(0.0, [1, 2, 3]), (50.0, [1, 2, 3, 4]), (210.0, [1, 2, 3, 4, 5]), (290.0, [2, 3, 4, 5])]
    assert landed(lost, sent[:4], plan[:4]) == 3
    assert landed(lost[:3], sent[:4], plan[:4]) == 2  # and the last one too
    assert landed(lost, sent[:5], plan[:5]) == 3  # the 5th (add a 6) lost: the last list is the end state
    assert landed([(0.0, [1, 2, 3]), (50.0, [1, 2])], sent[:2], plan[:2]) == -1  # nothing explains it
    # a change shown before its tap was sent cannot be explained
    assert landed([(0.0, [1, 2, 3]), (10.0, [1, 2, 3, 4])], sent[:1], plan[:1]) == 1
    assert landed([(0.0, [1, 2, 3]), (-1.0, [1, 2, 3, 4])], sent[:1], plan[:1]) == -1
    assert landed([(0.0, [1, 2, 3])], [(0.0, False)], plan[:1]) == 0  # no target: the tap was not made


def test_another_commit_runs_from_its_own_copy() -> None:
    import os
    import subprocess

    from tests.support.baseline_app import BASELINE_COMMIT, export_commit

    source = export_commit(BASELINE_COMMIT)
    assert (source.app_dir / "__main__.py").is_file() and source.cache_label == source.root.name
    where = subprocess.run([sys.executable, "-c", "import app, engine; print(app.__file__); print(engine.__file__)"],
                           cwd=source.root, env={**os.environ, **source.env}, check=True,
                           capture_output=True, text=True).stdout.split()
    assert [Path(p).parent.parent for p in where] == [source.root, source.root]
