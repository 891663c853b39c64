"""Every game's core flow on 390×844 phones in each engine a table's phones run: Chromium,
WebKit (Safari's engine: about half the phones at a table are iPhones) and Gecko (Firefox).
One walk per game, each from the table's screen through the join by link, a few moves and a
reload mid-game; the hourglass (start, flip, time's up) in Rank & File's, the Hungarian page in
BLANKO's. The test ids name the engine: ``…[chromium]``, ``…[webkit]``, ``…[firefox]``
(engines.py says how each is driven, and its quirks)."""

from __future__ import annotations

import re

from .engines import expect
from .test_hungarian_pwa import fill
from .test_phones_layout import catalogue
from .test_platform_pwa import join

HU = catalogue("hu")["ui"]


def choose_game(table, game):
    """The start screen draws the game's options once its module is in: Create moves down."""
    table.select_option("#game", game)
    expect(table.locator("#options input, #options select").first).to_be_visible()


def create_table(open_device, live, game):
    """The table's screen makes a table of ``game``: its code."""
    table = open_device(live.url + "/", phone=False)
    choose_game(table, game)
    table.click("#create")
    expect(table.locator("#table-code")).to_have_text(re.compile(r"^[A-Z0-9]{5}$"))
    return table, table.locator("#table-code").text()


def no_errors_nor_overflow(*devices):
    for dev in devices:
        assert dev.errors == [], (dev.engine, dev.errors)
        assert dev.overflow_px() <= 0, dev.engine


def cards(page, row):
    return page.locator(".rf-row").nth(row).locator(".rf-card")


def guess(page, row, pos, number, verdict):
    cards(page, row).nth(pos).click()
    page.locator(".numpad .btn", text=str(number)).click()
    page.locator("button", text=verdict).click()


def test_rank_and_file_with_the_hourglass_and_a_reload(open_device, live, live_tables):
    table, code = create_table(open_device, live, "rankfile")
    anna, bela, cili = phones = [join(open_device, live, code, n) for n in ("Anna", "Béla", "Cili")]
    live_tables.join(code, "Dani")  # a fourth seat, from a phone no engine needs to draw
    expect(table.locator("#players .dot.on")).to_have_count(3)

    # The hourglass: Anna starts a 30 s glass, Béla turns it over at once, so the few seconds
    # that had run are all that is left: every phone calls time.
    anna.locator(".hg-presets button", text="0:30").click()
    for page in (table, *phones):
        expect(page.locator(".hourglass")).to_have_attribute("data-phase", "running")
    bela.locator(".hg-buttons button", text="Flip").click()
    for page in (table, *phones):
        expect(page.locator(".hourglass")).to_have_attribute("data-phase", "done")
    expect(cili.locator(".hg-status")).to_have_text("Time is up!")
    cili.screenshot("engines-hourglass-done")

    table.click("button", text="Start game")
    expect(anna.locator("#turn")).to_have_text("Your turn")
    # Anna points at Béla's first card, says 2, the table says right, and she shows her first.
    guess(anna, 1, 0, 2, "Right")
    cards(anna, 0).first.click()
    for page in (table, *phones):
        expect(cards(page, 1).first).to_have_text("2")
    # Béla reloads mid-game: the same seat, the same cards, his turn; he guesses wrong and an
    # ace flips on every screen.
    bela.reload()
    expect(bela.locator("#my-name")).to_have_text("Béla")
    expect(cards(bela, 1).first).to_have_text("2")
    expect(bela.locator("#turn")).to_have_text("Your turn")
    guess(bela, 2, 8, 3, "Wrong")
    for page in (table, *phones):
        expect(page.locator(".rf-ace.flipped")).to_have_count(1)
    # An impossible claim is refused with its reason: Cili says Dani's last card is a 2.
    guess(cili, 3, 8, 2, "Right")
    cards(cili, 2).first.click()
    expect(cili.locator(".toast")).to_contain_text("could hold no card")
    table.screenshot("engines-rankfile-table")
    cili.screenshot("engines-rankfile-phone")
    no_errors_nor_overflow(*phones)
    assert table.errors == []


def hu(key, **params):
    """The Hungarian words of ``key``, filled in."""
    return fill(HU[key], **params)


