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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.storage import FileStore  # noqa: E402


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

        page.add(
            count_text,
            ft.Button("Add one", on_click=add_one),
            name,
            ft.Button("Greet", on_click=greet),
            greeting,
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
