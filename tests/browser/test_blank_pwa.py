"""BLANK on two phones: the Rule Cards the table turned entered at setup, the deck's own cards
(an effect copy apart from its plain twin), plays checked the rulebook's way, a win once the
effects are followed, and a new rule for the deck."""

import json

from playwright.sync_api import expect

from .conftest import shot
from .test_platform_pwa import join


def test_the_effect_copy_is_a_card_of_its_own_and_plays_match_the_top_card(open_page, live, live_tables):
    made = live_tables.client.post("/api/decks", json={"name": "Bo's", "mark": "B"}).get_json()
    owner = f"localStorage.setItem('tc.deck.{made['id']}', {json.dumps(made['owner_token'])})"
    table = open_page(live.url + "/", phone=False, init_script=owner)
    # The owner enters the effect printed on their illustrated hexagon 1 (a rulebook example).
    table.locator(".bl-describe summary").click()
    table.select_option(".bl-describe [name=card]", "g2")
    table.fill(".bl-describe [name=etitle]", "Leftron")
    table.locator(".bl-describe [name=etitle]").dispatch_event("change")
    expect(table.locator(".bl-describe [name=etext]")).to_have_value(
        "All players must TAKE A CARD from the player to their left.")
    table.click(".bl-describe >> text=Save")
    expect(table.locator(".bl-describe [name=card] option[value=g2]")).to_contain_text("Leftron")
    assert live_tables.client.get(f"/api/decks/{made['id']}").get_json()["cards"][1]["effect"]["printed"]
    table.select_option("#game", "blank")
    table.select_option("#deck", made["id"])
    table.check("[name=rule_cards][value=app]")
    table.click("#create")
    code = table.locator("#table-code").inner_text()
    anna, bela = join(open_page, live, code, "Anna"), join(open_page, live, code, "Béla")
    table.click("text=Start game")
    expect(table.locator(".bl-rule")).to_have_count(3)  # the app drew them, as the table asked
    anna.locator("#blank-first [data-card='hexagon-3']").click()
    # The plain hexagon 1 and the Leftron copy are two buttons; only the copy sets off Leftron.
    expect(anna.locator("#blank-play [data-card='hexagon-1']")).to_be_visible()
    expect(anna.locator("#blank-play [data-group=effects] [data-card='g2']")).to_contain_text("Leftron")
    shot(anna, "blank-phone-picker")
    anna.locator("#blank-play [data-card='g2']").click()
    anna.click("[data-enter='blank-play']")
    expect(table.locator(".banner", has_text="Card effect")).to_contain_text("Leftron")
    # Triangle 1 matches the hexagon 1 by number, triangle 5 matches nothing: a penalty.
    bela.locator("#blank-play [data-card='triangle-1']").click()
    bela.locator("#blank-play [data-card='triangle-5']").click()
    bela.click("[data-enter='blank-play']")
    expect(table.locator(".bl-hands li", has_text="Béla")).to_contain_text("8")
    expect(table.locator(".bl-status .bl-card")).to_have_attribute("title", "hexagon 1")
    for page in (table, anna, bela):
        assert page.errors == []


def shown_outside_pickers(page):
    """Every word and card label a page shows, but for the card pickers (which list every card)."""
    return page.evaluate("""() => [...document.querySelectorAll('body *')]
      .filter((el) => !el.closest('.card-entry') && !el.closest('.bl-prize'))
      .map((el) => [el.childElementCount ? '' : el.textContent, el.title, el.getAttribute('aria-label')]
        .join('|'))
      .join('\\n')""")


