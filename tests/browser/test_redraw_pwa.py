"""Issue 28 item 1: a redraw never drops what the player entered. Every game's turn form is
filled in, then an event from another phone (a timer command) redraws the phone; every input
keeps its value, the focused one its focus and caret, and each stays the same element. And
the BLANKO bug as reported: tile keys, then "Covered a BLANKO square", then Lay."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .test_newcomer_pwa import phone_of, table_of

NAMES = ["Anna", "Béla"]


class Redraws:
    """Another seat's timer commands: each is an event that redraws every phone of the table."""

    def __init__(self, live_tables, code: str, token: str) -> None:
        self.tables, self.code, self.token, self.running = live_tables, code, token, False

    def __call__(self, *pages) -> None:
        self.tables.ok(self.code, self.token, "timer.pause" if self.running else "timer.start")
        self.running = not self.running
        phase = "running" if self.running else "paused"
        for page in pages:
            expect(page.locator(".hourglass")).to_have_attribute("data-phase", phase)


def stamp(page, selector: str) -> int:
    """Mark every field under ``selector``; ``stamped`` later tells whether each is the same element."""
    return page.locator(selector).evaluate("s => { const f = s.querySelectorAll('input, select, button');"
                                           " f.forEach((e) => { e.kept = true; }); return f.length; }")


def stamped(page, selector: str) -> bool:
    return page.locator(selector).evaluate("s => [...s.querySelectorAll('input, select')]"
                                           ".every((e) => e.kept)")


def focus_of(page) -> dict:
    return page.evaluate("() => { const a = document.activeElement; return"
                         " { name: a.name || a.className, start: a.selectionStart, end: a.selectionEnd }; }")


def seated(live_tables, game: str, **options):
    if game == "blanko":
        options = {"start": "drawn", **options}  # the app draws who begins: the turn is there at once
    code, host, tokens, ids = live_tables.seated(game, NAMES, **options)
    gs = live_tables.state(code, host)["state"]["game_state"]
    first = next(n for n in NAMES if ids[n] == gs.get("current"))
    other = next(n for n in NAMES if n != first)
    seat = {"player_id": ids[first], "token": tokens[first]}
    return code, host, seat, {"player_id": ids[other], "token": tokens[other]}


def blank_on_a_circle_3(live_tables, **reveal):
    """A BLANK table with a fresh deck, its rules revealed and a circle 3 on the pile."""
    deck = live_tables.client.post("/api/decks", json={"name": "Pakli", "mark": ""}).get_json()
    code, host, first, second = seated(live_tables, "blank", deck_id=deck["id"])
    live_tables.ok(code, host, "blank.reveal_rules", **(reveal or {"draw": True}))
    live_tables.ok(code, host, "blank.first_card", card={"colour": "circle", "number": 3})
    return code, host, first, second


def test_blanko_covered_ticked_after_tile_keys_is_laid(browser, live, live_tables):
    code, host, first, second = seated(live_tables, "blanko")
    live_tables.ok(code, first["token"], "blanko.lay", words=["HÁZ"], placed=3, covered_blanko=False)
    page = phone_of(browser, live, code, second, lang="en")
    other = phone_of(browser, live, code, first, lang="en")
    expect(page.locator("#lay")).to_be_visible()
    for key in ("S", "Z", "É", "L"):  # SZ typed as two keys: S then Z, two tiles
        page.locator(f".bk-key >> text='{key}'").first.click()
    expect(page.locator("#covered")).not_to_be_checked()  # no longer the game's first word
    page.check("#covered")
    page.click("#lay")
    # The lay went out with covered_blanko true: the BLANKO card form is there, for this phone only.
    expect(page.locator("#record-bonus")).to_be_visible()
    expect(other.locator("#record-bonus")).to_have_count(0)
    turns = live_tables.state(code, host)["state"]["game_state"]["turns"]
    assert turns[-1]["covered_blanko"] is True
    for p in (page, other):
        assert p.errors == []  # type: ignore[attr-defined]


