// The shared hourglass: drawn every frame from the server's deadline and the synced clock.
//
// Remaining time is ends_at_ms - (clientNow() + offset), computed afresh in each animation
// frame; nothing counts intervals, so a hidden tab or a phone whose clock is minutes off still
// shows what every other phone shows. At zero each phone beeps and vibrates once (sound needs
// a first tap, as browsers require), and the Wake Lock keeps the screen on while sand runs.

import { h, svg } from "./dom.js";
import { t } from "./i18n.js";

const PRESETS = [30, 60, 90, 120, 180];

function formatSeconds(ms) {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

let audio = null;
function unlockAudio() {
  if (audio) return;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (Ctx) audio = new Ctx();
}
document.addEventListener("pointerdown", unlockAudio, { once: true });

function chime() {
  if (!audio) return;
  const now = audio.currentTime;
  [0, 0.35, 0.7].forEach((dt, i) => {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = i === 2 ? 1046 : 784;
    gain.gain.setValueAtTime(0.0001, now + dt);
    gain.gain.exponentialRampToValueAtTime(0.4, now + dt + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + dt + 0.3);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + dt);
    osc.stop(now + dt + 0.32);
  });
}

export class HourglassView {
  constructor(root, { send, clock }) {
    this.send = send;
    this.clock = clock;
    this.timer = null;
    this.alarmedFor = null;
    this.wakeLock = null;
    this.topSand = svg("polygon", { class: "sand" });
    this.bottomSand = svg("polygon", { class: "sand" });
    this.stream = svg("line", { class: "stream", x1: 50, x2: 50, y1: 60, y2: 112 });
    this.digits = h("div", { class: "hg-digits", "aria-live": "off", text: "1:00" });
    this.status = h("div", { class: "hg-status", role: "status" });
    this.buttons = h("div", { class: "hg-buttons" });
    this.presets = h("div", { class: "hg-presets" });
    this.el = h("section", { class: "card hourglass", "aria-label": t("timer") },
      svg("svg", { viewBox: "0 0 100 170", class: "hg-glass", "aria-hidden": "true" },
        svg("path", { class: "glass", d: "M15 5 H85 M15 165 H85 M20 5 C20 55 48 70 48 85 C48 100 20 115 20 165 M80 5 C80 55 52 70 52 85 C52 100 80 115 80 165" }),
        this.topSand, this.bottomSand, this.stream),
      h("div", { class: "hg-readout" }, this.digits, this.status), this.buttons, this.presets);
    root.replaceChildren(this.el);
    const loop = () => { this.frame(); requestAnimationFrame(loop); };
    requestAnimationFrame(loop);
    // rAF stops in hidden tabs; the alarm must still sound there when a phone is in a pocket.
    setInterval(() => { if (document.hidden) this.frame(); }, 250);
  }

  update(timer) {
    this.timer = timer;
    delete this.el.dataset.phase; // redraw the buttons at the next frame
    this.keepAwake(timer.running);
  }

  remaining() {
    const tm = this.timer;
    if (!tm) return 0;
    if (!tm.running || tm.ends_at_ms === null) return tm.remaining_ms;
    return Math.max(0, Math.min(tm.duration_ms, tm.ends_at_ms - this.clock.serverNow()));
  }

  frame() {
    const tm = this.timer;
    if (!tm) return;
    const left = this.remaining();
    const frac = tm.duration_ms ? left / tm.duration_ms : 0;
    const running = tm.running && left > 0;
    const done = left === 0 && (tm.phase === "done" || tm.running);
    const secs = Math.ceil(left / 1000);
    if (this.digits.dataset.remainingS !== String(secs)) {
      this.digits.textContent = formatSeconds(left);
      this.digits.dataset.remainingS = String(secs);
    }
    const phase = done ? "done" : running ? "running" : tm.phase;
    if (phase !== this.el.dataset.phase) {
      this.el.dataset.phase = phase;
      this.renderButtons(phase);
    }
    this.status.textContent = done ? t("timeUp") : "";
    // Top bulb: sand level falls toward the neck; bottom bulb: a heap that grows.
    const topY = 80 - 70 * Math.sqrt(frac);
    const halfTop = 3 + 30 * Math.sqrt(frac);
    this.topSand.setAttribute("points", `${50 - halfTop},${topY} ${50 + halfTop},${topY} 50,82`);
    const heap = 160 - 62 * Math.sqrt(1 - frac);
    this.bottomSand.setAttribute("points", `22,162 78,162 ${50 + 8},${heap + 6} 50,${heap} ${50 - 8},${heap + 6}`);
    this.stream.style.opacity = running ? "1" : "0";
    if (done && tm.ends_at_ms && this.alarmedFor !== tm.ends_at_ms) {
      this.alarmedFor = tm.ends_at_ms;
      chime();
      navigator.vibrate?.([300, 120, 300, 120, 500]);
      this.keepAwake(false);
    }
  }

  renderButtons(phase) {
    const tm = this.timer;
    const btn = (label, type, extra = {}) => h("button", { class: "btn", type: "button", onclick: () => this.send({ type, ...extra }) }, label);
    this.buttons.replaceChildren(
      phase === "running" ? btn(t("pause"), "timer.pause") : phase === "paused" ? btn(t("resume"), "timer.resume") : btn(t("startTimer"), "timer.start"),
      btn(t("flip"), "timer.flip"),
      btn(t("reset"), "timer.reset"),
    );
    this.presets.replaceChildren(...PRESETS.map((s) => h("button", {
      class: `chip${tm.duration_ms === s * 1000 ? " chip-on" : ""}`, type: "button",
      onclick: () => this.send({ type: "timer.start", seconds: s }),
    }, formatSeconds(s * 1000))));
  }

  async keepAwake(on) {
    if (!("wakeLock" in navigator) || !window.isSecureContext) return;
    try {
      if (on && !this.wakeLock) {
        this.wakeLock = await navigator.wakeLock.request("screen");
        this.wakeLock.addEventListener("release", () => { this.wakeLock = null; });
      } else if (!on && this.wakeLock) {
        await this.wakeLock.release();
        this.wakeLock = null;
      }
    } catch { /* the browser said no (battery saver, hidden tab): the timer still works */ }
  }
}