def test_the_drawer_enters_the_card_drawn_and_only_the_rule_lights_up_elsewhere(open_page, live, live_tables):
    made = live_tables.client.post("/api/decks", json={"name": "Draws"}).get_json()
    owner = {"Authorization": f"Bearer {made['owner_token']}"}
    r = live_tables.client.post(f"/api/decks/{made['id']}/rules", headers=owner,
                                json={"title": "Round", "trigger": {"kind": "card_drawn", "colour": "circle"},
                                      "target": "this_player", "effect": "say_something", "text": "say round",
                                      "creator": "Bo"})
    assert r.status_code == 201
    table = open_page(live.url + "/", phone=False)
    table.select_option("#game", "blank")
    table.select_option("#deck", made["id"])
    table.click("#create")
    code = table.locator("#table-code").inner_text()
    anna, bela = join(open_page, live, code, "Anna"), join(open_page, live, code, "Béla")
    table.click("text=Start game")
    for rule in ("r1", "r2", "r6"):  # Cough, Two or more, and "a circle is drawn"
        anna.locator(f"#blank-rules [data-card='{rule}']").click()
    anna.click("[data-enter='blank-rules']")
    expect(table.locator(".bl-rule[data-rule=r6]")).to_contain_text("a card is drawn (circle)")
    anna.locator("#blank-first [data-card='square-3']").click()
    # No match: Anna draws, a penalty. Her phone asks for the card; nobody else's does.
    anna.click("#draw")
    expect(anna.locator("#blank-drawn")).to_be_visible()
    expect(bela.locator("#blank-drawn")).to_have_count(0)
    expect(table.locator("#blank-drawn")).to_have_count(0)
    expect(table.locator(".bl-rule.hot")).to_have_count(0)
    shot(anna, "blank-phone-enter-drawn")
    anna.locator("#blank-drawn [data-card='circle-2']").click()
    # The rule lights up on every screen; the face stays on Anna's phone.
    for page in (table, anna, bela):
        expect(page.locator(".bl-rule.hot[data-rule=r6]")).to_be_visible()
    expect(anna.locator("#my-drawn .bl-card")).to_have_attribute("title", "circle 2")
    expect(anna.locator("#blank-drawn")).to_have_count(0)
    expect(bela.locator(".bl-alert")).to_contain_text("say round")
    shot(bela, "blank-phone-rule-lit-by-a-draw")
    assert "circle 2" in shown_outside_pickers(anna)
    for page in (table, bela):
        expect(page.locator("#my-drawn")).to_have_count(0)
        assert "circle 2" not in shown_outside_pickers(page)
    # Béla draws too and keeps his card to himself: the entry goes with one tap.
    bela.click("#draw")
    expect(bela.locator("#blank-drawn")).to_be_visible()
    bela.click("#skip-drawn")
    expect(bela.locator("#blank-drawn")).to_have_count(0)
    expect(table.locator(".bl-hands li", has_text="Béla")).to_contain_text("8")
    # An effect tells Béla to draw: no penalty; he lets the app draw the face for him.
    bela.click("#effect-draw")
    bela.click("[data-draw='blank-drawn']")
    expect(bela.locator("#my-drawn .bl-card")).to_have_count(1)
    expect(table.locator(".bl-hands li", has_text="Béla")).to_contain_text("9")
    expect(anna.locator("#my-drawn .bl-card")).to_have_count(1)  # Béla's face is not on Anna's phone
    for page in (table, anna, bela):
        assert page.errors == []


