"""``/organizer/<id>/players``: sign-up at the door, check-in, withdrawal and players who did not come.

Players sign up one by one (Enter signs the name up and the cursor stays in the field for
the next) or as a pasted list or CSV file: the preview says what will be added and what
is refused, and why, before one tap signs them all up. Check-in is a tap on the name, or
the number typed. Every message shows beside the form that caused it.

A player who made the last cut and withdraws leaves a place: the page asks whether the
next in line takes it (their die faces first, when several are tied) or it stays empty.
A player drawn who does not come is marked missing: their table plays as one fewer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import flet as ft
from flet.components.hooks.use_ref import MutableRef

from app.event.number_entry import ORGANIZER_DIGITS, parse_number
from app.event.organizer import ListChanged
from app.event.sign_up_file import read_list_file
from app.views.organizer.common import EventState, event_view, notice_at, text_field, use_event
from app.views.widgets import MIN_TARGET, TAP_HEIGHT, big_button, die_button, on, section
from app.i18n import ntr, tr, tr_words
from engine import FarkleError, Tournament
from engine.tournament.signups import SignUpPreview

__all__ = ["PlayersScreen", "PlayersPage", "players_count"]


def players_count(count: int) -> str:
    return ntr("{count} player", "{count} players", count, count=count)


@dataclass
class PlayersPage(EventState):
    """The players page: the name and number being signed up, the list pasted and its preview."""

    preview: SignUpPreview | None = None
    """What the pasted list comes to, as last previewed (dropped when the list is edited)."""

    async def sign_up(self) -> None:
        name = self.value("signup_name")
        number_text = self.value("signup_number").strip().lstrip("#")

        async def sign_up() -> int:
            number = parse_number(tr("A player number"), number_text, optional=True, minimum=1, digits=ORGANIZER_DIGITS)
            return await self.organizer.act(lambda t: t.sign_up(name, number))

        await self.do(sign_up, lambda n: tr("{name} signed up as number {n}.", name=self.name_of(n), n=n),
                      clear=("signup_name", "signup_number"), place="signup")

    def edit_list(self, text: str) -> None:
        self.set_field("signup_list", text)
        if self.preview is not None:
            self.preview = None
            self.changed()

    async def preview_list(self) -> None:
        async def preview() -> SignUpPreview:
            self.preview = await self.organizer.preview_sign_ups(self.value("signup_list"))
            return self.preview

        await self.do(preview, _preview_words, place="list")

    async def add_list(self) -> None:
        shown = self.preview
        if shown is None:
            return

        async def add() -> tuple[int, ...]:
            try:
                return await self.organizer.sign_up_list(self.value("signup_list"), shown)
            except ListChanged as changed:
                self.preview = changed.preview
                raise
            except Exception:  # noqa: BLE001 - any failure (shown by do()) leaves the preview behind: preview again
                self.preview = None
                raise

        def added(numbers: tuple[int, ...]) -> str:
            self.preview = None
            return ntr("{players} signed up, number {numbers}.", "{players} signed up, numbers {numbers}.",
                       len(numbers), players=players_count(len(numbers)), numbers=_numbers(numbers))

        await self.do(add, added, clear=("signup_list",), place="list")

    async def list_file_picked(self, event: ft.FilePickerResultEvent) -> None:
        """A CSV or text file picked: its text goes into the list, previewed at once."""
        files = event.files or []
        if not files:
            return  # cancelled
        picked = files[0]
        try:
            text = read_list_file(picked.bytes, picked.name)
        except FarkleError as error:  # the file's refusal (not text, too large, unreadable) beside the list
            self.refuse(tr_words(error.words), place="list")
            self.changed()
            return
        self.edit_list(text)
        await self.preview_list()

    async def check_in(self, number: int) -> None:
        await self.act(lambda t: t.check_in(number), lambda _: tr("{name} (number {number}) checked in.",
                                                                  name=self.name_of(number), number=number),
                       place="players")

    async def check_in_typed(self) -> None:
        await self.do(lambda: self.organizer.check_in_number(self.value("checkin_number")),
                      lambda n: tr("{name} (number {n}) checked in.",
                                   name=self.name_of(n), n=n), clear=("checkin_number",),
                      place="checkin")

    async def check_in_all(self) -> None:
        await self.do(self.organizer.check_in_all, lambda count: tr("{players} checked in.",
                                                                    players=players_count(count)),
                      place="checkin")

    asking: int | None = None
    """The player whose place after the cut the page asks about (withdrawing, or withdrawn)."""
    place_faces: dict[int, int] = field(default_factory=dict)
    """The die each player tied next in line threw for the place, by number."""

    async def withdraw(self, number: int) -> None:
        """Withdraw ``number``; one who holds a place after the last cut is asked about first."""
        if self.tournament.vacancy(number) is not None:
            self.asking = number
            self.changed()
            return
        await self.leave(number, False)

    async def leave(self, number: int, replace: bool) -> None:
        """Withdraw ``number`` (unless already withdrawn) and, with ``replace``, give the place to the next in line."""
        reason = self.value("withdraw_reason")
        faces = dict(self.place_faces)

        def step(t: Tournament) -> str:
            if not t.player(number).withdrawn:
                t.withdraw(number, reason)
            if not replace:
                return ""
            before = set(t.round_advancing() or ())
            t.take_place(number, faces or None)
            return t.player(min(set(t.round_advancing() or ()) - before)).name

        def report(taker: str) -> str:
            self.asking = None
            self.place_faces.clear()
            name = self.name_of(number)
            if taker:
                return tr("{taker} takes {name}'s place.", taker=taker, name=name)
            return tr("{name} (number {number}) withdrew.", name=name, number=number)

        await self.act(step, report, clear=("withdraw_reason",), place="players")

    def pick_face(self, number: int, face: int) -> None:
        self.place_faces[number] = face
        self.changed()

    def stop_asking(self) -> None:
        self.asking = None
        self.place_faces.clear()
        self.changed()

    async def mark_missing(self, number: int) -> None:
        """``number`` did not come to the table drawn for them: it plays without them."""
        reason = self.value("withdraw_reason")
        table = self.tournament.lookup(number)[0].table or 0
        await self.act(lambda t: t.mark_missing(number, reason),
                       lambda _: tr("Table {table} {words}.", table=table, words=self.tournament.short_table(table)),
                       clear=("withdraw_reason",), place="players")


def _may_be_missing(t: Tournament, number: int) -> bool:
    """Whether ``number`` sits at a table of the round being played that has no result yet (and seats 3 or more)."""
    if not t.round_open or t.player(number).withdrawn:
        return False
    found = t.lookup(number)[0]
    table = found.table
    return (found.round == t.round and table is not None and table not in t.results()
            and len(t.seating()[table - 1]) > 2)


def _preview_words(preview: SignUpPreview) -> str:
    added, refused = len(preview.added), len(preview.refused)
    if not added:
        return ntr("Nothing to add: the line is refused, as listed.",
                   "Nothing to add: all {count} lines are refused, as listed.", refused, count=refused)
    tail = ntr("; {count} line refused, as listed", "; {count} lines refused, as listed", refused,
               count=refused) if refused else ""
    return tr("Ready to add {players}{tail}. Nothing is signed up until you tap Add.",
              players=players_count(added), tail=tail)


def _numbers(numbers: tuple[int, ...]) -> str:
    """``1 to 40`` for a run, else each number."""
    if len(numbers) > 2 and list(numbers) == list(range(numbers[0], numbers[0] + len(numbers))):
        return tr("{first} to {last}", first=numbers[0], last=numbers[-1])
    return ", ".join(map(str, numbers))


def _refocus(action: Callable[[], Awaitable[None]]) -> Callable[[Any], Awaitable[None]]:
    """A field's Enter: ``action``, then the cursor back in that field for the next entry."""

    async def submitted(event: Any) -> None:
        await action()
        await event.control.focus()

    return submitted


