"""``python -m app``: serve Farkle Table on http://127.0.0.1:8550 (or open a desktop window)."""

from __future__ import annotations

import argparse
import os

import flet as ft

from app.storage import DATA_DIR_ENV, default_data_dir


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m app", description="Farkle Table scorekeeper")
    parser.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8550, help="port to serve on (default 8550)")
    parser.add_argument("--data-dir", help=f"where games are kept (default {default_data_dir()}; "
                                           f"or set {DATA_DIR_ENV})")
    parser.add_argument("--desktop", action="store_true", help="open a desktop window instead of serving")
    return parser.parse_args(argv)


def run(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.data_dir:
        os.environ[DATA_DIR_ENV] = os.path.abspath(args.data_dir)
    from app.main import main

    if args.desktop:
        ft.run(main)
        return
    print(f"Farkle Table: http://{args.host}:{args.port}  (games kept in {default_data_dir()})", flush=True)
    ft.run(main, view=None, host=args.host, port=args.port, no_cdn=True)


if __name__ == "__main__":
    run()