def test_blanko_with_a_hungarian_phone_and_a_reload(open_device, live):
    """Béla's phone speaks Hungarian, Anna's English: the start letters, a lay of two words with
    its points, a BLANKO card's second lay, a reload, a challenge, the passes and the racks."""
    table, code = create_table(open_device, live, "blanko")
    anna = join(open_device, live, code, "Anna")
    bela = join(open_device, live, code, "Béla", lang="hu")
    table.click("button", text="Start game")
    # Each phone enters the letter its player drew from the bank; a tie draws again.
    expect(table.locator("#start-waiting")).to_have_text("Still to draw: Anna, Béla")
    expect(bela.locator("#start-waiting")).to_have_text(hu("bk_startWaiting", names="Anna, Béla"))
    anna.locator(".bk-start .bk-key", text="A").click()
    anna.click("#enter-start")
    expect(table.locator(".bk-start-letters li")).to_have_text(["Anna A"])
    bela.locator(".bk-start .bk-key", text="CS").click()
    bela.locator(".bk-start .bk-key", text="A").click()  # a second key replaces the first
    expect(bela.locator("#enter-start")).to_have_text(hu("bk_startEnter", letter="A"))
    bela.click("#enter-start")
    expect(anna.locator("#start-again")).to_have_text("A tie (Anna A, Béla A): Anna, Béla draw again.")
    anna.locator(".bk-start .bk-key", text="E").click()
    anna.click("#enter-start")
    bela.locator(".bk-start .bk-key", text="TY").click()
    bela.click("#enter-start")
    expect(bela.locator("#turn")).to_have_text(HU["yourTurn"])  # TY is worth 10, E 1

    # The dictionary reads MÉZSÖR as méz|sör: Z and S are two tiles, and nothing is asked.
    bela.fill(".bk-input", "mézsör")
    expect(bela.locator(".bk-word-slot.active .bk-tile")).to_have_count(6)
    expect(bela.locator(".bk-ask")).to_have_count(0)
    bela.click("button", text=HU["bk_addWord"])
    for key in ("SZ", "É", "L"):
        bela.locator(".bk-key", text=key).click()
    expect(bela.locator("#lay")).to_have_text(hu("bk_layButton", n=21))  # MÉZSÖR 14, SZÉL 3+3+1
    expect(bela.locator("#covered")).to_be_checked()  # the first word covers a BLANKO square
    bela.screenshot("engines-blanko-lay-hu")
    bela.click("#lay")
    expect(table.locator(".bk-turn").first).to_contain_text("MÉZ.SÖR + SZÉL")  # the split, as laid
    expect(table.locator("#bag")).to_have_text(str(112 - 16 - 6))
    # Its BLANKO card says "lay again": one more tile leaves the rack, and the bank refills it.
    expect(anna.locator("#record-bonus")).to_have_count(0)
    bela.select_option(".bk-bonus [name=instruction]", "lay_again")
    bela.fill(".bk-bonus [name=words]", "SZÉLES")
    bela.fill(".bk-bonus [name=placed]", "2")
    bela.click("#record-bonus")
    expect(table.locator("#bag")).to_have_text(str(112 - 16 - 6 - 2))
    expect(table.locator(".bk-turn .tag", has_text="BLANKO card +9")).to_have_count(1)

    # Béla's phone reloads mid-game: his seat, his language, the turn as laid.
    bela.reload()
    expect(bela.locator("#my-name")).to_have_text("Béla")
    expect(bela.locator(".bk-turn").first).to_contain_text("MÉZ.SÖR + SZÉL")
    expect(bela.locator("button", text=HU["bk_pass"])).to_have_count(0)  # Anna's turn
    # Anna challenges: both are Hungarian words, so the challenge fails.
    anna.click("#challenge")
    expect(table.locator(".bk-turn .tag.valid").first).to_be_visible()
    expect(bela.locator(".bk-turn .tag.valid").first).to_have_text(HU["bk_valid"])
    anna.click("#pass")
    bela.click("#pass")  # everybody passed in a row: the final tally
    expect(table.locator(".banner").first).to_contain_text("Final tally")
    for phone, count in ((anna, "0 of 8 letters entered"), (bela, hu("bk_rackCount", entered=0, held=8))):
        expect(phone.locator("#rack-count")).to_have_text(count)  # every letter of the rack
        for _ in range(8):
            phone.locator(".bk-rack .bk-key", text="A").click()
        phone.click("#count-rack")
    # One line says who won and with how many points (not "Winner: Béla" under it again).
    expect(table.locator(".banner.won")).to_contain_text("Béla won with")
    expect(table.locator(".banner", has_text="Béla")).to_have_count(1)
    expect(table.locator(".bk-chart polyline")).to_have_count(2)
    bela.screenshot("engines-blanko-end-hu")
    no_errors_nor_overflow(anna, bela)
    assert table.errors == []