def _then_focus(action: Callable[[], Awaitable[None]], field: MutableRef[ft.TextField]) -> Callable[[Any], Awaitable[None]]:
    """A button's tap: ``action``, then the cursor in ``field`` (the one the next entry is typed in)."""

    async def tapped(event: Any) -> None:
        await action()
        if field.current is not None:
            await field.current.focus()  # type: ignore[no-untyped-call]

    return tapped


def sign_up_section(players: PlayersPage, name_field: MutableRef[ft.TextField]) -> ft.Control:
    name = text_field(players, "signup_name", tr("Player name"), key="signup-name", expand=3,
                      on_submit=_refocus(players.sign_up))
    name_field.current = name
    return section(
        tr("Sign up"),
        ft.Row([
            name,
            text_field(players, "signup_number", tr("Number (optional)"), key="signup-number", expand=2,
                       on_submit=_then_focus(players.sign_up, name_field)),
        ]),
        big_button(tr("Sign up"), _then_focus(players.sign_up, name_field), key="sign-up", icon=ft.Icons.PERSON_ADD),
        *notice_at(players, "signup"),
    )


def list_section(players: PlayersPage, picker: ft.FilePicker) -> ft.Control:
    def changed(event: Any) -> None:
        players.edit_list(str(event.control.value or ""))

    controls: list[ft.Control] = [
        ft.Text(tr("Paste the names, one a line, or a CSV with a name and an optional number (a spreadsheet's "
                   "export works). The preview shows what will be added and what is refused before anything is "
                   "signed up.")),
        ft.Row([ft.TextField(label=tr("Names, one a line"), value=players.value("signup_list"), on_change=changed,
                             multiline=True, min_lines=3, max_lines=10, key="signup-list", expand=True,
                             hint_text=tr("Ann\nBob, 12\nCy Lee"))]),
        ft.Row([
            big_button(tr("Preview"), on(players.preview_list), key="preview-list", icon=ft.Icons.PREVIEW),
            ft.OutlinedButton(tr("Import a CSV file"), icon=ft.Icons.UPLOAD_FILE, key="import-list-file",
                              height=TAP_HEIGHT,
                              action=ft.PickFiles(picker, dialog_title=tr("A sign-up list (CSV or text)"),
                                                  file_type=ft.FilePickerFileType.CUSTOM,
                                                  allowed_extensions=["csv", "txt", "tsv"], with_data=True)),
        ], wrap=True),
        *notice_at(players, "list"),
    ]
    preview = players.preview
    if preview is not None:  # the button first, then what needs a look (the refusals), then who is added
        if preview.added:
            controls.append(big_button(tr("Add {players}", players=players_count(len(preview.added))),
                                       on(players.add_list),
                                       key="add-list", icon=ft.Icons.GROUP_ADD))
        controls += [ft.Text(tr_words(line.describe()), key=f"list-line-{line.line}", color=ft.Colors.ERROR)
                     for line in preview.refused]
        controls += [ft.Text(tr_words(line.describe()), key=f"list-line-{line.line}") for line in preview.added]
    return section(tr("Sign up a list"), *controls)


