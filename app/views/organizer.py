"""The organizer's screens: the event, players, seating, results inbox, standings, final.

Routes (``<id>``: the stored tournament)::

    /organizer                   events on this device, and a new one (with its format)
    /organizer/<id>              the event: format (editable until round 1 is drawn) and plan,
                                 the address for result links
    /organizer/<id>/players      sign-up, check-in, withdrawal
    /organizer/<id>/seating      the draw and the table cards with their setup codes
    /organizer/<id>/print        the table cards alone, plainly, for printing
    /organizer/<id>/results      import results (or type a table's paper totals), what arrived,
                                 is missing, held or refused; roll-offs, closing the round
    /organizer/<id>/standings    per-round totals, cuts, corrections, CSV export
    /organizer/<id>/lookup       the room's quick lookup: table, seat, standing
    /organizer/<id>/final        the final's rules switch, the champion, the prize
    /import/<code>               a result's deep link (a phone's camera app opens it)

Every action goes through :class:`app.organizer.Organizer` (saved before shown); a
refusal is shown in the engine's words and changes nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

import flet as ft

from app.organizer import (
    TABLE_SIZES,
    FormatDraft,
    Organizer,
    describe_error,
    parse_whole,
)
from app.qr import qr_image
from app.views.scanner import CameraScanner
from app.views.widgets import (
    big_button,
    die_button,
    icon_button,
    labelled_dropdown,
    notice_banner,
    on,
    on_value,
    section,
)
from engine import (
    CodeDamaged,
    FarkleError,
    InvalidInput,
    TableResult,
    Tournament,
    typing_form,
)
from engine.rules import PRESET_NAMES

if TYPE_CHECKING:
    from app.main import FarkleApp

__all__ = ["OrganizerScreens"]

Screen = tuple[str, list[ft.Control], list[ft.Control]]
NEW_EVENT = "new"
"""The draft format of the event being created (other drafts are keyed by tournament id)."""
_CUTS = (
    ("overall", "Best N totals over all tables"),
    ("per_table", "Best k of each table"),
    ("winners", "Each table's winner"),
)

_PAGES = (
    ("players", "Players", ft.Icons.PEOPLE),
    ("seating", "Seating", ft.Icons.TABLE_RESTAURANT),
    ("results", "Results", ft.Icons.INBOX),
    ("standings", "Standings", ft.Icons.LEADERBOARD),
    ("lookup", "Find a player", ft.Icons.SEARCH),
    ("final", "Final & prize", ft.Icons.EMOJI_EVENTS),
)


class OrganizerScreens:
    """The organizer's screens and what is being typed into them."""

    def __init__(self, app: FarkleApp) -> None:
        self.app = app
        self.organizer = Organizer(app.keeper.store)
        self.fields: dict[str, str] = {}
        self.notice: tuple[str, list[str], bool] | None = None  # (route, lines, is_error)
        self.roll_off_faces: dict[tuple[int, int], int] = {}
        self.shown_csv: str | None = None
        self.links_done: dict[str, str] = {}
        self.lookup_field: ft.TextField | None = None
        self.drafts: dict[str, FormatDraft] = {}
        self.plan_column: ft.Column | None = None
        self.paper_table: int | None = None
        self.scanner = CameraScanner(app, "result code", lambda text: "FR1" in text.upper(), self.scanned,
                                     "result-scan")

    # -- plumbing ------------------------------------------------------------------------

    @property
    def tournament(self) -> Tournament:
        return self.organizer.open_tournament

    @property
    def route(self) -> str:
        return (self.app.page.route or "/").rstrip("/") or "/"

    def tell(self, lines: list[str] | str, error: bool = False) -> None:
        self.notice = (self.route, [lines] if isinstance(lines, str) else lines, error)

    async def set_field(self, name: str, value: Any) -> None:
        self.fields[name] = "" if value is None else str(value)

    def field(self, name: str, label: str, *, key: str | None = None, width: float | None = None,
              multiline: bool = False, hint: str | None = None, on_submit: Any = None,
              expand: bool | int | None = None) -> ft.TextField:
        return ft.TextField(
            label=label,
            value=self.fields.get(name, ""),
            on_change=on_value(self.set_field, name),
            on_submit=on_submit,
            key=key or name,
            width=width,
            multiline=multiline,
            min_lines=2 if multiline else None,
            max_lines=4 if multiline else None,
            hint_text=hint,
            expand=expand,
        )

    async def do(self, action: Callable[[], Awaitable[Any]], success: Callable[[Any], str | list[str]] | None = None,
                 clear: tuple[str, ...] = ()) -> bool:
        """Run an organizer action: the refusal (or the store's failure) is shown and nothing changes."""
        try:
            value = await action()
        except Exception as error:  # noqa: BLE001 - every failure is shown (engine or store), none crashes
            self.tell(describe_error(error), error=True)
            await self.app.render()
            return False
        for name in clear:
            self.fields.pop(name, None)
        if success is not None:
            self.tell(success(value))
        await self.app.render()
        return True

    def base(self) -> str:
        return f"/organizer/{self.organizer.tournament_id}"

    def default_link_base(self) -> str:
        url = getattr(self.app.page, "url", None) or ""
        parts = urlsplit(str(url))
        return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""

    def name_of(self, number: int) -> str:
        return self.tournament.player(number).name

    def summary(self, result: TableResult) -> str:
        order = sorted(zip(result.places, result.numbers, result.totals))
        return ", ".join(f"{place}. {self.name_of(n)} {total:,}" for place, n, total in order)

    # -- routing -------------------------------------------------------------------------

    async def screen(self, parts: list[str]) -> Screen:
        """The screen for ``/organizer/...`` or ``/import/...`` (parts of the route)."""
        if parts[0].lower() == "import":
            return await self.import_link("/".join(parts[1:]))
        if len(parts) == 1:
            return "Organize a tournament", await self.events_screen(), []
        tournament = await self.organizer.open(parts[1])
        if tournament is None:
            return "Not found", [ft.Text(f"There is no readable tournament {parts[1]!r} on this device.")], []
        page = parts[2] if len(parts) > 2 else ""
        builders: dict[str, Callable[[], list[ft.Control]]] = {
            "": self.event_screen,
            "players": self.players_screen,
            "seating": self.seating_screen,
            "print": self.print_screen,
            "results": self.results_screen,
            "standings": self.standings_screen,
            "lookup": self.lookup_screen,
            "final": self.final_screen,
        }
        builder = builders.get(page)
        if builder is None:
            return "Not found", [ft.Text(f"The organizer has no page {page!r}.")], []
        title = tournament.name + ("" if not page else f" · {dict((p, t) for p, t, _ in _PAGES).get(page, 'Cards')}")
        controls = builder()
        if page != "print":
            controls = self.nav(page) + self.notices() + controls
        return title, controls, self.actions(page)

    def actions(self, page: str) -> list[ft.Control]:
        out: list[ft.Control] = [
            _icon_button(ft.Icons.UNDO, "Undo the last organizer action", on(self.undo), "organizer-undo"),
        ]
        if page:
            out.insert(0, _icon_button(ft.Icons.ARROW_BACK, "Back to the event", on(self.app.navigate, self.base()),
                                       "organizer-back"))
        return out

    def nav(self, current: str) -> list[ft.Control]:
        buttons: list[ft.Control] = [
            (ft.FilledTonalButton if page == current else ft.OutlinedButton)(
                title, icon=icon, on_click=on(self.app.navigate, f"{self.base()}/{page}"), key=f"nav-{page}")
            for page, title, icon in _PAGES
        ]
        return [ft.Row(buttons, wrap=True, spacing=6, run_spacing=6)]

    def notices(self) -> list[ft.Control]:
        if self.notice is None or self.notice[0] != self.route:
            return []
        _, lines, error = self.notice
        return [notice_banner(lines, error=error, key="organizer-notice")]

    async def undo(self) -> None:
        await self.do(self.organizer.undo, lambda _: "The last organizer action was taken back.")

    # -- the list of events, and a new one -----------------------------------------------

    async def events_screen(self) -> list[ft.Control]:
        summaries = await self.organizer.summaries()
        tiles: list[ft.Control] = [
            ft.ListTile(title=ft.Text(summary.line), leading=ft.Icon(ft.Icons.EMOJI_EVENTS),
                        on_click=on(self.app.navigate, f"/organizer/{summary.id}"), key=f"event-{summary.id}")
            for summary in summaries
        ]
        return [
            *self.notices(),
            section(
                "New tournament",
                self.field("event_name", "Tournament name", key="event-name"),
                self.field("event_code", "Event code (optional)", key="event-code", hint="FT-…"),
                *self.format_editor(NEW_EVENT, None, cap_key="event-cap"),
                big_button("Create the tournament", on(self.create), key="create-event", icon=ft.Icons.ADD),
            ),
            section("Tournaments on this device", *(tiles or [ft.Text("None yet.")])),
        ]

    async def create(self) -> None:
        async def create() -> str:
            fmt = self.draft(NEW_EVENT).build()
            return await self.organizer.create(
                self.fields.get("event_name", ""), None, self.fields.get("event_code", "").strip() or None,
                self.default_link_base(), format=fmt,
            )

        if await self.do(create, lambda _: "Tournament created: sign the players up.",
                         clear=("event_name", "event_code")):
            self.drafts.pop(NEW_EVENT, None)
            self.notice = (f"{self.base()}/players", self.notice[1] if self.notice else [], False)
            await self.app.navigate(f"{self.base()}/players")

    # -- the format editor ---------------------------------------------------------------

    def draft(self, key: str) -> FormatDraft:
        """The format being edited for a new event (``NEW_EVENT``) or for an event not yet drawn."""
        if key not in self.drafts:
            self.drafts[key] = (FormatDraft.house() if key == NEW_EVENT
                                else FormatDraft.of(self.tournament.format))
        return self.drafts[key]

    def format_editor(self, key: str, players: int | None, *, cap_key: str = "fmt-cap") -> list[ft.Control]:
        """Cap and rounds of a format, with its plan shown live (``players``: signed up now)."""
        draft = self.draft(key)
        last = len(draft.rounds) - 1
        rows: list[ft.Control] = [
            ft.Text("The format starts as the house tournament. Tables seat the size chosen or one less, as "
                    "even as possible; a cut of best N totals keeps the same share of a smaller field. The "
                    "plan below follows every change."),
            ft.TextField(label="Player cap", value=draft.cap, key=cap_key, width=200,
                         on_change=self.format_text(key, lambda d, v: setattr(d, "cap", v))),
        ]
        for index, round_ in enumerate(draft.rounds):
            name = "Final" if index == last else f"Round {index + 1}"
            controls: list[ft.Control] = [
                labelled_dropdown(f"{name} rules", round_.rules, [(p, p.capitalize()) for p in PRESET_NAMES],
                                  self.format_choice(key, partial(_set_rules, index)),
                                  key=f"fmt-rules-{index}", width=170),
                labelled_dropdown(f"{name} tables of", str(round_.table_size),
                                  [(str(size), f"{size} players") for size in TABLE_SIZES],
                                  self.format_choice(key, partial(_set_size, index)),
                                  key=f"fmt-size-{index}", width=150),
            ]
            if index == last:
                controls.append(labelled_dropdown(
                    "The final may switch to", round_.switch_to or "none",
                    [("none", "No switch"), *((p, p.capitalize()) for p in PRESET_NAMES if p != round_.rules)],
                    self.format_choice(key, lambda d, v: setattr(d.rounds[-1], "switch_to",
                                                                 "" if v == "none" else v)),
                    key="fmt-switch", width=220))
            else:
                controls.append(labelled_dropdown(
                    f"{name} cut", round_.cut, list(_CUTS),
                    self.format_choice(key, partial(_set_cut, index)), key=f"fmt-cut-{index}",
                    width=260))
                if round_.cut != "winners":
                    label = (f"{name}: how many totals go on" if round_.cut == "overall"
                             else f"{name}: places per table going on")
                    controls.append(ft.TextField(
                        label=label, value=round_.count, key=f"fmt-count-{index}", width=230,
                        on_change=self.format_text(key, partial(_set_count, index))))
                controls.append(icon_button(ft.Icons.DELETE_OUTLINE, f"Remove {name.lower()}",
                                            self.format_choice(key, partial(_remove_round, index)),
                                            key=f"fmt-remove-{index}"))
            rows.append(ft.Text(name, weight=ft.FontWeight.BOLD))
            rows.append(ft.Row(controls, wrap=True, spacing=8, run_spacing=8))
        rows.append(ft.Row([
            big_button("Add a round before the final", self.format_choice(key, lambda d, v: d.add_round()),
                       filled=False, key="fmt-add-round", icon=ft.Icons.ADD),
            big_button("Start again from the house tournament",
                       self.format_choice(key, lambda d, v: self.drafts.__setitem__(key, FormatDraft.house())),
                       filled=False, key="fmt-house"),
        ], wrap=True))
        self.plan_column = ft.Column(self.format_plan(key, players), spacing=4, key="fmt-plan")
        rows.append(self.plan_column)
        return [section("Format", *rows)]

    def format_plan(self, key: str, players: int | None) -> list[ft.Control]:
        """The rounds the draft gives at the cap and for the players signed up now, or the engine's refusal."""
        try:
            fmt = self.draft(key).build()
            if key != NEW_EVENT:  # the engine's own check of the change, on a copy of the event
                Tournament.from_events(self.tournament.events).change_format(fmt)
        except FarkleError as why:
            return [ft.Text(f"Not possible: {why}", color=ft.Colors.ERROR, key="fmt-error")]
        lines: list[ft.Control] = [ft.Text(f"{fmt.name}, at the cap of {fmt.cap} players:", weight=ft.FontWeight.BOLD)]
        lines += [ft.Text(p.describe(), key=f"fmt-plan-cap-{p.number}") for p in fmt.plan(fmt.cap)]
        if players is not None and 2 <= players and players != fmt.cap:
            lines.append(ft.Text(f"For the {players} players signed up now:", weight=ft.FontWeight.BOLD))
            lines += [ft.Text(p.describe(), key=f"fmt-plan-now-{p.number}") for p in fmt.plan(players)]
        return lines

    def format_text(self, key: str, apply: Callable[[FormatDraft, str], None]) -> Callable[[Any], Awaitable[None]]:
        """A typed change: the draft takes it and the plan is redrawn in place (the field keeps its cursor)."""

        async def handler(event: Any) -> None:
            apply(self.draft(key), str(event.control.value or ""))
            if self.plan_column is not None:
                self.plan_column.controls = self.format_plan(key, self.signed_up() if key != NEW_EVENT else None)
                self.plan_column.update()

        return handler

    def format_choice(self, key: str, apply: Callable[[FormatDraft, str], None]) -> Callable[[Any], Awaitable[None]]:
        """A chosen option or a tapped button: the draft takes it and the screen is drawn again."""

        async def handler(event: Any) -> None:
            try:
                apply(self.draft(key), str(getattr(event.control, "value", "") or ""))
            except FarkleError as why:
                self.tell(str(why), error=True)
            await self.app.render()

        return handler

    def signed_up(self) -> int:
        return sum(not p.withdrawn for p in self.tournament.players)

    async def save_format(self) -> None:
        key = self.organizer.tournament_id or ""

        def report(changed: Any) -> str:
            self.drafts.pop(key, None)
            return f"Format saved: {self.tournament.format.name}." if changed else "The format is unchanged."

        await self.do(lambda: self.organizer.change_format(self.draft(key)), report)

    async def revert_format(self) -> None:
        self.drafts.pop(self.organizer.tournament_id or "", None)
        self.tell("Edits dropped: the event's format is shown again.")
        await self.app.render()

    # -- the event -----------------------------------------------------------------------

    def event_screen(self) -> list[ft.Control]:
        t = self.tournament
        plan = [ft.Text(p.describe(), key=f"plan-{p.number}") for p in t.plan()]
        if not plan:
            plan = [ft.Text("Check players in to see the rounds: a round needs at least 2 players.")]
        state = self.state_line()
        self.fields.setdefault("link_base", self.organizer.link_base)
        editor: list[ft.Control] = []
        if not t.round and self.organizer.tournament_id:
            editor = [
                *self.format_editor(self.organizer.tournament_id, self.signed_up()),
                ft.Row([
                    big_button("Save the format", on(self.save_format), key="fmt-save", icon=ft.Icons.SAVE),
                    big_button("Drop the edits", on(self.revert_format), filled=False, key="fmt-revert"),
                ], wrap=True),
            ]
        return [
            ft.Text(f"Event code {t.event_id} · {t.format.name} · at most {t.format.cap} players",
                    key="event-line"),
            ft.Text(state, size=16, weight=ft.FontWeight.BOLD, key="event-state"),
            section("The rounds", *plan),
            *editor,
            section(
                "Result links",
                ft.Text("Result QR codes carry a link to this app, so a phone's camera app can open it here. "
                        "Give the address phones reach this device on (e.g. http://192.168.1.20:8550); "
                        "leave it empty for plain codes. It goes into the setup codes drawn from now on."),
                self.field("link_base", "Address for result links", key="link-base"),
                big_button("Save the address", on(self.save_link_base), filled=False, key="save-link-base"),
            ),
        ]

    def state_line(self) -> str:
        t = self.tournament
        if t.champion is not None:
            return f"Champion: {self.name_of(t.champion)} (number {t.champion})."
        if t.round_open:
            missing = t.missing_tables()
            waiting = f"waiting for table{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))}" \
                if missing else "every table has a result"
            return f"{t.plan()[t.round - 1].name} is being played: {waiting}."
        if t.round:
            return f"Round {t.round} is closed: draw the next round."
        active = [p for p in t.players if not p.withdrawn]
        checked = sum(p.checked_in for p in active)
        return f"Sign-up: {len(active)} signed up, {checked} checked in."

    async def save_link_base(self) -> None:
        await self.do(lambda: self.organizer.set_link_base(self.fields.get("link_base", "")),
                      lambda _: "Saved: new setup codes carry this address." if self.organizer.link_base
                      else "Saved: result codes will be plain codes, without a link.")

    # -- players -------------------------------------------------------------------------

    def players_screen(self) -> list[ft.Control]:
        t = self.tournament
        controls: list[ft.Control] = []
        if not t.round:
            controls.append(section(
                "Sign up",
                ft.Row([
                    self.field("signup_name", "Player name", key="signup-name", expand=3,
                               on_submit=on(self.sign_up)),
                    self.field("signup_number", "Number (optional)", key="signup-number", expand=2,
                               on_submit=on(self.sign_up)),
                ]),
                ft.Row([
                    big_button("Sign up", on(self.sign_up), key="sign-up", icon=ft.Icons.PERSON_ADD, expand=True),
                    big_button("Check everyone in", on(self.check_in_all), key="check-in-all", filled=False,
                               expand=True),
                ]),
            ))
        controls.append(self.field("withdraw_reason", "Reason for a withdrawal (optional)", key="withdraw-reason"))
        active = [p for p in t.players if not p.withdrawn]
        rows: list[ft.Control] = [ft.Text(f"{len(active)} players · {sum(p.checked_in for p in active)} checked in",
                                          key="players-count")]
        for player in t.players:
            if player.withdrawn:
                status = "withdrawn" + (f" ({player.reason})" if player.reason else "")
            else:
                status = "checked in" if player.checked_in else "not checked in"
            buttons: list[ft.Control] = []
            if not t.round and not player.withdrawn and not player.checked_in:
                buttons.append(ft.TextButton("Check in", on_click=on(self.check_in, player.number),
                                             key=f"check-in-{player.number}",
                                             tooltip=f"Check in {player.name}"))
            if not player.withdrawn and t.champion is None:
                buttons.append(ft.TextButton("Withdraw", on_click=on(self.withdraw, player.number),
                                             key=f"withdraw-{player.number}", tooltip=f"Withdraw {player.name}"))
            rows.append(ft.Row(
                [ft.Text(f"{player.number}. {player.name} · {status}", expand=True, key=f"player-{player.number}"),
                 *buttons],
            ))
        controls.append(section("Players", *rows))
        return controls

    async def sign_up(self) -> None:
        name = self.fields.get("signup_name", "")
        number_text = self.fields.get("signup_number", "").strip().lstrip("#")

        async def sign_up() -> int:
            number = parse_whole(number_text, "A player number", minimum=1) if number_text else None
            return await self.organizer.act(lambda t: t.sign_up(name, number))

        await self.do(sign_up, lambda n: f"{self.name_of(n)} signed up as number {n}.",
                      clear=("signup_name", "signup_number"))

    async def check_in(self, number: int) -> None:
        await self.do(lambda: self.organizer.act(lambda t: t.check_in(number)),
                      lambda _: f"{self.name_of(number)} (number {number}) checked in.")

    async def check_in_all(self) -> None:
        def check_all(t: Tournament) -> int:
            waiting = [p.number for p in t.players if not p.withdrawn and not p.checked_in]
            if not waiting:
                raise InvalidInput("Everyone signed up is already checked in.")
            for number in waiting:
                t.check_in(number)
            return len(waiting)

        await self.do(lambda: self.organizer.act(check_all), lambda count: f"{count} players checked in.")

    async def withdraw(self, number: int) -> None:
        reason = self.fields.get("withdraw_reason", "")
        await self.do(lambda: self.organizer.act(lambda t: t.withdraw(number, reason)),
                      lambda _: f"{self.name_of(number)} (number {number}) withdrew.", clear=("withdraw_reason",))

    # -- seating -------------------------------------------------------------------------

    def seating_screen(self) -> list[ft.Control]:
        t = self.tournament
        controls: list[ft.Control] = []
        if not t.round_open and t.champion is None:
            try:
                upcoming = t.next_round()
                controls.append(section(
                    f"Draw {upcoming.name.lower()}",
                    ft.Text(upcoming.describe(), key="next-round"),
                    ft.Text("The draw is random; its seed is recorded so anyone can re-run it."),
                    self.field("draw_seed", "Draw seed (optional)", key="draw-seed"),
                    big_button(f"Draw the seats for {upcoming.name.lower()}", on(self.draw), key="draw-seats",
                               icon=ft.Icons.SHUFFLE),
                ))
            except FarkleError as why:
                controls.append(ft.Text(str(why), key="cannot-draw"))
        if not t.round:
            return controls
        plan = t.plan()[t.round - 1]
        seed, clashes = t.draw_info()
        head: list[ft.Control] = [
            ft.Text(plan.describe(), key="round-plan"),
            ft.Text(f"Draw seed {seed} · {clashes} pair{'s' if clashes != 1 else ''} seated together again",
                    key="draw-info"),
            ft.Row([
                big_button("Re-run the draw from its seed", on(self.rerun), filled=False, key="rerun-draw"),
                big_button("Printable cards", on(self.app.navigate, f"{self.base()}/print"), filled=False,
                           key="print-cards", icon=ft.Icons.PRINT),
            ], wrap=True),
        ]
        if t.round_open and not t.results() and not t.held_results():
            head.append(big_button("Cancel this draw", on(self.cancel_draw), filled=False, key="cancel-draw"))
        controls.append(section(f"{plan.name}: table cards", *head))
        controls += self.table_cards(plain=False)
        return controls

    def table_cards(self, plain: bool) -> list[ft.Control]:
        t = self.tournament
        round_number = t.round
        cards: list[ft.Control] = []
        rules = t.rules_for(round_number).describe()
        for table, numbers in enumerate(t.seating(), 1):
            lines: list[ft.Control] = [
                ft.Text(f"Table {table} · {t.plan()[round_number - 1].name}", size=20, weight=ft.FontWeight.BOLD,
                        color=ft.Colors.BLACK if plain else None),
                *(ft.Text(f"Seat {seat}: {self.name_of(n)} (number {n})", color=ft.Colors.BLACK if plain else None)
                  for seat, n in enumerate(numbers, 1)),
                ft.Text(rules, size=12, color=ft.Colors.BLACK if plain else None),
            ]
            if t.round_open:
                code = t.setup_code(table, self.organizer.link_base)
                image = qr_image(code, box_size=4)
                lines += [
                    ft.Container(
                        ft.Image(src=image.png, width=220, height=220, fit=ft.BoxFit.CONTAIN,
                                 semantics_label=f"Setup QR code for table {table}", key=f"setup-qr-{table}"),
                        bgcolor=ft.Colors.WHITE, padding=6,
                    ),
                    ft.Text(f"Setup code (QR version {image.version}):", size=12,
                            color=ft.Colors.BLACK if plain else None),
                    ft.Text(typing_form(code), font_family="monospace", size=13, key=f"setup-code-{table}",
                            color=ft.Colors.BLACK if plain else None),
                ]
            cards.append(ft.Container(
                ft.Column(lines, spacing=4),
                key=f"table-card-{table}",
                padding=10,
                border=ft.Border.all(1, ft.Colors.BLACK if plain else ft.Colors.OUTLINE),
                border_radius=0 if plain else 8,
                bgcolor=ft.Colors.WHITE if plain else None,
            ))
        return cards

    def print_screen(self) -> list[ft.Control]:
        t = self.tournament
        if not t.round:
            return [ft.Text("No round has been drawn yet: there are no cards to print.")]
        return [
            ft.Text(f"{t.name} · {t.event_id} · use the browser's Print (Ctrl+P) for paper cards.", size=12),
            *self.table_cards(plain=True),
        ]

    async def draw(self) -> None:
        seed_text = self.fields.get("draw_seed", "").strip()

        async def draw() -> Any:
            seed = parse_whole(seed_text, "A draw seed") if seed_text else None
            return await self.organizer.act(lambda t: t.draw_seats(seed))

        await self.do(draw, lambda tables: f"Seats drawn: {len(tables)} table{'s' if len(tables) > 1 else ''} (seed {self.tournament.draw_info()[0]}).",
                      clear=("draw_seed",))

    async def rerun(self) -> None:
        t = self.tournament
        again = t.rerun_draw(t.round)
        seed = t.draw_info()[0]
        if again == t.seating():
            self.tell(f"Re-run from seed {seed}: the same seating, table for table.")
        else:
            self.tell(f"Re-run from seed {seed} gives another seating: the recorded draw was changed.", error=True)
        await self.app.render()

    async def cancel_draw(self) -> None:
        await self.do(lambda: self.organizer.act(lambda t: t.cancel_draw()),
                      lambda _: "The draw was cancelled: withdraw players or draw again.")

    # -- results inbox -------------------------------------------------------------------

    def results_screen(self) -> list[ft.Control]:
        t = self.tournament
        controls: list[ft.Control] = [
            section(
                "Import a table's result",
                self.field("result_code", "Result code or link", key="result-code", multiline=True,
                           hint="FR1-…", on_submit=on(self.import_typed)),
                big_button("Import the result", on(self.import_typed), key="import-result",
                           icon=ft.Icons.DOWNLOAD),
                *self.scanner.controls(),
            )
        ]
        if not t.round:
            controls.append(ft.Text("No round has been drawn yet."))
            return controls + self.refused_section()
        plan = t.plan()[t.round - 1]
        results = t.results()
        arrived = [
            ft.Text(f"Table {table}: {self.summary(result)}{self.source_note(table)}", key=f"arrived-{table}")
            for table, result in results.items()
        ]
        missing = t.missing_tables()
        controls.append(section(
            f"{plan.name}: {len(results)} of {len(t.seating())} tables in",
            *(arrived or [ft.Text("No result yet.")]),
            ft.Text(
                (f"Missing: table{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))}" if missing
                 else "Every table has a result.") if t.round_open else "This round is closed.",
                key="missing-tables", weight=ft.FontWeight.BOLD,
            ),
        ))
        controls += self.paper_section()
        controls += self.held_section()
        controls += self.roll_off_section()
        if t.round_open:
            closing = "Crown the champion" if plan.is_final else f"Close {plan.name.lower()} and apply the cut"
            controls.append(big_button(closing, on(self.close_round), key="close-round", icon=ft.Icons.DONE_ALL))
        if results:
            controls.append(section(
                "Corrections",
                ft.Text("Void a counted result, or replace it with the result code typed above. The reason is "
                        "kept, and what depended on it is flagged, never silently rewritten."),
                self.field("void_reason", "Reason for the correction", key="void-reason"),
                ft.Row([
                    ft.OutlinedButton(f"Void table {table}", on_click=on(self.void, table), key=f"void-{table}")
                    for table in results
                ], wrap=True),
                ft.Row([
                    ft.OutlinedButton(f"Replace table {table} with the typed code", on_click=on(self.replace, table),
                                      key=f"replace-{table}")
                    for table in results
                ], wrap=True),
            ))
        return controls + self.refused_section()

    def source_note(self, table: int) -> str:
        t = self.tournament
        source, reason = t.result_source(t.round, table)
        if source == "code":
            return ""
        return " · entered by hand" + (f" ({reason})" if reason else "")

    def paper_section(self) -> list[ft.Control]:
        """A missing table's final totals typed from its paper sheet (or a lost device's last screen)."""
        t = self.tournament
        missing = t.missing_tables()
        if not missing:
            return []
        if self.paper_table not in missing:
            self.paper_table = missing[0]
        table = self.paper_table
        numbers = t.seating()[table - 1]
        return [section(
            "Enter a table's result by hand",
            ft.Text("When a table's device is lost or the table kept score on paper: type its final totals, one "
                    "per seat in seat order. They are checked as a result code is, and kept as entered by hand "
                    "with your reason."),
            labelled_dropdown("Table", str(table), [(str(m), f"Table {m}") for m in missing], self.choose_paper_table,
                              key="paper-table", width=200),
            *(self.field(f"paper_{t.round}_{table}_{seat}",
                         f"Seat {seat}: {self.name_of(n)} (number {n}), final total", key=f"paper-total-{seat}")
              for seat, n in enumerate(numbers, 1)),
            self.field("paper_reason", "Why by hand (device lost, paper score sheet…)", key="paper-reason"),
            big_button(f"Record table {table}'s result by hand", on(self.record_paper), key="record-paper",
                       icon=ft.Icons.EDIT_NOTE),
        )]

    async def choose_paper_table(self, event: Any) -> None:
        self.paper_table = int(event.control.value or 0) or None
        await self.app.render()

    async def record_paper(self) -> None:
        t = self.tournament
        table = self.paper_table or 0
        seats = len(t.seating()[table - 1]) if 1 <= table <= len(t.seating()) else 0
        names = tuple(f"paper_{t.round}_{table}_{seat}" for seat in range(1, seats + 1))
        totals = [self.fields.get(name, "") for name in names]
        reason = self.fields.get("paper_reason", "")

        def report(result: TableResult) -> str:
            return f"Round {result.round}, table {result.table}: result entered by hand ({self.summary(result)})."

        await self.do(lambda: self.organizer.enter_paper_result(table, totals, reason), report,
                      clear=(*names, "paper_reason"))

    def held_section(self) -> list[ft.Control]:
        held = self.tournament.held_results()
        if not held:
            return []
        rows: list[ft.Control] = [
            ft.Text("A different result arrived for a table that already had one: choose which counts."),
            self.field("held_reason", "Reason for the choice", key="held-reason"),
        ]
        index_by_table: dict[int, int] = {}
        for round_number, table, result, counted in held:
            index = index_by_table.get(table, 0)
            index_by_table[table] = index + 1
            rows += [
                ft.Text(f"Round {round_number}, table {table}", weight=ft.FontWeight.BOLD),
                ft.Text(f"Counted now: {self.summary(counted) if counted else 'nothing'}", key=f"counted-{table}"),
                ft.Text(f"Held: {self.summary(result)}", key=f"held-{table}-{index}"),
                ft.Row([
                    ft.FilledButton(f"Count the held result for table {table}",
                                    on_click=on(self.settle, table, True, index), key=f"take-held-{table}-{index}"),
                    ft.OutlinedButton(f"Keep the counted result for table {table}",
                                      on_click=on(self.settle, table, False, index),
                                      key=f"keep-held-{table}-{index}"),
                ], wrap=True),
            ]
        return [section("Held for you to choose", *rows)]

    def roll_off_section(self) -> list[ft.Control]:
        t = self.tournament
        if not t.round_open:
            return []
        pending = t.pending_roll_offs()
        if not pending:
            return []
        rows: list[ft.Control] = []
        for tie in pending:
            rows.append(ft.Text(tie.describe(), key=f"roll-off-{tie.table}", weight=ft.FontWeight.BOLD))
            for number in tie.numbers:
                chosen = self.roll_off_faces.get((tie.table, number))
                name = self.name_of(number)
                rows.append(ft.Text(f"{name} (number {number})"))
                rows.append(ft.Row([
                    die_button(face, f"{name} threw {face}", on(self.pick_face, tie.table, number, face),
                               key=f"roll-{tie.table}-{number}-{face}", selected=chosen == face, size=40)
                    for face in range(1, 7)
                ], spacing=6, wrap=True))
            rows.append(big_button(
                f"Record the roll-off {'over all tables' if tie.table == 0 else f'at table {tie.table}'}",
                on(self.record_roll_off, tie.table, tie.numbers), key=f"record-roll-off-{tie.table}"))
        return [section("Ties at the cut: roll-offs", *rows)]

    def refused_section(self) -> list[ft.Control]:
        refusals = self.organizer.refusals
        if not refusals:
            return []
        rows: list[ft.Control] = [
            ft.Text(f"{refusal.at.replace('T', ' ')[:19]} · {refusal.short_code}: {refusal.reason}",
                    key=f"refused-{index}", size=13)
            for index, refusal in enumerate(refusals)
        ]
        rows.append(big_button("Clear this list", on(self.clear_refusals), filled=False, key="clear-refused"))
        return [section("Refused codes", *rows)]

    async def import_typed(self) -> None:
        text = self.fields.get("result_code", "")
        if not text.strip():
            self.tell("Type or paste a result code first: it starts with FR1.", error=True)
            await self.app.render()
            return
        await self.import_text(text, clear=True)

    async def scanned(self, text: str) -> None:
        seconds = self.scanner.seconds
        await self.import_text(text, clear=False, extra=f"Read by the camera in {seconds:.1f} s." if seconds else None)

    async def import_text(self, text: str, clear: bool, extra: str | None = None) -> None:
        async def run() -> Any:
            return await self.organizer.import_code(text)

        def report(value: Any) -> list[str]:
            lines = [value.message]
            if extra:
                lines.append(extra)
            return lines

        await self.do(run, report, clear=("result_code",) if clear else ())

    async def settle(self, table: int, take: bool, index: int) -> None:
        reason = self.fields.get("held_reason", "")
        await self.do(lambda: self.organizer.act(lambda t: t.settle_held(table, take, reason, index)),
                      lambda _: f"Table {table}: the {'held' if take else 'counted'} result counts.",
                      clear=("held_reason",))

    async def void(self, table: int) -> None:
        reason = self.fields.get("void_reason", "")
        await self.do(lambda: self.organizer.act(lambda t: t.void_result(t.round, table, reason)),
                      lambda _: f"Table {table}'s result was voided: it waits for a new result.", clear=("void_reason",))

    async def replace(self, table: int) -> None:
        reason = self.fields.get("void_reason", "")
        code = self.fields.get("result_code", "")

        async def replace() -> None:
            if not code.strip():
                raise InvalidInput(f"Type or paste the new result code for table {table} in the field above first.")
            await self.organizer.act(lambda t: t.replace_result(t.round, table, reason, code=code))

        await self.do(replace, lambda _: f"Table {table}'s result was replaced; the reason is kept.",
                      clear=("void_reason", "result_code"))

    async def pick_face(self, table: int, number: int, face: int) -> None:
        self.roll_off_faces[(table, number)] = face
        await self.app.render()

    async def record_roll_off(self, table: int, numbers: tuple[int, ...]) -> None:
        faces = {n: self.roll_off_faces[(table, n)] for n in numbers if (table, n) in self.roll_off_faces}
        if len(faces) != len(numbers):
            missing = [self.name_of(n) for n in numbers if n not in faces]
            self.tell(f"Tap the die each tied player threw: {', '.join(missing)} still to enter.", error=True)
            await self.app.render()
            return
        if await self.do(lambda: self.organizer.act(lambda t: t.record_roll_off(table, faces)),
                         lambda _: "Roll-off recorded: " + ", ".join(
                             f"{self.name_of(n)} {face}" for n, face in sorted(faces.items())) + "."):
            for n in numbers:
                self.roll_off_faces.pop((table, n), None)

    async def close_round(self) -> None:
        def close(t: Tournament) -> tuple[int, ...]:
            return t.close_round()

        def report(advancing: tuple[int, ...]) -> str:
            t = self.tournament
            if t.champion is not None:
                return f"{self.name_of(t.champion)} (number {t.champion}) is the champion!"
            return f"Round {t.round} closed: {len(advancing)} go on. Draw the next round on the Seating page."

        await self.do(lambda: self.organizer.act(close), report)

    async def clear_refusals(self) -> None:
        await self.do(self.organizer.clear_refusals, lambda _: "The list of refused codes was cleared.")

    # -- a result's deep link ------------------------------------------------------------

    async def import_link(self, payload: str) -> Screen:
        """``/import/<safe form>``: import once per link, then show that event's results inbox."""
        payload = unquote(payload)
        if payload not in self.links_done:
            try:
                event_id = Organizer.event_of(payload)
            except CodeDamaged as damaged:
                self.links_done[payload] = ""
                self.tell(str(damaged), error=True)
                return "Result link", self.notices() + [ft.Text("This link does not hold a readable result.")], []
            tournament_id = await self.organizer.find_event(event_id) or self.organizer.tournament_id
            if tournament_id is None:
                summaries = await self.organizer.summaries()
                tournament_id = summaries[0].id if summaries else None
            if tournament_id is None or await self.organizer.open(tournament_id) is None:
                self.links_done[payload] = ""
                self.tell(f"This result is for event {event_id}, and this device runs no tournament.", error=True)
                return "Result link", self.notices(), []
            self.links_done[payload] = tournament_id
            try:
                report = await self.organizer.import_code(payload)
                self.tell([report.message, "Imported from a link."])
            except Exception as error:  # noqa: BLE001 - shown, never a crash
                self.tell(describe_error(error), error=True)
        tournament_id = self.links_done[payload]
        if not tournament_id or await self.organizer.open(tournament_id) is None:
            return "Result link", self.notices(), []
        return f"{self.tournament.name} · Results", self.nav("results") + self.notices() + self.results_screen(), \
            self.actions("results")

    # -- standings -----------------------------------------------------------------------

    def standings_screen(self) -> list[ft.Control]:
        t = self.tournament
        names = [p.name for p in t.plan()[: t.round]]
        rows: list[ft.Control] = []
        for row in t.standings():
            totals = " · ".join(
                f"{name} {'—' if total is None else f'{total:,}'}" for name, total in zip(names, row.totals)
            )
            rows.append(ft.Text(f"{row.rank}. {row.name} (number {row.number}) · {row.status}"
                                + (f" · {totals}" if totals else ""), key=f"standing-{row.number}"))
        cuts = [ft.Text(p.describe()) for p in t.plan()]
        flags = [ft.Text(flag.message, color=ft.Colors.ERROR, key=f"flag-{i}") for i, flag in enumerate(t.flags())]
        corrections = [
            ft.Text(f"Round {c.round}, table {c.table}: {c.kind} ({c.reason})"
                    + (" after the round closed" if c.after_close else ""))
            for c in t.corrections()
        ]
        controls: list[ft.Control] = [section("Standings", *(rows or [ft.Text("Nobody has signed up yet.")]))]
        controls.append(section("Rounds and cuts", *cuts))
        if flags or corrections:
            controls.append(section("Corrections", *flags, *corrections))
        controls.append(section(
            "Export",
            ft.Row([
                big_button("Save standings (CSV)", on(self.save_csv, "standings"), key="save-standings-csv",
                           filled=False, icon=ft.Icons.SAVE),
                big_button("Copy standings (CSV)", on(self.copy_csv, "standings"), key="copy-standings-csv",
                           filled=False, icon=ft.Icons.COPY),
            ], wrap=True),
            ft.Row([
                big_button("Save results (CSV)", on(self.save_csv, "results"), key="save-results-csv",
                           filled=False, icon=ft.Icons.SAVE),
                big_button("Copy results (CSV)", on(self.copy_csv, "results"), key="copy-results-csv",
                           filled=False, icon=ft.Icons.COPY),
            ], wrap=True),
            *([ft.Text(self.shown_csv, font_family="monospace", size=11, key="csv-text")] if self.shown_csv else []),
        ))
        return controls

    def csv_text(self, what: str) -> str:
        t = self.tournament
        return t.standings_csv() if what == "standings" else t.results_csv()


    async def save_csv(self, what: str) -> None:
        text = self.csv_text(what)
        name = self.organizer.export_name(what)
        try:
            saved = await self.app.service(ft.FilePicker).save_file(
                dialog_title=f"Save the {what} as CSV", file_name=name, src_bytes=text.encode("utf-8"),
                allowed_extensions=["csv"])
        except Exception as error:  # noqa: BLE001 - e.g. no file dialog here: offer the text instead
            self.shown_csv = text
            self.tell(f"The file could not be saved ({error}); the CSV is shown below to copy.", error=True)
        else:
            self.tell(f"{what.capitalize()} saved as {saved or name}.")
        await self.app.render()

    async def copy_csv(self, what: str) -> None:
        text = self.csv_text(what)
        self.shown_csv = text
        try:
            await self.app.service(ft.Clipboard).set(text)
        except Exception as error:  # noqa: BLE001
            self.tell(f"The clipboard is not available ({error}): the CSV is shown below.", error=True)
        else:
            self.tell(f"The {what} CSV is on the clipboard ({len(text.splitlines()) - 1} rows) and shown below.")
        await self.app.render()

    # -- the room's lookup ---------------------------------------------------------------

    def lookup_screen(self) -> list[ft.Control]:
        t = self.tournament
        query = self.fields.get("room_query", "")
        rows: list[ft.Control] = []
        if query.strip():
            try:
                found = t.lookup(query)
            except FarkleError as why:
                rows.append(ft.Text(str(why), color=ft.Colors.ERROR))
            else:
                for item in found:
                    where = (f"round {item.round}, table {item.table}, seat {item.seat}" if item.table
                             else "not seated yet")
                    rows.append(ft.Text(f"{item.name} (number {item.number}): {where} · rank {item.rank} · "
                                        f"{item.status}", size=16, key=f"found-{item.number}"))
                if not found:
                    rows.append(ft.Text(f"No player matches {query.strip()!r}.", key="found-none"))
        if self.lookup_field is None:  # one field for the session: re-rendering keeps the cursor where it is
            self.lookup_field = ft.TextField(label="Name or number", value=query, key="room-lookup", autofocus=True,
                                             on_change=self.lookup_changed)
        return [self.lookup_field, *rows]

    async def lookup_changed(self, event: Any) -> None:
        self.fields["room_query"] = str(event.control.value or "")
        await self.app.render()

    # -- the final and the prize ---------------------------------------------------------

    def final_screen(self) -> list[ft.Control]:
        t = self.tournament
        controls: list[ft.Control] = []
        plans = t.plan()
        final = plans[-1] if plans and plans[-1].is_final else None
        if final is None:
            return [ft.Text("The final is planned once players are checked in.")]
        controls.append(ft.Text(final.describe(), key="final-plan"))
        spec = t.format.rounds[final.spec_index]
        playing_final = t.round_open and t.round == final.number
        if playing_final and spec.switch_to:
            if t.plan()[t.round - 1].rules == spec.switch_to:
                controls.append(ft.Text(f"The final is switched to {spec.switch_to} rules.", key="switched"))
            else:
                controls.append(ft.Text(f"You may switch the final table to {spec.switch_to} rules at any moment: "
                                        "tell the table, which switches from the next turn on."))
                controls.append(big_button(f"Switch the final to {spec.switch_to} rules", on(self.switch_rules),
                                           key="switch-final-rules", filled=False))
        if t.champion is None:
            controls.append(ft.Text("No champion yet: the final's result crowns one (Results page).",
                                    key="no-champion"))
            return controls
        champion = t.champion
        controls.append(ft.Text(f"Champion: {self.name_of(champion)} (number {champion})", size=24,
                                weight=ft.FontWeight.BOLD, key="champion"))
        prize = t.prize
        if prize is not None:
            lines = [ft.Text(f"Prize: {prize.currency}{prize.amount:,}", size=18, key="prize")]
            if len(prize.split) > 1 or (prize.split and prize.split[0][0] != champion):
                lines += [ft.Text(f"{self.name_of(n)} (number {n}): {prize.currency}{share:,}", key=f"share-{n}")
                          for n, share in prize.split]
            if prize.note:
                lines.append(ft.Text(prize.note))
            controls.append(section("Prize", *lines))
            return controls
        finalists = t.seating()[0]
        controls.append(section(
            "Prize",
            ft.Text("The champion takes the prize, or the final table agrees a split: give each finalist's share."),
            ft.Row([
                self.field("prize_currency", "Currency", key="prize-currency", width=90, hint="$"),
                self.field("prize_amount", "Prize amount", key="prize-amount", expand=True),
            ]),
            *(self.field(f"share_{n}", f"Share for {self.name_of(n)} (optional)", key=f"share-{n}")
              for n in finalists),
            self.field("prize_note", "Note (optional)", key="prize-note"),
            big_button("Record the prize", on(self.award_prize), key="award-prize", icon=ft.Icons.PAID),
        ))
        return controls

    async def switch_rules(self) -> None:
        await self.do(lambda: self.organizer.act(lambda t: t.switch_rules()),
                      lambda _: "The final is switched: tell the table to change its rules from the next turn.")

    async def award_prize(self) -> None:
        t = self.tournament
        finalists = t.seating()[0]

        async def award() -> Any:
            amount = parse_whole(self.fields.get("prize_amount", ""), "The prize", minimum=1)
            split: dict[int, int] = {}
            for n in finalists:
                share = self.fields.get(f"share_{n}", "").strip()
                if share:
                    split[n] = parse_whole(share, f"{self.name_of(n)}'s share")
            currency = self.fields.get("prize_currency", "").strip() or "$"
            note = self.fields.get("prize_note", "")
            return await self.organizer.act(lambda t: t.award_prize(amount, currency, split or None, note))

        await self.do(award, lambda prize: f"Prize recorded: {prize.currency}{prize.amount:,}.",
                      clear=("prize_amount", "prize_note", *(f"share_{n}" for n in finalists)))


def _icon_button(icon: Any, label: str, on_click: Any, key: str) -> ft.Control:
    """An icon button a screen reader names (Flutter web reads the icon's label, not the tooltip)."""
    return ft.IconButton(icon=ft.Icon(icon, semantics_label=label), tooltip=label, on_click=on_click, key=key)


# -- edits of a format draft (a round's index first, then the draft and the chosen value) ---------


def _set_rules(index: int, draft: FormatDraft, value: str) -> None:
    draft.set_rules(index, value)


def _set_size(index: int, draft: FormatDraft, value: str) -> None:
    draft.rounds[index].table_size = int(value)


def _set_cut(index: int, draft: FormatDraft, value: str) -> None:
    draft.set_cut(index, value)


def _set_count(index: int, draft: FormatDraft, value: str) -> None:
    draft.rounds[index].count = value


def _remove_round(index: int, draft: FormatDraft, value: str) -> None:
    draft.remove_round(index)