def test_both_rule_forms_name_a_colour_or_number_with_a_picker(open_page, live, live_tables):
    made = live_tables.client.post("/api/decks", json={"name": "Pajzsos", "mark": ""}).get_json()
    table = open_page(live.url + "/", phone=False)

    def new_table(rules):
        table.goto(live.url + "/")
        table.select_option("#game", "blank")
        table.select_option("#deck", made["id"])
        table.click("#create")
        code = table.locator("#table-code").inner_text()
        anna = join(open_page, live, code, "Anna", locale="hu-HU")
        bela = join(open_page, live, code, "Béla", locale="en-GB")
        table.click("text=Start game")
        for rule in rules:
            anna.locator(f"#blank-rules [data-card='{rule}']").click()
        anna.click("[data-enter='blank-rules']")
        expect(table.locator(".bl-rule")).to_have_count(3)
        return anna, bela

    # Game 1: Anna (a Hungarian phone) goes out with seven circles; Béla confirms the rules were followed.
    anna, bela = new_table(("r1", "r2", "r5"))
    anna.locator("#blank-first [data-card='circle-3']").click()
    for n in (1, 2, 3, 4, 5, 6, 1):
        anna.locator(f"#blank-play [data-card='circle-{n}']").click()
    anna.click("[data-enter='blank-play']")
    bela.click("#resolved")
    form = anna.locator(".bl-prize")
    expect(form).to_be_visible()
    # Her Rule Card's trigger: "a colour is played" asks for a colour, in Hungarian words.
    form.locator("[name=trigger]").select_option("colour_played")
    colours, numbers = form.locator(".bl-pick[data-pick=colour]"), form.locator(".bl-pick[data-pick=number]")
    expect(colours).to_be_visible()
    expect(numbers).to_be_hidden()
    expect(colours.locator("button")).to_have_text(
        ["hatszög", "háromszög", "négyzet", "kör", "rombusz", "pajzs"])
    expect(colours.locator("svg[data-symbol=shield]")).to_have_count(1)  # the game's own symbol
    form.locator("[name=text]").fill("mindenki tapsol")
    anna.click("#propose-rule")  # no colour picked: the server says so, in her language
    expect(anna.locator(".toast")).to_contain_text("Válaszd ki, melyik színről")
    # "A card is drawn" offers both pickers; she picks the shield, by its Hungarian name.
    form.locator("[name=trigger]").select_option("card_drawn")
    expect(numbers).to_be_visible()
    colours.get_by_role("button", name="pajzs").click()
    expect(colours.locator("[data-colour=shield]")).to_have_attribute("aria-pressed", "true")
    # A language switch re-draws the form in English and keeps her choice and her words.
    anna.click("#lang")
    expect(colours.locator("[data-colour=shield]")).to_have_text("shield")
    expect(colours.locator("[data-colour=shield]")).to_have_attribute("aria-pressed", "true")
    expect(form.locator("[name=text]")).to_have_value("mindenki tapsol")
    anna.click("#lang")
    expect(colours.locator("[data-colour=shield]")).to_have_text("pajzs")
    assert anna.evaluate("document.documentElement.scrollWidth") <= 390
    shot(anna, "blank-phone-rule-picker-hu")
    anna.click("#propose-rule")
    expect(table.locator("#board")).to_contain_text("a card is drawn (shield)")
    table.click("#approve-prize")
    expect(table.locator("#board")).to_have_attribute("data-status", "ended")
    deck = live_tables.client.get(f"/api/decks/{made['id']}").get_json()
    assert deck["rules"][-1]["id"] == "r6"
    assert deck["rules"][-1]["trigger"] == {"kind": "card_drawn", "colour": "shield"}

    # Game 2 of the deck: the new rule is placed; Anna draws and enters a shield, and it lights up.
    anna, bela = new_table(("r1", "r2"))
    expect(table.locator(".bl-rule[data-rule=r6]")).to_contain_text("a card is drawn (shield)")
    expect(anna.locator(".bl-rule[data-rule=r6]")).to_contain_text("(pajzs)")
    anna.locator("#blank-first [data-card='square-3']").click()
    anna.click("#draw")
    expect(table.locator(".bl-rule.hot")).to_have_count(0)
    anna.locator("#blank-drawn [data-card='shield-2']").click()
    for page in (table, anna, bela):
        expect(page.locator(".bl-rule.hot[data-rule=r6]")).to_be_visible()
    expect(bela.locator(".bl-alert")).to_contain_text("mindenki tapsol")

    # The deck's owner, on an English phone, adds a rule of the copy: "if a 6 is played".
    token = f"localStorage.setItem('tc.deck.{made['id']}', {json.dumps(made['owner_token'])})"
    owner = open_page(live.url + "/", locale="en-GB", init_script=token)
    add = owner.locator(".bl-add-rule")
    add.locator("summary").click()
    add.locator("[name=trigger]").select_option("number_played")
    expect(add.locator(".bl-pick[data-pick=colour]")).to_be_hidden()
    expect(add.locator(".bl-pick[data-pick=number] button")).to_have_text(["1", "2", "3", "4", "5", "6"])
    add.locator(".bl-pick [data-number='6']").click()
    add.locator("input[placeholder='What happens']").fill("the next player draws")
    add.locator("[name=action]").select_option("draw")
    add.locator("[name=action_count]").fill("2")
    assert owner.evaluate("document.documentElement.scrollWidth") <= 390
    shot(owner, "blank-phone-owner-rule-picker")
    add.locator("button", has_text="Propose").click()
    expect(owner.locator("#decks")).to_contain_text("· 7 ·")
    rule = live_tables.client.get(f"/api/decks/{made['id']}").get_json()["rules"][-1]
    assert rule["trigger"] == {"kind": "number_played", "number": 6}
    assert rule["text"] == "the next player draws"
    assert rule["action"] == {"kind": "draw", "count": 2}
    for page in (table, anna, bela, owner):
        assert page.errors == []