def place_section(players: PlayersPage, number: int) -> ft.Control:
    """The question a place after the cut asks: the next in line takes it, or it stays empty."""
    t = players.tournament
    place = t.vacancy(number)
    name = players.name_of(number)
    withdrawn = t.player(number).withdrawn
    if place is None:
        return ft.Text(tr("{name} holds no place after the cut any more.", name=name), key="place-question")
    controls: list[ft.Control] = [ft.Text(tr_words(place.describe()), key="place-question", weight=ft.FontWeight.BOLD)]
    for tied in place.next_in_line if place.tied else ():
        tied_name = players.name_of(tied)
        controls += [
            ft.Text(tr("{name} (number {number})", name=tied_name, number=tied)),
            ft.Row([die_button(face, tr("{name} threw {face}", name=tied_name, face=face),
                               on(players.pick_face, tied, face), key=f"place-roll-{tied}-{face}",
                               selected=players.place_faces.get(tied) == face, size=MIN_TARGET)
                    for face in range(1, 7)], spacing=6, wrap=True),
        ]
    buttons: list[ft.Control] = []
    if place.next_in_line:
        taker = tr("the roll-off's winner") if place.tied else place.names[0]
        label = (tr("{taker} takes {name}'s place", taker=taker, name=name) if withdrawn
                 else tr("Withdraw {name}; {taker} takes the place", name=name, taker=taker))
        buttons.append(big_button(label, on(players.leave, number, True), key="place-next-in-line",
                                  icon=ft.Icons.PERSON_ADD_ALT))
    if not withdrawn:
        buttons.append(big_button(tr("Withdraw {name}; leave the place empty", name=name),
                                  on(players.leave, number, False), filled=False, key="place-empty"))
    buttons.append(big_button(tr("Cancel"), on(players.stop_asking), filled=False, key="place-cancel"))
    return section(tr("{name}'s place after the cut", name=name), *controls, ft.Row(buttons, wrap=True))


