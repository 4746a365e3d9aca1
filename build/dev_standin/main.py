"""Stand-in Flet app used by the PWA build's own tests.

It exercises what the real app needs from the static site: the vendored
packages (flet, tinydb, qrcode + pypng) import in Pyodide, and a counter
persists through ft.SharedPreferences (browser localStorage).
"""

import io

import flet as ft

KEY = "standin.throws"


def qr_png(text: str) -> bytes:
    import qrcode
    from qrcode.image.pure import PyPNGImage

    buf = io.BytesIO()
    qrcode.make(text, image_factory=PyPNGImage).save(buf)
    return buf.getvalue()


async def main(page: ft.Page) -> None:
    import tinydb  # noqa: F401  (vendored: must import in the browser)

    page.title = "Farkle Table stand-in"
    prefs = ft.SharedPreferences()
    stored = await prefs.get(KEY)
    count = int(stored) if stored else 0
    label = ft.Text(f"Throws: {count}")

    async def add_throw(e: ft.Event[ft.Button]) -> None:
        nonlocal count
        count += 1
        await prefs.set(KEY, str(count))
        label.value = f"Throws: {count}"

    page.add(
        ft.Text("Stand-in ready"),
        label,
        ft.Button("Add throw", on_click=add_throw),
        ft.Image(src=qr_png("FARKLE"), width=96, height=96),
    )


if __name__ == "__main__":
    ft.run(main)