def test_blank_adds_a_rule_to_the_deck_across_a_reload(open_device, live, live_tables):
    table = open_device(live.url + "/", phone=False)
    choose_game(table, "blank")
    table.fill("#deck-name", "Kitchen <b>deck</b>")
    table.click("#create")
    expect(table.locator("#table-code")).to_have_text(re.compile(r"^[A-Z0-9]{5}$"))
    code = table.locator("#table-code").text()
    anna, bela = join(open_device, live, code, "Anna"), join(open_device, live, code, "Béla")
    table.click("button", text="Start game")
    # The table turned three Rule Cards over; a phone enters them (Cough, Two or more, Bark).
    for rule in ("r1", "r2", "r5"):
        anna.locator(f"#blank-rules [data-card='{rule}']").click()
    anna.click("[data-enter='blank-rules']")
    expect(table.locator(".bl-rule")).to_have_count(3)
    expect(anna.locator("#blank-rules")).to_have_count(0)
    anna.locator("#blank-first [data-card='circle-3']").click()  # the first card of the draw pile
    expect(table.locator(".bl-status .bl-card")).to_have_attribute("title", "circle 3")
    # Anna's phone reloads mid-game: the rules and the top card are there again.
    anna.reload()
    expect(anna.locator(".bl-rule")).to_have_count(3)
    expect(anna.locator(".bl-status .bl-card")).to_have_attribute("title", "circle 3")
    for n in (1, 2, 3, 4, 5, 6, 1):  # seven circles at once: each one matches the top card's colour
        anna.locator(f"#blank-play [data-card='circle-{n}']").click()
    anna.click("[data-enter='blank-play']")
    # The play set off "Two or more" and "Bark": Anna wins once another phone says they were followed.
    expect(table.locator(".bl-going-out")).to_contain_text("Anna")
    expect(table.locator(".bl-rule.hot")).to_have_count(2)
    expect(anna.locator("#resolved")).to_have_count(0)
    bela.screenshot("engines-blank-going-out")
    bela.click("#resolved")
    expect(table.locator(".banner.won")).to_contain_text("Anna")
    anna.fill(".bl-prize [name=text]", "everyone says <script>hi</script>")
    anna.select_option(".bl-prize [name=trigger]", "card_drawn")
    anna.click("#propose-rule")
    table.click("#approve-prize")
    expect(table.locator("#board")).to_have_attribute("data-status", "ended")
    for page in (table, anna, bela):  # "Anna won", once: no "Winner: Anna" under it
        expect(page.locator(".banner.won")).to_have_text(re.compile(r"Anna won$"))
        expect(page.locator(".banner", has_text="Anna")).to_have_count(1)
    decks = live_tables.client.get("/api/decks").get_json()["decks"]
    deck = live_tables.client.get(f"/api/decks/{decks[0]['id']}").get_json()
    assert deck["name"] == "Kitchen <b>deck</b>"
    assert deck["rules"][-1]["text"] == "everyone says <script>hi</script>"
    assert deck["wins"] == {"Anna": 1}
    # The start screen lists the deck with its win and its history.
    table.goto(live.url + "/")
    expect(table.locator("#decks")).to_contain_text("Anna: 1")
    table.locator("#decks summary", has_text="Deck history").click()
    expect(table.locator("#decks ol li").last).to_contain_text("everyone says")
    no_errors_nor_overflow(anna, bela)
    assert table.errors == []


BLDNG_ANNA = ["red-circle"] * 2 + ["blue-square"] * 2 + ["green-triangle"] * 2 + ["yellow-rectangle"] * 2


def project_of(page):
    return [e["attr"] for e in page.locator("#my-project .bd-el").probe("title")]


