// The shared hourglass: drawn from the server's deadline and the synced clock.
//
// Remaining time is ends_at_ms - (clientNow() + offset), computed afresh at each drawing;
// nothing counts intervals, so a hidden tab or a phone whose clock is minutes off still shows
// what every other phone shows. At zero each phone that watched the sand run beeps and vibrates
// once (a page opened on time's up only shows it). The sand's whole run is known from one
// deadline, so the browser moves it: the sand and the header's bar are
// Web Animations as long as the glass, set to the time already run and paused or played with
// the glass (no animation-frame callbacks at all). The page draws again only when something
// changes: at each whole second while sand runs (one timer, aimed at the second boundary, for
// the digits), when the server's state or the clock's estimate changes, and when the tab is
// shown again (a hidden tab's timers are throttled: docs/timer.md). A glass the server has put
// away (phase "stopped": the game is decided) is still, with no buttons.
//
// A compact bar in the sticky header shows the glass with its time and its one button (Start,
// Pause, Resume, Flip), so both are in sight and in reach however long the game's screen and
// however far down a player has scrolled; it is there from the start, not only once the sand
// runs, so the first Start needs no scroll and the header does not grow under the finger that
// taps it. Browsers only let a page make sound after a tap: until then the bar says the sound
// is off.
//
// A tap never moves what it lands on, nor what the next tap is aimed at: a button keeps the
// width of its widest label (`data-room`, app.css), and the worded sound-off notice that goes
// with the first tap leaves its room at the page's end, so a page scrolled to its end is as long
// as before and does not scroll back under the finger (docs/timer.md).
//
// The screen is kept awake while sand runs: with the Wake Lock API on HTTPS, and on plain HTTP
// (where that API is missing) the way NoSleep.js does it, with a tiny silent looping video that
// stops with the sand.

import { assetUrl } from "./assets.js";
import { afterTap, h, svg } from "./dom.js";
import { t } from "./i18n.js";

const PRESETS = [30, 60, 90, 120, 180];

export function formatSeconds(ms) {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

let audio = null;
const soundListeners = new Set();
const soundReady = () => audio !== null && audio.state === "running";
function unlockAudio() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx || soundReady()) return;  // on: every later tap and key has nothing to change
  if (!audio) audio = new Ctx();
  // The notice goes once the tap that turned the sound on has landed (dom.js, afterTap).
  const told = () => afterTap(() => { for (const fn of soundListeners) fn(); });
  if (audio.state === "suspended") audio.resume().then(told, () => {}); else told();
}
document.addEventListener("pointerdown", unlockAudio);
document.addEventListener("keydown", unlockAudio);

// The chime's three tones from `at` on the audio clock; its oscillators, to take it back.
function chime(at = audio.currentTime) {
  return [0, 0.35, 0.7].map((dt, i) => {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = i === 2 ? 1046 : 784;
    gain.gain.setValueAtTime(0.0001, at + dt);
    gain.gain.exponentialRampToValueAtTime(0.4, at + dt + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + dt + 0.3);
    osc.connect(gain).connect(audio.destination);
    osc.start(at + dt);
    osc.stop(at + dt + 0.32);
    return osc;
  });
}

// The chime set on the audio clock for a run's deadline while its sand runs: audio is not
// throttled where a hidden tab's timers are (up to a second late in Firefox, docs/timer.md), so
// the table hears time's up on time whatever the page's timers do. Set again when the clock's
// estimate moves it, taken back when the glass stops before its end.
const BELL_SLACK_S = 0.05;
const bell = {
  deadline: null, // the run it is set for (its ends_at_ms)
  at: 0,
  tones: [],
  set(deadline, leftMs) {
    if (!soundReady()) { this.cancel(); return; }
    const at = audio.currentTime + leftMs / 1000;
    if (this.deadline === deadline && Math.abs(at - this.at) < BELL_SLACK_S) return;
    this.cancel();
    Object.assign(this, { deadline, at, tones: chime(at) });
  },
  cancel() {
    for (const osc of this.tones) osc.disconnect();
    Object.assign(this, { deadline: null, tones: [] });
  },
  // Time's up for the run ending at `deadline`: rung already (or ringing) if it was set for it
  // and the audio clock has got there; else now (an audio clock that stood still while the
  // phone slept, as an iPhone's does, would ring it late).
  ring(deadline) {
    const rung = this.deadline === deadline && audio.currentTime >= this.at - BELL_SLACK_S;
    if (rung) Object.assign(this, { deadline: null, tones: [] });
    else {
      this.cancel();
      if (soundReady()) chime();
    }
  },
};

