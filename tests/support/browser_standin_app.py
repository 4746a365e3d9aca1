"""A tiny stand-in for ``python -m app``, used to prove the browser helpers.

Same command line as the real app (``--port N --data-dir DIR``), served the
same way (local web mode, no CDN), and it keeps its counter in a
:class:`~app.storage.FileStore`, so a restart of the server can be tested.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import flet as ft

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.storage import FileStore, PrefsStore  # noqa: E402


def make_main(data_dir: Path):  # type: ignore[no-untyped-def]
    store = FileStore(data_dir)

    async def main(page: ft.Page) -> None:
        page.title = "Stand-in"
        saved = await store.load("settings", "counter")
        count = saved["count"] if saved else 0
        count_text = ft.Text(f"Count: {count}")
        greeting = ft.Text("")
        name = ft.TextField(label="Name", width=300)

        async def add_one(e: ft.Event[ft.Button]) -> None:
            nonlocal count
            count += 1
            await store.save("settings", "counter", {"count": count})
            count_text.value = f"Count: {count}"

        def greet(e: ft.Event[ft.Button]) -> None:
            greeting.value = f"Hello, {name.value}!"

        prefs = ft.SharedPreferences()
        browser_report = ft.Text("")

        async def save_in_browser(e: ft.Event[ft.Button]) -> None:
            """Checks PrefsStore against the real ft.SharedPreferences/localStorage."""
            store_in_browser = await PrefsStore.open(prefs, namespace="standin/")
            events = [{"type": "rolled", "dice": [1, 2, 3, 3, 3, 5]}, {"type": "banked"}] * 50
            await store_in_browser.save("games", "g1", {"players": ["Ann", "Bob"], "events": events})
            await store_in_browser.save("settings", "theme", {"mode": "dark"})
            reopened = await PrefsStore.open(prefs, namespace="standin/")
            game = await reopened.load("games", "g1")
            ids = await reopened.list_ids("games")
            ok = game is not None and game["events"] == events and ids == ["g1"]
            browser_report.value = f"Browser store {'ok' if ok else 'BROKEN'}: {(await reopened.usage()).bytes_used} bytes"

        page.add(
            count_text,
            ft.Button("Add one", on_click=add_one),
            name,
            ft.Button("Greet", on_click=greet),
            greeting,
            ft.Button("Save in browser", on_click=save_in_browser),
            browser_report,
        )

    return main


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=8550)
    parser.add_argument("--data-dir", type=Path, required=True)
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = parse_args(sys.argv[1:])
    ft.run(make_main(args.data_dir), view=None, host="127.0.0.1", port=args.port, no_cdn=True)
