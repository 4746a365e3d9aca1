"""``python -m app``: serve Farkle Table on http://127.0.0.1:8550 (or open a desktop window)."""

from __future__ import annotations

import argparse
import os
import sys

import flet as ft

from app.storage import DATA_DIR_ENV, DataFolderInUse, FolderClaim, StoreError, claim_folder, default_data_dir

EXIT_FOLDER_IN_USE = 2
"""Exit status when another process holds the data folder."""
EXIT_FOLDER_UNUSABLE = 1
"""Exit status when the data folder cannot be created or written."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m app", description="Farkle Table scorekeeper")
    parser.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8550, help="port to serve on (default 8550)")
    parser.add_argument("--data-dir", help=f"where games are kept (default {default_data_dir()}; "
                                           f"or set {DATA_DIR_ENV})")
    parser.add_argument("--desktop", action="store_true", help="open a desktop window instead of serving")
    parser.add_argument("--organizer-address", action="append", default=[], metavar="ADDRESS",
                        help="an address (or network) whose devices open the organizer screens without the "
                             "event's passphrase; repeatable (default loopback; or set FARKLE_ORGANIZER_ADDRESSES)")
    parser.add_argument("--allowed-origin", action="append", default=[], metavar="ORIGIN",
                        help="another origin (scheme://host[:port]) allowed to open the app, e.g. behind a "
                             "proxy; repeatable (or set FARKLE_ALLOWED_ORIGINS)")
    return parser.parse_args(argv)


def claim_data_folder() -> FolderClaim:
    """Hold the data folder for this process before serving anyone, so that a folder
    that cannot be used is said once, here, instead of failing every page.

    :raises SystemExit: with the reason printed (status 2: another copy holds it).
    """
    try:
        return claim_folder(default_data_dir())
    except StoreError as error:
        print(f"Farkle Table cannot start: {error}", file=sys.stderr, flush=True)
        raise SystemExit(EXIT_FOLDER_IN_USE if isinstance(error, DataFolderInUse) else EXIT_FOLDER_UNUSABLE) from None


def run(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.data_dir:
        os.environ[DATA_DIR_ENV] = os.path.abspath(args.data_dir)
    claim = claim_data_folder()  # held (and the app's stores share it) until the process ends
    try:
        serve(args)
    finally:
        claim.release()


def serve(args: argparse.Namespace) -> None:
    from app.main import main

    if args.desktop:
        ft.run(main)
        return
    from app.venue import addresses, client_address, server

    if args.organizer_address:
        os.environ[client_address.ORGANIZER_ADDRESSES_ENV] = ",".join(args.organizer_address)
    if args.allowed_origin:
        os.environ[server.ALLOWED_ORIGINS_ENV] = ",".join(args.allowed_origin)
    try:
        client_address.organizer_networks()
        origins = server.parse_origins()
    except ValueError as error:
        print(f"Farkle Table cannot start: {error}", file=sys.stderr, flush=True)
        raise SystemExit(1) from None
    print(f"Farkle Table: http://{args.host}:{args.port}  (games kept in {default_data_dir()})", flush=True)
    addresses.serve_on(args.host, args.port)
    for base in addresses.venue_link_bases():
        print(f"  phones on this network open {base}", flush=True)
    server.serve(main, args.host, args.port, no_cdn=True, allowed_origins=origins)


if __name__ == "__main__":
    run()
