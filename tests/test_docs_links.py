"""The README and docs/ as a reader meets them: every link leads somewhere, every file they
name is there, the contents list every section, the quick start is two commands, and the
engine's examples in docs/ run as the README's do.

A link is checked as GitHub renders it: relative to the page, with ``#anchor`` matched
against the target page's headings turned into GitHub's slugs.
"""

from __future__ import annotations

import doctest
import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]

LINK = re.compile(r"!?\[(?:[^\]]|\][^(])*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6}) +(.+?) *$", re.MULTILINE)
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
# A path in the repository written as code: `engine/advice/win.py`, `tests/bench/bench_pwa.py`.
NAMED_PATH = re.compile(r"`((?:app|engine|tests|build|assets|docs)/(?:[\w./-]*\.(?:py|md|txt|js|json|png|toml)|[\w/-]*/))`")
MAP_ROW = re.compile(r"^\| `([\w/]+/)` \| (.*) \|$", re.MULTILINE)
MAP_NAME = re.compile(r"`([\w.]+/?)`")
GENERATED = ("build/out/", "build/cache/")


def prose(page: Path) -> str:
    """The page without its fenced code blocks, where a `#` starts a comment, not a heading."""
    return FENCE.sub("", page.read_text(encoding="utf-8"))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, code marks and punctuation dropped, spaces
    to hyphens."""
    text = heading.replace("`", "").strip().lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every anchor a page's headings give, a repeated heading numbered as GitHub numbers it."""
    seen: dict[str, int] = {}
    found = set()
    for _, heading in HEADING.findall(prose(page)):
        base = slug(heading)
        count = seen.get(base, 0)
        found.add(base if count == 0 else f"{base}-{count}")
        seen[base] = count + 1
    return found


def relative_links(page: Path) -> list[str]:
    return [target for target in LINK.findall(prose(page)) if not re.match(r"[a-z]+:", target)]


def section(page: Path, title: str) -> str:
    """The text under a ``## title`` heading, up to the next ``## ``."""
    text = page.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def test_the_docs_folder_holds_the_pages_the_readme_leads_to() -> None:
    assert {page.name for page in DOCS} >= {"measurements.md", "design.md", "threat-model.md"}


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_on_a_page_leads_to_a_file_and_heading_that_exist(page: Path) -> None:
    broken = []
    for target in relative_links(page):
        path_part, _, anchor = target.partition("#")
        goes_to = (page.parent / path_part).resolve() if path_part else page
        if not goes_to.exists():
            broken.append(f"{target}: no file {goes_to.relative_to(ROOT)}")
        elif anchor and goes_to.suffix == ".md" and anchor not in anchors(goes_to):
            broken.append(f"{target}: no heading with the anchor #{anchor} in {goes_to.relative_to(ROOT)}")
    assert broken == []


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_file_a_page_names_in_the_repository_exists(page: Path) -> None:
    named = set(NAMED_PATH.findall(page.read_text(encoding="utf-8")))
    missing = sorted(path for path in named if not path.startswith(GENERATED) and not (ROOT / path).exists())
    assert missing == []


def test_every_module_the_readme_map_names_is_in_the_folder_of_its_row() -> None:
    rows = MAP_ROW.findall(section(README, "Where things are in the code"))
    assert rows
    missing = [
        f"{folder}{name}"
        for folder, text in rows
        for name in MAP_NAME.findall(text)
        if not any((ROOT / folder / candidate).exists() for candidate in (name, f"{name}.py"))
    ]
    assert missing == []


def test_every_doc_is_linked_from_the_readme() -> None:
    linked = {(README.parent / target.partition("#")[0]).resolve() for target in relative_links(README)}
    assert [page.name for page in DOCS if page.resolve() not in linked] == []


def test_the_readme_contents_list_every_section_in_order() -> None:
    text = prose(README)
    contents = section(README, "Contents")
    listed = [target.lstrip("#") for target in LINK.findall(contents)]
    sections = [slug(heading) for level, heading in HEADING.findall(text) if level == "##" and heading != "Contents"]
    assert [anchor for anchor in listed if anchor in sections] == sections


def test_the_quick_start_is_two_commands_the_makefile_runs() -> None:
    block = re.search(r"```sh\n(.*?)```", section(README, "Quick start"), re.DOTALL)
    assert block is not None
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.split("#")[0].strip()]
    assert commands == ["make run", "make test"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^run:", makefile, re.MULTILINE) and re.search(r"^test:", makefile, re.MULTILINE)


@pytest.mark.parametrize("page", [page for page in DOCS if ">>> " in page.read_text(encoding="utf-8")], ids=lambda page: page.name)
def test_the_python_examples_in_docs_run_as_written(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False)
    assert (result.failed, result.attempted > 0) == (0, True)
