// Driven by bench/pageload.py: Lighthouse (mobile emulation, its default simulated throttling)
// on each page, each in a fresh Chromium profile, then an idle phone's main-thread time over a
// quiet spell from Chromium's own counters (Performance.getMetrics), then the same phone's
// while the hourglass's sand runs (`sand.start`: the command that starts it, sent by the
// host). Prints one JSON document.
//
//   node bench/pageload.mjs '{"modules": "bench/.lighthouse/node_modules", "chrome": "/usr/bin/chromium",
//                            "flags": [...], "runs": 1, "pages": [...], "idle": {...}}'
// Lighthouse and its puppeteer-core are taken from the pinned install the Python side made.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const job = JSON.parse(process.argv[2]);
const from = (path) => import(pathToFileURL(join(job.modules, path)).href);
const { default: lighthouse } = await from("lighthouse/core/index.js");
const { default: puppeteer } = await from("puppeteer-core/lib/esm/puppeteer/puppeteer-core.js");
const { defaultSettings: lighthouseDefaults } = await from("lighthouse/core/config/constants.js");

async function browserWith(storage, origin) {
  const browser = await puppeteer.launch({ executablePath: job.chrome, args: job.flags, headless: true });
  if (storage) {
    // What a device already holds (the host's token for the table screen), set on a page of
    // the origin that runs none of the app; Lighthouse is then told to keep storage.
    const page = await browser.newPage();
    await page.goto(`${origin}/healthz`);
    await page.evaluate((items) => { for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); }, storage);
    await page.close();
  }
  return browser;
}

async function audit({ name, url, storage, origin, throttling }, run) {
  const browser = await browserWith(storage, origin);
  try {
    const page = await browser.newPage();
    // `throttling`: another line than Lighthouse's slow 4G (a room's Wi-Fi), still simulated.
    const flags = { output: "json", logLevel: "error", onlyCategories: ["performance"], disableStorageReset: true,
      ...(throttling ? { throttling: { ...lighthouseDefaults.throttling, ...throttling } } : {}) };
    const { lhr } = await lighthouse(url, flags, undefined, page);
    if (job.dump) writeFileSync(join(job.dump, `${name.replaceAll(" ", "-")}-${run}.json`), JSON.stringify(lhr));
    const a = lhr.audits;
    const shifts = (a["layout-shifts"]?.details?.items || []).map((i) => ({ score: i.score, node: i.node?.snippet || i.node?.selector || "" }));
    return {
      score: Math.round(lhr.categories.performance.score * 100),
      lcp_s: a["largest-contentful-paint"].numericValue / 1000,
      cls: a["cumulative-layout-shift"].numericValue,
      tbt_ms: a["total-blocking-time"].numericValue,
      fcp_s: a["first-contentful-paint"].numericValue / 1000,
      lcp_element: a["largest-contentful-paint-element"]?.details?.items?.[0]?.items?.[0]?.node?.snippet || "",
      shifts,
      transfer_kib: (a["total-byte-weight"]?.numericValue || 0) / 1024,
    };
  } finally {
    await browser.close();
  }
}

// A phone's cost over `seconds`: main-thread time, layouts, style recalculations and the
// page's animation-frame callbacks. `start` (a URL, the host's token and a command) is sent
// once the page has settled, and the page settles again before it is watched.
async function watch({ url, seconds, settle_s, start }) {
  const browser = await browserWith(null, null);
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 390, height: 844, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    await page.evaluateOnNewDocument(() => {
      window.__frames = 0;
      const raf = window.requestAnimationFrame.bind(window);
      window.requestAnimationFrame = (cb) => raf((t) => { window.__frames += 1; cb(t); });
    });
    await page.goto(url, { waitUntil: "networkidle2" });
    await new Promise((r) => setTimeout(r, settle_s * 1000));
    if (start) {
      const r = await fetch(start.url, { method: "POST", body: JSON.stringify(start.command),
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${start.token}` } });
      if (!r.ok) throw new Error(`${start.command.type}: ${r.status}`);
      await page.waitForSelector(".hourglass[data-phase=running]");
      // The glass in sight, as well as the header's bar: sand out of sight costs nothing.
      await page.evaluate(() => document.querySelector(".hourglass").scrollIntoView({ block: "center" }));
      await new Promise((r) => setTimeout(r, settle_s * 1000));
    }
    const cdp = await page.createCDPSession();
    await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
    const read = async () => Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
    const f0 = await page.evaluate(() => window.__frames);
    const m0 = await read();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const m1 = await read();
    const f1 = await page.evaluate(() => window.__frames);
    const d = (k) => m1[k] - m0[k];
    return {
      seconds,
      cpu_pct: (100 * d("TaskDuration")) / seconds,
      script_ms: 1000 * d("ScriptDuration"),
      layouts: d("LayoutCount"),
      style_recalcs: d("RecalcStyleCount"),
      frames: f1 - f0,
    };
  } finally {
    await browser.close();
  }
}

const out = { pages: [], idle: null, sand: null };
for (const p of job.pages) {
  const runs = [];
  for (let i = 0; i < job.runs; i++) runs.push(await audit(p, i));
  out.pages.push({ name: p.name, runs });
}
if (job.idle) out.idle = await watch(job.idle);
if (job.sand) out.sand = await watch(job.sand);
process.stdout.write(JSON.stringify(out));