def app_drawn_table(open_page, live, live_tables, table, deck_id, locales=("en-GB", "en-GB")):
    """A started two-phone table of ``deck_id`` whose Rule Cards the app drew, the first card
    hexagon 3: (host token, Anna's phone, Béla's phone, {name: player id})."""
    table.select_option("#game", "blank")
    table.select_option("#deck", deck_id)
    table.check("[name=rule_cards][value=app]")
    table.click("#create")
    code = table.locator("#table-code").inner_text()
    host = table.evaluate("code => JSON.parse(localStorage.getItem('tc.host.' + code)).token", code)
    anna, bela = (join(open_page, live, code, name, locale=locale)
                  for name, locale in zip(("Anna", "Béla"), locales, strict=True))
    table.click("text=Start game")
    expect(table.locator(".bl-rule")).to_have_count(3)
    ids = {p["name"]: p["id"] for p in live_tables.state(code, host)["state"]["players"]}
    anna.locator("#blank-first [data-card='hexagon-3']").click()
    return code, host, anna, bela, ids


def last_card_wins(table, anna, bela):
    """Anna plays the last card she chose; Béla confirms any rule it set off was followed."""
    anna.click("[data-enter='blank-play']")
    expect(table.locator(".bl-going-out, .banner.won")).to_be_visible()
    # Asked of the table's screen, which shows one or the other: Béla's phone may not have
    # drawn the question yet (its click waits for it).
    if table.locator(".bl-going-out").count():
        bela.click("#resolved")


def test_the_referee_follows_the_cards_action_and_each_phone_hears_its_own_news(open_page, live, live_tables):
    """Issue 27 item 1 and 28 item 8 on two phones and an 800×1280 table screen: an action
    chosen on the owner's form is applied (a skip), an illegal play is said on the player's
    phone and unchosen, an accusation reaches the accused phone while the host's buttons stay in
    view, the host sets the turn, the last card waits for Play, and the winner's phone does not
    say "Your turn"."""
    made = live_tables.client.post("/api/decks", json={"name": "Acts", "mark": ""}).get_json()
    owner = f"localStorage.setItem('tc.deck.{made['id']}', {json.dumps(made['owner_token'])})"
    table = open_page(live.url + "/", phone=False, init_script=owner)
    table.set_viewport_size({"width": 800, "height": 1280})
    table.locator(".bl-describe summary").click()
    table.select_option(".bl-describe [name=card]", "g2")  # the illustrated hexagon 1
    table.uncheck(".bl-describe [name=none]")
    table.fill(".bl-describe [name=etitle]", "Skipper")
    table.fill(".bl-describe [name=etext]", "The next player skips a turn")
    table.fill(".bl-describe [name=ecreator]", "Bo")
    table.select_option(".bl-describe [name=action]", "skip")
    table.click(".bl-describe >> text=Save")
    expect(table.locator(".bl-describe [name=card] option[value=g2]")).to_contain_text("Skipper")
    effect = live_tables.client.get(f"/api/decks/{made['id']}").get_json()["cards"][1]["effect"]
    assert effect["action"] == {"kind": "skip"}
    code, host, anna, bela, ids = app_drawn_table(open_page, live, live_tables, table, made["id"])
    # Anna's triangle 5 does not match: her phone says so, and the card is no longer chosen.
    anna.locator("#blank-play [data-card='triangle-5']").click()
    anna.click("[data-enter='blank-play']")
    expect(anna.locator("#my-penalty")).to_contain_text("does not match")
    expect(anna.locator("#blank-play [data-slot]")).to_have_count(0)
    expect(bela.locator("#my-penalty")).to_have_count(0)
    shot(anna, "blank-phone-my-penalty")
    # Béla plays the Skipper: Anna is skipped, so it is Béla's turn again, and no penalty.
    bela.locator("#blank-play [data-card='g2']").click()
    bela.click("[data-enter='blank-play']")
    expect(bela.locator("#turn")).to_have_class("turn mine")
    expect(anna.locator("#my-penalty")).to_have_count(0)
    # Béla accuses Anna: her phone shows it; Uphold / False accusation are in view on the table.
    bela.locator(".bl-accuse summary").click()
    expect(bela.locator(".bl-accuse [name=reason]")).to_have_attribute("aria-label", "Reason")
    bela.select_option(".bl-accuse [name=reason]", "missed_rule")
    bela.locator(".bl-accuse button.danger").click()
    expect(anna.locator("#accusation")).to_contain_text("Béla accuses you")
    expect(table.locator("#uphold")).to_be_in_viewport(ratio=1)
    expect(table.locator("#reject")).to_be_in_viewport(ratio=1)
    shot(table, "blank-table-accusation")
    table.click("#reject")
    expect(bela.locator("#my-penalty")).to_contain_text("false accusation")
    expect(anna.locator("#accusation")).to_have_count(0)
    # The host gives Anna the turn; she is down to her last card (the host corrects the count).
    table.select_option(".bl-set-turn select", ids["Anna"])
    table.click("#set-turn")
    expect(anna.locator("#turn")).to_have_class("turn mine")
    live_tables.ok(code, host, "blank.adjust", player=ids["Anna"], delta=-7, note="short game")
    expect(table.locator(".bl-hands li", has_text="Anna")).to_contain_text("1")
    anna.locator("#blank-play [data-card='hexagon-2']").click()  # a tap only chooses it
    expect(anna.locator("#blank-play [data-slot]")).to_have_count(1)
    expect(table.locator(".bl-hands li", has_text="Anna")).to_contain_text("1")
    last_card_wins(table, anna, bela)
    expect(bela.locator(".banner.won")).to_contain_text("Anna")
    expect(anna.locator(".bl-prize")).to_be_visible()
    expect(anna.locator("#turn")).to_have_count(0)
    expect(bela.locator("#turn")).to_have_count(0)
    shot(anna, "blank-phone-winner")
    for page in (table, anna, bela):
        assert page.errors == []


