"""Nothing on the table's screen moves once it is drawn (layout shift, Lighthouse's CLS): a shift
is something the screen drew being pushed aside by what came after it, which reads as a jump."""

import json
import time

import pytest
from playwright.sync_api import expect

from .conftest import PHONE

# Every layout shift of the page (none made by a tap), from the first: registered before the
# page's own scripts run, and told to hand over the shifts it saw before it was registered.
WATCH_SHIFTS = """
window.__shifts = [];
const describe = (node) => {
  if (!node) return "(gone)";
  if (node.nodeType !== 1) return `${node.nodeName} in ${describe(node.parentElement)}`;
  const classes = [...node.classList].map((c) => `.${c}`).join("");
  return node.tagName.toLowerCase() + (node.id ? `#${node.id}` : "") + classes;
};
const box = (r) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.hadRecentInput) continue;
    const sources = (e.sources || []).map((s) =>
      `${describe(s.node)}: ${box(s.previousRect)} -> ${box(s.currentRect)}`);
    window.__shifts.push({ value: e.value, at_ms: Math.round(e.startTime), sources });
  }
}).observe({ type: "layout-shift", buffered: true });
"""

# Two frames, then an idle moment: whatever the last event set off has been laid out and painted.
SETTLED = """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(
  () => requestIdleCallback(() => done(), { timeout: 1000 }))))"""


@pytest.mark.parametrize("device", [pytest.param(PHONE, id="phone"),
                                    pytest.param({"viewport": {"width": 1280, "height": 800}}, id="screen")])
def test_the_table_screen_does_not_move_while_it_loads(browser, live, live_tables, device):
    # The table bench/pageload.py measures: BLANKO, two players, a word laid.
    code, host, tokens, _ = live_tables.seated("blanko", ["Anna", "Béla"], draw_start=False)
    live_tables.ok(code, tokens["Anna"], "blanko.lay", words=["ALMA"], placed=4)
    hosted = json.dumps({"token": host, "join_url": f"{live.url}/t/{code}", "game": "blanko"})
    ctx = browser.new_context(**device, locale="en-GB")
    ctx.add_init_script(f"localStorage.setItem('tc.host.{code}', {json.dumps(hosted)});\n{WATCH_SHIFTS}")
    # What comes late comes after the table is drawn: the QR code (as in 2 of 3 of Lighthouse's
    # runs) and the socket's "ready" (the status turns online). Whatever stands in for them
    # until then must take their place.
    qr, sockets = [], []
    ctx.route("**/qr.svg", lambda route: qr.append(route))
    ctx.route_web_socket("**/ws/**", lambda ws: sockets.append(ws))
    page = ctx.new_page()
    page.goto(f"{live.url}/?table={code}")
    expect(page.locator("#board .bk-scores")).to_be_visible()
    page.evaluate(SETTLED)
    deadline = time.monotonic() + 15
    while not (qr and sockets) and time.monotonic() < deadline:  # asked for at once, heard of here soon
        page.wait_for_timeout(50)
    assert qr and sockets, "the screen asked for its QR code and opened its socket"
    expect(page.locator("#status")).to_have_attribute("data-status", "connecting")
    qr[0].continue_()
    sockets[0].connect_to_server()
    expect(page.locator("#status")).to_have_attribute("data-status", "online")
    page.wait_for_function("() => document.querySelector('.qr').naturalWidth > 0")
    page.evaluate(SETTLED)
    shifts = page.evaluate("window.__shifts")
    assert sum(s["value"] for s in shifts) == 0, json.dumps(shifts, indent=1)
    ctx.close()