def expect_project(page, titles):
    """Waits for the phone to show ``titles`` as its project: its number of cards alone may be
    the old project's too (the app draws a project of 8 or 10)."""
    els = page.locator("#my-project .bd-el")
    expect(els).to_have_count(len(titles))
    for i, title in enumerate(titles):
        expect(els.nth(i)).to_have_attribute("title", title)


def enter_project(page, keys, size="8"):
    entry = page.locator("#project-entry")
    entry.locator(f"[data-choice='size-{size}']").click()
    for key in keys:
        entry.locator(f".ce-palette [data-card='{key}']").click()
    expect(entry.locator(".ce-count")).to_have_text(f"{len(keys)}/{size}")
    entry.locator("[data-enter='project-entry']").click()
    expect(page.locator("#my-project")).to_be_visible()


def test_bldng_projects_entered_changed_shifted_and_reloaded(open_device, live):
    """Project cards entered from the table (at the start and after Change project, through the
    same entry), a drawn shape, a shift that every phone is told about, and reloads."""
    table, code = create_table(open_device, live, "bldng")
    anna, bela, cili = phones = [join(open_device, live, code, n) for n in ("Anna", "Béla", "Cili")]
    table.click("button", text="Start game")
    # Anna enters the card she holds; a mistap comes off again with one tap on its slot.
    anna.locator("#project-entry .ce-palette [data-card='blue-circle']").click()
    anna.locator("#project-entry .ce-chosen [data-slot='0']").click()
    enter_project(anna, BLDNG_ANNA)
    assert project_of(anna) == ["red circle"] * 2 + ["blue square"] * 2 + ["green triangle"] * 2 + \
        ["yellow rectangle"] * 2
    for p in (bela, cili):  # a group without project cards lets the app draw
        p.click("[data-draw='project-entry']")
        expect(p.locator("#my-project")).to_be_visible()
    before = [project_of(p) for p in phones]
    expect(table.locator("#my-project")).to_have_count(0)  # nobody else's screen shows a project
    anna.locator("#draw-entry [data-card='red-circle']").click()
    expect(table.locator(".bd-player").first.locator(".bd-card")).to_have_count(1)

    bela.locator("#draw-entry [data-card='change_project']").click()
    # Béla's old card went under the deck: he enters the new one as at the start.
    expect(bela.locator("#project-entry h3")).to_have_text("Change project: your new project card")
    expect(table.locator("#board-step")).to_contain_text("Béla: Enter your new project card")
    enter_project(bela, ["blue-triangle"] * 10, size="10")
    expect(bela.locator("#project-news")).to_contain_text("Your new project is in: Ordered, 10 cards.")
    bela.locator("#project-news button").click()
    expect(bela.locator("#project-news")).to_have_count(0)
    before[1] = project_of(bela)
    assert before[1] == ["blue triangle"] * 10

    cili.locator("#draw-entry [data-card='shift_projects']").click()
    for i, p in enumerate(phones):
        expect_project(p, before[(i + 1) % 3])
    # Every phone is told, in words from the catalogue, whose project it now builds.
    expect(anna.locator("#project-news")).to_have_text(
        "Cili shifted all projects right: you now build the project Béla had: Ordered, 10 cards.OK")
    expect(cili.locator("#project-news")).to_contain_text("the project Anna had")
    expect(table.locator("#project-news")).to_have_count(0)
    expect(table.locator(".bd-recent li").first).to_contain_text("Shift all projects right")
    expect(anna.locator("#turn")).to_have_text("Your turn")
    anna.screenshot("engines-bldng-phone")
    anna.reload()  # a seen notice stays dismissed; an unseen one comes back
    expect(anna.locator("#project-news")).to_be_visible()
    anna.locator("#project-news button").click()
    anna.reload()
    expect(anna.locator("#my-project")).to_be_visible()
    expect(anna.locator("#project-news")).to_have_count(0)
    # A group without the cards lets the app draw; the phone shows what came.
    anna.click("[data-draw='draw-entry']")
    expect(anna.locator("#app-drew")).to_contain_text("The app drew for you:")
    expect(table.locator("#draw-pile")).to_have_text("85")
    no_errors_nor_overflow(*phones)
    assert table.errors == []