def check_in_section(players: PlayersPage) -> ft.Control:
    return section(
        tr("Check in"),
        ft.Row([
            text_field(players, "checkin_number", tr("Check in number"), key="checkin-number", expand=True,
                       on_submit=_refocus(players.check_in_typed)),
            big_button(tr("Check in"), on(players.check_in_typed), key="check-in-number", filled=False,
                       icon=ft.Icons.HOW_TO_REG),
        ]),
        big_button(tr("Check everyone in"), on(players.check_in_all), key="check-in-all", filled=False,
                   icon=ft.Icons.DONE_ALL),
        *notice_at(players, "checkin"),
    )


@ft.component
def PlayersScreen(tournament_id: str) -> ft.View:
    players = use_event(PlayersPage, tournament_id, "players")
    name_field: MutableRef[ft.TextField] = ft.use_ref(None)
    picker_ref: MutableRef[ft.FilePicker] = ft.use_ref(None)
    if picker_ref.current is None:  # held by the ref: the page drops a service nothing holds
        picker_ref.current = ft.FilePicker(on_result=players.list_file_picked)  # the page's state lives as long
    if not players.ready:
        return event_view(players, [])
    t = players.tournament
    controls: list[ft.Control] = []
    if not t.round:
        controls += [sign_up_section(players, name_field), list_section(players, picker_ref.current),
                     check_in_section(players)]
    controls.append(text_field(players, "withdraw_reason", tr("Reason for a withdrawal (optional)"),
                               key="withdraw-reason"))
    active = [p for p in t.players if not p.withdrawn]
    rows: list[ft.Control] = [
        ft.Text(tr("{players} · {checked_in} checked in", players=players_count(len(active)),
                   checked_in=sum(p.checked_in for p in active)), key="players-count"),
        *notice_at(players, "players"),
    ]
    if not t.round and any(not p.checked_in for p in active):
        rows.append(ft.Text(tr("Tap a name to check that player in."), size=13))
    for player in t.players:
        if player.withdrawn:
            status = tr("withdrawn ({reason})", reason=player.reason) if player.reason else tr("withdrawn")
        else:
            status = tr("checked in") if player.checked_in else tr("not checked in")
        line = ft.Text(f"{player.number}. {player.name} · {status}", key=f"player-{player.number}")
        can_check_in = not t.round and not player.withdrawn and not player.checked_in
        entry: ft.Control = (
            ft.TextButton(content=line, on_click=on(players.check_in, player.number), key=f"check-in-{player.number}",
                          tooltip=tr("Check in {name} (number {number})",
                                     name=player.name, number=player.number), height=TAP_HEIGHT)
            if can_check_in else line
        )
        buttons: list[ft.Control] = []
        if not player.withdrawn and t.champion is None:
            buttons.append(ft.TextButton(tr("Withdraw"), on_click=on(players.withdraw, player.number),
                                         key=f"withdraw-{player.number}", tooltip=tr("Withdraw {name}",
                                                                                     name=player.name),
                                         height=TAP_HEIGHT))
        if _may_be_missing(t, player.number):
            buttons.append(ft.TextButton(tr("Did not come"), on_click=on(players.mark_missing, player.number),
                                         key=f"missing-{player.number}",
                                         tooltip=tr("{name} did not come to the table", name=player.name),
                                         height=TAP_HEIGHT))
        place = t.vacancy(player.number) if player.withdrawn else None
        if place is not None and place.next_in_line:
            buttons.append(ft.TextButton(tr("Next in line"), on_click=on(players.withdraw, player.number),
                                         key=f"place-{player.number}",
                                         tooltip=tr("Give {name}'s place to the next in line", name=player.name),
                                         height=TAP_HEIGHT))
        rows.append(ft.Row([ft.Container(entry, expand=True), *buttons]))
        if players.asking == player.number:  # asked right under the row tapped, where the eye is
            rows.append(place_section(players, player.number))
    controls.append(section(tr("Players"), *rows))
    return event_view(players, controls)