def test_a_named_colour_is_refused_and_the_winner_gives_a_card_an_action(open_page, live, live_tables):
    """A forbid_colour card on a Hungarian phone: its player names the colour from the six
    symbols, every screen shows it, a play of it is refused; the winner's customised card
    carries the action chosen on the prize form."""
    made = live_tables.client.post("/api/decks", json={"name": "Tiltás", "mark": ""}).get_json()
    owner = {"Authorization": f"Bearer {made['owner_token']}"}
    effect = {"title": "Tilos", "text": "Nevezz meg egy színt", "creator": "Bo",
              "action": {"kind": "forbid_colour"}}
    r = live_tables.client.post(f"/api/decks/{made['id']}/cards/g2", headers=owner, json={"effect": effect})
    assert r.status_code == 200
    table = open_page(live.url + "/", phone=False)
    code, host, anna, bela, ids = app_drawn_table(open_page, live, live_tables, table, made["id"],
                                                  ("hu-HU", "en-GB"))
    anna.locator("#blank-play [data-card='g2']").click()
    anna.click("[data-enter='blank-play']")
    expect(anna.locator("#name-colour")).to_contain_text("Nevezz meg egy színt")
    expect(bela.locator("#name-colour")).to_have_count(0)
    anna.locator("#name-colour [data-colour=square]").click()
    expect(bela.locator("#bl-forbidden")).to_contain_text("square")
    expect(table.locator("#bl-forbidden")).to_contain_text("Anna")
    shot(anna, "blank-phone-forbidden-hu")
    bela.locator("#blank-play [data-card='square-1']").click()  # matches the number, but square is named
    bela.click("[data-enter='blank-play']")
    expect(bela.locator("#my-penalty")).to_be_visible()
    expect(table.locator(".bl-hands li", has_text="Béla")).to_contain_text("8")
    expect(anna.locator("#turn")).to_have_class("turn mine")
    expect(bela.locator("#bl-forbidden")).to_have_count(0)  # Anna's turn again: it is over
    live_tables.ok(code, host, "blank.adjust", player=ids["Anna"], delta=-5, note="short game")
    anna.locator("#blank-play [data-card='hexagon-5']").click()
    last_card_wins(table, anna, bela)
    anna.locator(".bl-prize details summary").nth(1).click()
    anna.select_option(".bl-prize [name=card]", "g5")
    anna.fill(".bl-prize [name=ctitle]", "Fordító")
    anna.fill(".bl-prize [name=ctext]", "Megfordul az irány")
    anna.select_option(".bl-prize [name=caction]", "reverse")
    anna.click("#propose-card")
    table.click("#approve-prize")
    expect(table.locator("#board")).to_have_attribute("data-status", "ended")
    card = live_tables.client.get(f"/api/decks/{made['id']}").get_json()["cards"][4]
    assert card["effect"]["title"] == "Fordító" and card["effect"]["action"] == {"kind": "reverse"}
    # The record says the cards left in hand, not "−7", and lists only penalties taken.
    bela.click("#open-record")
    expect(bela.locator(".rec-scores li", has_text="Béla")).to_contain_text("8 in hand")
    expect(bela.locator(".rec-story", has_text="Penalties")).to_have_text("Penalties: Béla 1")
    for page in (table, anna, bela):
        assert page.errors == []