// Keeping the screen on: the Wake Lock where the browser offers it (secure pages), otherwise a
// muted, inline, looping video of a few pixels, which phones treat as "someone is watching".
class KeepAwake {
  constructor() {
    this.lock = null;
    this.video = null;
    this.on = false;
    document.addEventListener("visibilitychange", () => { if (this.on && document.visibilityState === "visible") this.set(true); });
  }

  async set(on) {
    this.on = on;
    if ("wakeLock" in navigator && window.isSecureContext) {
      try {
        if (on && !this.lock) {
          this.lock = await navigator.wakeLock.request("screen");
          this.lock.addEventListener("release", () => { this.lock = null; });
        } else if (!on && this.lock) {
          await this.lock.release();
          this.lock = null;
        }
      } catch { /* the browser said no (battery saver, hidden tab): the timer still works */ }
      return;
    }
    if (on) {
      if (!this.video) {
        this.video = h("video", { class: "keep-awake", muted: true, playsinline: true, loop: true, "aria-hidden": "true", tabindex: "-1", dataset: { keepAwake: "1" } },
          h("source", { src: assetUrl("/static/media/keep-awake.webm"), type: "video/webm" }));
        this.video.muted = true;
        document.body.append(this.video);
      }
      this.video.play().catch(() => { /* needs a tap first: the next tap starts it */ });
    } else if (this.video) {
      this.video.pause();
    }
  }

  get active() {
    return this.lock !== null || (this.video !== null && !this.video.paused);
  }
}

const awake = new KeepAwake();
document.addEventListener("pointerdown", () => { if (awake.on) awake.set(true); });

// The sand's shapes over a run, as keyframes of the share of the glass run through (0 to 1):
// the top bulb's triangle shrinks toward the neck and the bottom's heap grows, each sized by
// the square root of the sand it holds (a triangle's height goes with the root of its area);
// the bar empties evenly. Steps are even in the root, so the quick end is as smooth.
const STEPS = 16;
const SAND_MOVES = {
  top: Array.from({ length: STEPS + 1 }, (_, k) => {
    const s = 1 - k / STEPS;
    return { offset: 1 - s * s, transform: `scale(${s})` };
  }),
  bottom: Array.from({ length: STEPS + 1 }, (_, k) => {
    const r = k / STEPS;
    return { offset: r * r, transform: `scaleY(${(2 + 62 * r) / 64})` };
  }),
  bar: [{ transform: "scaleX(1)" }, { transform: "scaleX(0)" }],
};
// A moving glass is set again only when it is further than this from where it should be.
const SLACK_MS = 25;

