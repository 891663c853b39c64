"""User text never runs: script-like names and house words render as text, with no CSP
violation and no injected element, on the table screen and the phones."""

from playwright.sync_api import expect

from .test_platform_pwa import create_table

WATCH = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective));
window.__pwned = false;
"""
PAYLOADS = ["<img src=x onerror=1>", "<script>__pwned=1</script>", "\"><svg onload=1>"]


def test_names_are_text_not_markup(open_page, live):
    table, code = create_table(open_page, live, "blanko")
    table.add_init_script(WATCH)
    table.reload()
    phones = []
    for p in PAYLOADS:
        page = open_page(f"{live.url}/t/{code}", init_script=WATCH)
        page.fill("#name", p[:24])
        page.click("#join")
        expect(page.locator("#status")).to_have_attribute("data-status", "online")
        phones.append(page)
    expect(table.locator("#players .pname")).to_have_text([p[:24] for p in PAYLOADS])
    table.click("text=Start game")
    for page in (table, *phones):
        expect(page.locator(".bk-scores")).to_be_visible()
        assert page.evaluate("() => window.__violations") == []
        assert page.evaluate("() => window.__pwned") is False
        assert page.locator("main img:not(.qr), main script, main svg[onload]").count() == 0
