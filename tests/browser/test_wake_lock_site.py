"""The PWA carries the page's side of keeping the screen on (app/web/wake_lock.js) where
Flutter's wakelock plugin loads it from, pre-cached for the offline table."""

from __future__ import annotations

import json
import re

from app.venue.server import WAKE_LOCK_PATH
from tests.support.baseline_app import app_source
from tests.support.pwa_harness import built_site


def test_the_built_site_serves_the_apps_wake_lock_script_where_the_plugin_loads_it() -> None:
    source = app_source()
    site, _ = built_site(source.app_dir, source.engine_dir, label=source.cache_label)
    shipped = WAKE_LOCK_PATH.lstrip("/")
    script = (source.app_dir / "web" / "wake_lock.js").read_text(encoding="utf-8")
    assert (site / shipped).read_text(encoding="utf-8") == script
    listed = re.search(r"const PRECACHE = (\[.*?\]);", (site / "sw.js").read_text(), re.S)
    assert listed, "no PRECACHE in sw.js"
    precache = json.loads(listed[1])
    assert shipped in {url for url, _ in precache}