export class HourglassView {
  constructor(root, { send, clock }) {
    this.send = send;
    this.clock = clock;
    this.timer = null;
    this.alarmedFor = null;
    this.topSand = svg("polygon", { class: "sand top", points: "17,10 83,10 50,82" });
    this.bottomSand = svg("polygon", { class: "sand bottom", points: "22,162 78,162 58,104 50,98 42,104" });
    this.stream = svg("line", { class: "stream", x1: 50, x2: 50, y1: 60, y2: 112 });
    this.digits = h("div", { class: "hg-digits", "aria-live": "off", text: "1:00" });
    this.status = h("div", { class: "hg-status", role: "status" });
    this.buttons = h("div", { class: "hg-buttons" });
    this.presets = h("div", { class: "hg-presets" });
    this.el = h("section", { class: "card hourglass" },
      svg("svg", { viewBox: "0 0 100 170", class: "hg-glass", "aria-hidden": "true" },
        svg("path", { class: "glass", d: "M15 5 H85 M15 165 H85 M20 5 C20 55 48 70 48 85 C48 100 20 115 20 165 M80 5 C80 55 52 70 52 85 C52 100 80 115 80 165" }),
        this.topSand, this.bottomSand, this.stream),
      h("div", { class: "hg-readout" }, this.digits, this.status), this.buttons, this.presets);
    root.replaceChildren(this.el);
    // The compact bar lives in the sticky header, one per page.
    this.barDigits = h("span", { class: "hg-bar-digits" });
    this.barFill = h("span", { class: "hg-bar-fill" });
    this.barButton = h("button", { type: "button", class: "btn small hg-bar-button" });
    this.room = 0; // the height the card's sound-off notice left at the page's end
    // The sound-off notice: an icon in the bar, a worded button on the hourglass itself.
    const soundButton = (extra) => h("button", { type: "button", class: `btn small ghost hg-sound ${extra}`, hidden: true, onclick: unlockAudio },
      svg("svg", { viewBox: "0 0 24 24", class: "hg-sound-icon", "aria-hidden": "true" },
        svg("path", { d: "M4 9 H8 L13 5 V19 L8 15 H4 Z" }), svg("path", { d: "M16 9 L22 15 M22 9 L16 15", class: "cross" })),
      h("span", { class: "hg-sound-text" }));
    this.sound = soundButton("in-bar");
    this.soundCard = soundButton("in-card");
    this.el.append(this.soundCard);
    // The icon first: when it goes, the track takes its room and the button stays where it is.
    this.bar = h("div", { class: "hg-bar", id: "hg-bar", role: "timer", hidden: true },
      this.sound, h("span", { class: "hg-bar-track", "aria-hidden": "true" }, this.barFill), this.barDigits, this.barButton);
    const slot = document.getElementById("timer-bar");
    if (slot) slot.replaceChildren(this.bar);
    this.moves = [[this.topSand, SAND_MOVES.top], [this.bottomSand, SAND_MOVES.bottom], [this.barFill, SAND_MOVES.bar]]
      .map(([el, keyframes]) => {
        const move = el.animate(keyframes, { duration: 1, fill: "both", easing: "linear" });
        move.pause();
        return move;
      });
    this.tick = null;
    soundListeners.add(() => { this.wordSound(); this.draw(); }); // and the bell set, if sand runs
    window.addEventListener("languagechange-app", () => this.word());
    // Shown again: what is due now, at once, not at the next throttled timer of a hidden tab.
    document.addEventListener("visibilitychange", () => this.draw());
    clock.listeners.add(() => this.draw()); // a better estimate of the server's clock
    this.word();
  }

  // The sand where it should be now, moving or still; and, while it runs, the next drawing: at
  // the next whole second for the digits, or, in a hidden tab (where nobody reads them), at
  // the deadline, for the alarm. That one timer is set from an event, not from a timer, so it
  // is never a chained timer that a browser throttles harder after minutes in a pocket.
  move(running, left) {
    const tm = this.timer;
    const duration = Math.max(1, tm.duration_ms || 0);
    const run = duration - Math.min(left, duration);
    for (const move of this.moves) {
      if (move.effect.getTiming().duration !== duration) move.effect.updateTiming({ duration });
      if (!running || Math.abs(move.currentTime - run) > SLACK_MS) move.currentTime = run;
      if (running && move.playState !== "running") move.play();
      else if (!running && move.playState === "running") move.pause();
    }
    clearTimeout(this.tick);
    this.tick = null;
    if (running) this.tick = setTimeout(() => this.draw(), (document.hidden ? left : left % 1000 || 1000) + 4);
  }

  // Every word of the hourglass, again after a language switch.
  word() {
    this.el.setAttribute("aria-label", t("timer"));
    this.bar.setAttribute("aria-label", t("timeLeft"));
    delete this.el.dataset.phase; // buttons and status are re-worded now, not at the next tick,
    this.wordSound();             // which a hidden page may not draw for a while
    this.draw();
  }