def forbid_colour_deck(live_tables, name):
    """A deck whose illustrated hexagon 1 (g2) and hexagon 2 (g4) let their player name a colour."""
    made = live_tables.client.post("/api/decks", json={"name": name, "mark": ""}).get_json()
    for card in ("g2", "g4"):
        r = live_tables.client.post(f"/api/decks/{made['id']}/cards/{card}", json={"effect": {
            "title": "Ban", "creator": "Bo", "action": {"kind": "forbid_colour"}}},
            headers={"Authorization": f"Bearer {made['owner_token']}"})
        assert r.status_code == 200, r.get_json()
    return made


def test_a_fine_of_two_says_two_and_a_colour_to_name_holds_the_next_play(open_page, live, live_tables):
    """Issue 34 items 7, 9 and 13 on two phones: a play out of turn that does not match costs
    two cards and both the message and the entry of the drawn cards say so; a card of the
    deck's own is chosen once and not again from the pile; the next play waits for the colour
    (or the host's "go on"); and a play of a named colour says why it was refused."""
    made = forbid_colour_deck(live_tables, "Bans")
    table = open_page(live.url + "/", phone=False)
    code, host, anna, bela, ids = app_drawn_table(open_page, live, live_tables, table, made["id"])
    # Anna's turn on hexagon 3: Béla's triangle 5 is out of turn and does not match either.
    bela.locator("#blank-play [data-card='triangle-5']").click()
    bela.click("[data-enter='blank-play']")
    expect(bela.locator("#my-penalty")).to_contain_text("draw 2 cards")
    expect(table.locator(".bl-hands li", has_text="Béla")).to_contain_text("9")
    expect(bela.locator("#blank-drawn h3")).to_have_text("Enter the cards you drew (1 of 2)")
    shot(bela, "blank-phone-fine-of-two")
    bela.click("#skip-drawn")
    expect(bela.locator("#blank-drawn h3")).to_have_text("Enter the cards you drew (2 of 2)")
    bela.click("#skip-drawn")
    # Anna's Ban is one card: chosen once, it cannot be chosen again.
    anna.locator("#blank-play [data-card='g2']").click()
    expect(anna.locator("#blank-play .ce-pick[data-card='g2']")).to_be_disabled()
    anna.click("[data-enter='blank-play']")
    # Béla's play waits for Anna's colour; the Ban on the pile is in nobody's hand.
    expect(bela.locator("#bl-to-name")).to_contain_text("Nobody plays until then")
    expect(bela.locator("#blank-play .ce-pick[data-card='g2']")).to_be_disabled()
    bela.locator("#blank-play [data-card='hexagon-4']").click()
    bela.click("[data-enter='blank-play']")
    expect(bela.locator(".toast")).to_contain_text("Wait until the colour nobody may play has been named")
    expect(table.locator(".bl-hands li", has_text="Béla")).to_contain_text("9")
    # The refused play is no longer chosen (issue 42): a tap now chooses one card, not a second copy.
    expect(bela.locator("#blank-play .ce-slot[data-slot]")).to_have_count(0)
    # Anna will not say: the host goes on without a colour, and Béla's play goes down.
    table.click("#skip-colour")
    expect(bela.locator("#bl-to-name")).to_have_count(0)
    bela.locator("#blank-play [data-card='hexagon-4']").click()
    expect(bela.locator("#blank-play .ce-slot[data-slot]")).to_have_count(1)
    bela.click("[data-enter='blank-play']")
    expect(table.locator(".bl-hands li", has_text="Béla")).to_contain_text("8")
    # The second Ban: Anna names the square, and Béla's square 2 matches the number, not the colour.
    anna.locator("#blank-play [data-card='g4']").click()
    anna.click("[data-enter='blank-play']")
    anna.locator("#name-colour [data-colour=square]").click()
    expect(bela.locator("#bl-forbidden")).to_contain_text("square")
    bela.locator("#blank-play [data-card='square-2']").click()
    bela.click("[data-enter='blank-play']")
    expect(bela.locator("#my-penalty")).to_contain_text("even where the number matches")
    shot(bela, "blank-phone-forbidden-why")
    # Issue 42: one hexagon 4 of the deck's two is on the pile, so Anna may choose one more, and
    # once both are down nobody may choose it; the hexagon 3 under them still has a copy free.
    anna.locator("#blank-play [data-card='hexagon-4']").click()
    expect(anna.locator("#blank-play .ce-pick[data-card='hexagon-4']")).to_be_disabled()
    expect(anna.locator("#blank-play .ce-pick[data-card='hexagon-3']")).to_be_enabled()
    shot(anna, "blank-phone-last-copy-chosen", full_page=False)
    anna.click("[data-enter='blank-play']")
    expect(bela.locator("#blank-play .ce-pick[data-card='hexagon-4']")).to_be_disabled()
    expect(bela.locator("#blank-play .ce-pick[data-card='hexagon-3']")).to_be_enabled()
    # The host corrects a hand the app counts wrong (a play larger than the count waits for it).
    table.click(f"[data-fix='{ids['Béla']}:1']")
    expect(table.locator(".bl-hands li", has_text="Béla")).to_contain_text("10")
    shot(table, "blank-table-hand-fix", full_page=False)
    for page in (table, anna, bela):
        assert page.errors == []