def test_blanko_lay_and_bonus_keep_their_input_through_redraws(browser, live, live_tables):
    code, host, first, second = seated(live_tables, "blanko")
    page = phone_of(browser, live, code, first, lang="en")
    other = phone_of(browser, live, code, second, lang="en")  # the phone whose timer tap redraws
    redraw = Redraws(live_tables, code, second["token"])
    box = page.locator(".bk-word-slot .bk-input").first
    box.click()
    box.press_sequentially("kert")
    page.locator(".bk-tile .bk-mark").first.click()  # the K was on the board
    page.click("text=+ another word")
    page.locator(".bk-key >> text='?'").click()  # the joker mark waits for the next key
    page.uncheck("#covered")
    page.locator("label.check", has_text="back to the bank").locator("input").check()
    box.click()
    box.press("End")
    box.press("ArrowLeft")  # the caret between R and T
    stamp(page, ".bk-lay")
    redraw(page, other)
    redraw(page, other)
    expect(box).to_have_value(re.compile("^kert$", re.IGNORECASE))
    assert focus_of(page) == {"name": "bk-input", "start": 3, "end": 3}
    assert stamped(page, ".bk-lay")
    expect(page.locator(".bk-key.joker")).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".bk-tile.on-board")).to_have_count(1)
    expect(page.locator("#placed strong")).to_have_text("3")
    expect(page.locator("#covered")).not_to_be_checked()
    expect(page.locator("label.check", has_text="back to the bank").locator("input")).to_be_checked()
    box.press_sequentially("e")  # typing goes on where the caret was
    expect(box).to_have_value(re.compile("^keret$", re.IGNORECASE))
    page.locator(".bk-word-slot").nth(1).locator(".bk-input").fill("")
    page.click("#lay")
    expect(other.locator(".bk-turn").first).to_contain_text("KERET")
    turn = live_tables.state(code, host)["state"]["game_state"]["turns"][-1]
    assert (turn["words"][0]["word"], turn["placed"], turn["covered_blanko"]) == ("KERET", 4, False)

    # The BLANKO card's form (after a lay that covered a square) keeps its fields too.
    live_tables.ok(code, second["token"], "blanko.lay", words=["HÁZ"], placed=3, covered_blanko=True)
    bonus = other.locator(".bk-bonus")
    other.select_option(".bk-bonus [name=card]", "puzzle")
    other.fill(".bk-bonus [name=letters]", "7")
    other.check(".bk-bonus [name=filled]")
    other.locator(".bk-bonus [name=letters]").focus()
    stamp(other, ".bk-bonus")
    Redraws(live_tables, code, first["token"])(other, page)
    expect(bonus.locator("[name=card]")).to_have_value("puzzle")
    expect(bonus.locator("[name=letters]")).to_have_value("7")
    expect(bonus.locator("[name=filled]")).to_be_checked()
    assert focus_of(other)["name"] == "letters"
    assert stamped(other, ".bk-bonus")
    for p in (page, other):
        assert p.errors == []  # type: ignore[attr-defined]


def test_blanko_final_rack_keeps_its_tiles_through_redraws(browser, live, live_tables):
    code, host, first, second = seated(live_tables, "blanko")
    for seat in (first, second):  # everybody passes in a row: the final tally
        live_tables.ok(code, seat["token"], "blanko.pass")
    page = phone_of(browser, live, code, first, lang="en")
    rack = page.locator(".bk-rack")
    for key in ("?", "TY", "A"):
        rack.locator(f".bk-key >> text='{key}'").click()
    expect(page.locator("#rack-deduction")).to_have_text("Deduction: −21")
    stamp(page, ".bk-rack")
    shown = rack.text_content()
    # The hourglass is put away in the final tally: the redraws are the other phone counting
    # its rack, taking that back, and counting again.
    held = live_tables.state(code, host)["state"]["game_state"]["racks"]
    other = held[second["player_id"]]
    rack_column = page.locator(f".bk-scores tr[data-player='{second['player_id']}'] td").nth(3)
    for command, fields, column in (("blanko.rack", {"letters": "A" * other}, -other), ("undo", {}, 0),
                                    ("blanko.rack", {"letters": "A" * other}, -other)):
        live_tables.ok(code, second["token"], command, **fields)
        expect(rack_column).to_have_text(str(column))
    expect(rack).to_have_text(shown)
    assert focus_of(page)["name"] == "bk-key"  # the last key tapped
    assert rack.locator("button").evaluate_all("bs => bs.every((b) => b.kept)")
    for _ in range(held[first["player_id"]] - 3):
        rack.locator(".bk-key >> text='A'").click()
    page.click("#count-rack")
    expect(rack).to_have_count(0)
    scores = live_tables.state(code, host)["state"]["game_state"]["scores"]
    assert scores[first["player_id"]]["rack"] == -(21 + held[first["player_id"]] - 3)
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_rematch_starts_the_final_rack_from_no_tiles(browser, live, live_tables):
    """Tiles entered on one game's final rack and never counted (the host ended the game) are
    that game's: the rematch's final tally in the same page starts from none."""
    code, host, first, second = seated(live_tables, "blanko")

    def to_the_final_tally():
        for _ in range(2):  # everybody passes in a row
            current = live_tables.state(code, host)["state"]["game_state"]["current"]
            live_tables.ok(code, next(s for s in (first, second) if s["player_id"] == current)["token"],
                           "blanko.pass")

    to_the_final_tally()
    page = phone_of(browser, live, code, first, lang="en")
    for key in ("TY", "A"):
        page.locator(f".bk-rack .bk-key >> text='{key}'").click()
    expect(page.locator("#rack-deduction")).to_have_text("Deduction: −11")
    live_tables.ok(code, host, "table.end_game")
    expect(page.locator(".bk-rack")).to_have_count(0)
    live_tables.ok(code, host, "table.rematch")
    to_the_final_tally()
    expect(page.locator(".bk-rack .bk-tile")).to_have_count(0)
    expect(page.locator("#rack-deduction")).to_have_text("Deduction: −0")
    assert page.errors == []  # type: ignore[attr-defined]


