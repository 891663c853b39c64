// UI text in English and Hungarian, picked from the browser and switchable.

const STRINGS = {
  en: {
    app: "Table Companion", newTable: "New table", create: "Create table", game: "Game",
    joinHint: "Scan to join, or open", code: "Table code", players: "Players", noPlayers: "Nobody has joined yet.",
    start: "Start game", lock: "Lock table", unlock: "Unlock table", end: "End game", undo: "Undo",
    remove: "Remove", history: "History", pastGames: "Finished games", close: "Close",
    yourName: "Your name", join: "Join", joining: "Joining…", locked: "The table is locked.",
    online: "online", offline: "reconnecting…", connecting: "connecting…",
    lobby: "Waiting for the host to start", ended: "Game over", removedMsg: "You were removed from this table.",
    timer: "Hourglass", startTimer: "Start", flip: "Flip", pause: "Pause", resume: "Resume", reset: "Reset",
    timeUp: "Time is up!", sound: "Sound on", language: "Magyar", options: "Options", confirmEnd: "End the game for everyone?",
    turnOf: "Turn", yourTurn: "Your turn", result: "Result", noHistory: "Nothing has happened yet.",
    undone: "undone", tableCode: "Code", openTable: "Open the table screen", leave: "Leave",
    rf_variant: "Deck", rf_full: "Full (2–10)", rf_easy: "Easy (2–8)", rf_helper: "Show the helper",
    rf_kings: "Kings expansion", rf_joker: "Joker expansion", rf_aces: "Aces flipped",
    rf_guess: "Guess", rf_right: "Right", rf_wrong: "Wrong", rf_pickCard: "Tap a face-down card of another player.",
    rf_number: "Number", rf_ownPos: "Which of your cards shows it?", rf_done: "Number is done",
    rf_won: "The team won!", rf_lost: "The team lost.", rf_possible: "could be", rf_king: "Play King",
    rf_declareJoker: "I hold the Joker", rf_revealJoker: "Reveal Joker", rf_cancel: "Cancel",
  },
  hu: {
    app: "Asztali társ", newTable: "Új asztal", create: "Asztal létrehozása", game: "Játék",
    joinHint: "Csatlakozás: olvasd be, vagy nyisd meg", code: "Asztalkód", players: "Játékosok", noPlayers: "Még senki sem csatlakozott.",
    start: "Játék indítása", lock: "Asztal zárása", unlock: "Asztal nyitása", end: "Játék vége", undo: "Visszavonás",
    remove: "Eltávolítás", history: "Előzmények", pastGames: "Befejezett játékok", close: "Bezárás",
    yourName: "Neved", join: "Csatlakozás", joining: "Csatlakozás…", locked: "Az asztal zárva van.",
    online: "kapcsolódva", offline: "újrakapcsolódás…", connecting: "kapcsolódás…",
    lobby: "Várakozás, hogy a házigazda elindítsa", ended: "Vége a játéknak", removedMsg: "Eltávolítottak erről az asztalról.",
    timer: "Homokóra", startTimer: "Indítás", flip: "Megfordítás", pause: "Szünet", resume: "Folytatás", reset: "Alaphelyzet",
    timeUp: "Lejárt az idő!", sound: "Hang be", language: "English", options: "Beállítások", confirmEnd: "Mindenkinek véget ér a játék?",
    turnOf: "Soron", yourTurn: "Te jössz", result: "Eredmény", noHistory: "Még semmi sem történt.",
    undone: "visszavonva", tableCode: "Kód", openTable: "Asztal képernyő megnyitása", leave: "Kilépés",
    rf_variant: "Pakli", rf_full: "Teljes (2–10)", rf_easy: "Könnyű (2–8)", rf_helper: "Segítség mutatása",
    rf_kings: "Király kiegészítő", rf_joker: "Joker kiegészítő", rf_aces: "Felfordított ászok",
    rf_guess: "Tipp", rf_right: "Talált", rf_wrong: "Nem talált", rf_pickCard: "Koppints egy másik játékos lefordított lapjára.",
    rf_number: "Szám", rf_ownPos: "Melyik lapod ez a szám?", rf_done: "A szám kész",
    rf_won: "A csapat nyert!", rf_lost: "A csapat vesztett.", rf_possible: "lehet", rf_king: "Király kijátszása",
    rf_declareJoker: "Nálam a Joker", rf_revealJoker: "Joker felfedése", rf_cancel: "Mégse",
  },
};

const saved = (() => { try { return localStorage.getItem("tc.lang"); } catch { return null; } })();
let lang = saved || ((navigator.language || "en").toLowerCase().startsWith("hu") ? "hu" : "en");
document.documentElement.lang = lang;

export function t(key) {
  return STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
}

export function currentLanguage() {
  return lang;
}

export function toggleLanguage() {
  lang = lang === "hu" ? "en" : "hu";
  try { localStorage.setItem("tc.lang", lang); } catch { /* ignore */ }
  document.documentElement.lang = lang;
  window.dispatchEvent(new Event("languagechange-app"));
}

// Games add their own strings here, keeping each game's text beside its view.
export function addStrings(table) {
  for (const [l, entries] of Object.entries(table)) Object.assign(STRINGS[l], entries);
}