def test_the_prize_forms_action_writes_the_effect_and_an_empty_field_is_named(open_page, live,
                                                                             live_tables):
    """Issue 34 item 12: the winner's card gets its words from the action chosen (the free text
    is what the players do besides), and a proposal with an empty field says which."""
    made = live_tables.client.post("/api/decks", json={"name": "Prizes", "mark": ""}).get_json()
    table = open_page(live.url + "/", phone=False)
    code, host, anna, bela, ids = app_drawn_table(open_page, live, live_tables, table, made["id"])
    live_tables.ok(code, host, "blank.adjust", player=ids["Anna"], delta=-6, note="short game")
    anna.locator("#blank-play [data-card='hexagon-5']").click()
    last_card_wins(table, anna, bela)
    form = anna.locator(".bl-prize")
    anna.click("#propose-rule")  # nothing typed: the form says which box is empty
    expect(anna.locator(".toast")).to_contain_text("Fill in “What happens”")
    form.locator("details summary").nth(1).click()
    form.locator("[name=card]").select_option("g5")
    form.locator("[name=caction]").select_option("draw")
    form.locator("[name=caction_count]").fill("2")
    form.locator("[name=caction_count]").dispatch_event("change")
    expect(form.locator(".bl-does").last).to_have_text("The next player draws 2 cards (no Penalty)")
    free_text = form.locator("label", has=anna.locator("[name=ctext]"))
    expect(free_text).to_contain_text("What the players do besides")
    shot(anna, "blank-phone-prize-action")
    anna.click("#propose-card")
    expect(anna.locator(".toast").last).to_contain_text("Fill in “Title”")
    form.locator("[name=ctitle]").fill("Double")
    anna.click("#propose-card")
    expect(table.locator("#board")).to_contain_text("Double: The next player draws 2 cards (no Penalty)")
    table.click("#approve-prize")
    expect(table.locator("#board")).to_have_attribute("data-status", "ended")
    effect = live_tables.client.get(f"/api/decks/{made['id']}").get_json()["cards"][4]["effect"]
    assert effect["text"] == "" and effect["action"] == {"kind": "draw", "count": 2}
    for page in (table, anna, bela):
        assert page.errors == []