def test_blank_play_and_accusation_keep_their_input_through_redraws(browser, live, live_tables):
    code, host, first, second = blank_on_a_circle_3(live_tables)
    page = phone_of(browser, live, code, first, lang="en")
    redraw = Redraws(live_tables, code, second["token"])
    page.locator("#blank-play [data-card='circle-1']").click()
    page.locator("#blank-play [data-card='circle-2']").click()
    page.locator(".bl-accuse summary").click()
    page.select_option(".bl-accuse [name=reason]", "missed_rule")
    page.locator(".bl-accuse [name=reason]").focus()
    stamp(page, "#game")
    # The accusation is below the card picker: the page is scrolled, and stays where it is (the
    # sand's bar joining the header moves the scroll by its height, not what is in view).
    assert page.evaluate("() => scrollY") > 0
    top = "e => e.getBoundingClientRect().top"
    at = page.locator(".bl-accuse").evaluate(top)
    redraw(page)
    redraw(page)
    assert abs(page.locator(".bl-accuse").evaluate(top) - at) <= 1  # sub-pixel rounding of the bar
    expect(page.locator("#blank-play .ce-chosen [data-slot]")).to_have_count(2)
    expect(page.locator(".bl-accuse")).to_have_attribute("open", "")
    expect(page.locator(".bl-accuse [name=reason]")).to_have_value("missed_rule")
    assert focus_of(page)["name"] == "reason"
    assert stamped(page, "#game")
    assert page.errors == []  # type: ignore[attr-defined]


def test_bldng_project_entry_keeps_its_choices_through_redraws(browser, live, live_tables):
    code, host, first, second = seated(live_tables, "bldng")
    page = phone_of(browser, live, code, first, lang="en")
    redraw = Redraws(live_tables, code, second["token"])
    entry = page.locator("#project-entry")
    entry.locator("[data-choice='type-sculpture']").click()
    entry.locator("[data-choice='size-10']").click()
    for key in ("red-circle", "blue-square", "green-triangle"):
        entry.locator(f".ce-palette [data-card='{key}']").click()
    redraw(page)
    live_tables.ok(code, second["token"], "bldng.set_project", draw=True)  # another phone's move
    redraw(page)
    expect(entry.locator("[data-choice='type-sculpture']")).to_have_attribute("aria-pressed", "true")
    expect(entry.locator("[data-choice='size-10']")).to_have_attribute("aria-pressed", "true")
    expect(entry.locator(".ce-count")).to_have_text("3/10")
    assert page.errors == []  # type: ignore[attr-defined]


def test_rankfile_guess_in_progress_survives_redraws(browser, live, live_tables):
    code, host, first, second = seated(live_tables, "rankfile")
    page = phone_of(browser, live, code, first, lang="en")
    table = table_of(browser, live, code, host, lang="en")
    redraw = Redraws(live_tables, code, second["token"])
    page.locator(".rf-row").nth(1).locator(".rf-card").first.click()
    expect(page.locator(".numpad")).to_be_visible()
    redraw(page, table)
    expect(page.locator(".numpad")).to_be_visible()
    expect(page.locator(".rf-card.picked")).to_have_count(1)
    page.locator(".numpad .btn", has_text="2").first.click()
    redraw(page, table)
    expect(page.locator(".rf-controls .prompt")).to_have_text("Number: 2")
    expect(page.locator(".rf-card.picked")).to_have_count(1)
    for p in (page, table):
        assert p.errors == []  # type: ignore[attr-defined]