  wordSound() {
    const off = !soundReady();
    // The card's notice about to go leaves its room (its row and the gap above it) at the page's
    // end, given before the notice goes: a layout between the two would scroll a page at its
    // end back (see the top of this file).
    if (off) this.room = 0;
    else if (!this.soundCard.hidden && this.soundCard.offsetHeight) {
      this.room += this.soundCard.offsetHeight + parseFloat(getComputedStyle(this.el).rowGap);
    }
    document.body.style.paddingBottom = this.room ? `${this.room}px` : "";
    for (const button of [this.sound, this.soundCard]) {
      button.hidden = !off;
      button.querySelector(".hg-sound-text").textContent = t("soundOff");
    }
    this.sound.setAttribute("aria-label", t("soundOff"));
    this.el.dataset.sound = off ? "off" : "on";
  }

  update(timer) {
    this.timer = timer;
    delete this.el.dataset.phase; // redraw the buttons
    awake.set(timer.running);
    this.draw();
  }

  remaining() {
    const tm = this.timer;
    if (!tm) return 0;
    if (!tm.running || tm.ends_at_ms === null) return tm.remaining_ms;
    return Math.max(0, Math.min(tm.duration_ms, tm.ends_at_ms - this.clock.serverNow()));
  }

  draw() {
    const tm = this.timer;
    if (!tm) return;
    const left = this.remaining();
    const running = tm.running && left > 0;
    const done = left === 0 && (tm.phase === "done" || tm.running);
    const secs = Math.ceil(left / 1000);
    if (this.digits.dataset.remainingS !== String(secs)) {
      this.digits.textContent = formatSeconds(left);
      this.digits.dataset.remainingS = String(secs);
      this.barDigits.textContent = done ? t("timeUp") : formatSeconds(left);
    }
    const phase = done ? "done" : running ? "running" : tm.phase;
    if (phase !== this.el.dataset.phase) {
      this.el.dataset.phase = phase;
      this.bar.dataset.phase = phase;
      this.renderButtons(phase);
      this.status.textContent = done ? t("timeUp") : "";
      this.barDigits.textContent = done ? t("timeUp") : formatSeconds(left);
      this.bar.hidden = phase === "stopped";
      document.body.classList.toggle("sand-running", phase === "running");
    }
    this.stream.style.opacity = running ? "1" : "0";
    this.move(running, left);
    if (running) {
      this.watched = tm.ends_at_ms; // the run this page saw sand in
      bell.set(tm.ends_at_ms, left);
    } else if (!done) bell.cancel();
    if (done && tm.ends_at_ms && this.alarmedFor !== tm.ends_at_ms) {
      this.alarmedFor = tm.ends_at_ms;
      // Only a run whose end this page lived through is called: a page opened (or reloaded)
      // on time's up shows it silently; and one nobody has tapped yet may not vibrate
      // (Chromium refuses it with an error on the console).
      if (this.watched === tm.ends_at_ms) {
        bell.ring(tm.ends_at_ms);
        if (navigator.userActivation?.hasBeenActive ?? true) navigator.vibrate?.([300, 120, 300, 120, 500]);
      }
      awake.set(false);
    }
  }

  renderButtons(phase) {
    const tm = this.timer;
    if (phase === "stopped") {
      this.buttons.replaceChildren();
      this.presets.replaceChildren();
      return;
    }
    const btn = (label, type, room = null) => h("button", { class: "btn", type: "button", dataset: room ? { room } : null, onclick: () => this.send({ type }) }, label);
    const main = phase === "running" ? [t("pause"), "timer.pause"] : phase === "paused" ? [t("resume"), "timer.resume"] : [t("startTimer"), "timer.start"];
    const labels = [t("startTimer"), t("pause"), t("resume")];
    this.buttons.replaceChildren(btn(...main, labels.join("\n")), btn(t("flip"), "timer.flip"), btn(t("reset"), "timer.reset"));
    this.barButton.textContent = phase === "done" ? t("flip") : main[0];
    this.barButton.dataset.room = [...labels, t("flip")].join("\n");
    this.barButton.onclick = () => this.send(phase === "done" ? { type: "timer.flip" } : { type: main[1] });
    this.presets.replaceChildren(...PRESETS.map((s) => h("button", {
      class: `chip${tm.duration_ms === s * 1000 ? " chip-on" : ""}`, type: "button",
      "aria-label": t("preset", { time: formatSeconds(s * 1000) }),
      onclick: () => this.send({ type: "timer.start", seconds: s }),
    }, formatSeconds(s * 1000))));
  }
}