def test_a_rematch_starts_the_prize_form_empty(browser, live, live_tables):
    """What the winner typed into one game's prize form and never proposed (the host ended the
    game) is that game's: the next win in the same page starts from an empty form."""
    code, host, first, second = blank_on_a_circle_3(live_tables, rules=["r1", "r2", "r5"])

    def win():
        circles = [{"colour": "circle", "number": n} for n in (1, 2, 3, 4, 5, 6, 1)]
        live_tables.ok(code, first["token"], "blank.play", cards=circles)
        live_tables.ok(code, second["token"], "blank.resolved")

    win()
    page = phone_of(browser, live, code, first, lang="en")
    page.locator(".bl-prize [name=title]").fill("Echo")
    page.locator(".bl-prize [name=action]").select_option("skip")
    live_tables.ok(code, host, "table.end_game")
    live_tables.ok(code, host, "table.rematch", seats=[first["player_id"], second["player_id"]])
    live_tables.ok(code, host, "blank.reveal_rules", rules=["r1", "r2", "r5"])
    live_tables.ok(code, host, "blank.first_card", card={"colour": "circle", "number": 3})
    win()
    expect(page.locator(".bl-prize [name=title]")).to_have_value("")
    expect(page.locator(".bl-prize [name=action]")).to_have_value("none")
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_rematch_starts_the_play_picker_empty(browser, live, live_tables):
    """Cards chosen in one game's play picker and never played are that game's: the next game in
    the same page starts with none chosen."""
    code, host, first, second = blank_on_a_circle_3(live_tables)
    page = phone_of(browser, live, code, first, lang="en")
    page.locator("#blank-play [data-card='circle-1']").click()
    expect(page.locator("#blank-play .ce-chosen [data-slot]")).to_have_count(1)
    live_tables.ok(code, host, "table.end_game")
    live_tables.ok(code, host, "table.rematch", seats=[first["player_id"], second["player_id"]])
    live_tables.ok(code, host, "blank.reveal_rules", draw=True)
    live_tables.ok(code, host, "blank.first_card", card={"colour": "circle", "number": 3})
    expect(page.locator("#blank-play")).to_be_visible()
    expect(page.locator("#blank-play .ce-chosen [data-slot]")).to_have_count(0)
    assert page.errors == []  # type: ignore[attr-defined]


def test_blank_prize_form_keeps_its_fields_through_redraws(browser, live, live_tables):
    code, host, first, second = blank_on_a_circle_3(live_tables, rules=["r1", "r2", "r5"])
    circles = [{"colour": "circle", "number": n} for n in (1, 2, 3, 4, 5, 6, 1)]
    live_tables.ok(code, first["token"], "blank.play", cards=circles)  # the last cards: a win once followed
    live_tables.ok(code, second["token"], "blank.resolved")
    page = phone_of(browser, live, code, first, lang="en")
    prize = page.locator(".bl-prize")
    prize.locator("[name=title]").fill("Echo")
    prize.locator("[name=trigger]").select_option("colour_played")
    prize.locator("[data-colour='shield']").click()
    prize.locator("[name=target]").select_option("all_players")
    prize.locator("[name=text]").fill("everyone claps")
    prize.locator("[name=text]").focus()
    stamp(page, ".bl-prize")
    redraw = Redraws(live_tables, code, second["token"])
    redraw(page)
    redraw(page)
    expect(prize.locator("[name=title]")).to_have_value("Echo")
    expect(prize.locator("[name=trigger]")).to_have_value("colour_played")
    expect(prize.locator("[data-colour='shield']")).to_have_attribute("aria-pressed", "true")
    expect(prize.locator("[name=target]")).to_have_value("all_players")
    expect(prize.locator("[name=text]")).to_have_value("everyone claps")
    assert focus_of(page)["name"] == "text"
    assert stamped(page, ".bl-prize")
    page.click("#propose-rule")
    expect(prize).to_have_count(0)
    rule = live_tables.state(code, host)["state"]["game_state"]["prize"]["rule"]
    assert (rule["title"], rule["trigger"], rule["target"], rule["text"]) == \
        ("Echo", {"kind": "colour_played", "colour": "shield"}, "all_players", "everyone claps")
    assert page.errors == []  # type: ignore[attr-defined]
