// One page for every screen: /t/CODE is a phone at a table, /stats the stats across tables,
// /league a club's league (the room's screen), /venue a café's tables (the staff's screen and
// its tents to print), /v/VENUE/LABEL the tent on a physical table, anything else the table's
// screen. The catalogue of the device's language is loaded first, so the first screen is worded
// right.
import { startLanguage } from "./i18n.js";

await startLanguage();
if (location.pathname.startsWith("/t/")) import("./phone.js");
else if (location.pathname === "/stats") import("./stats.js");
else if (location.pathname === "/league") import("./league-screen.js");
else if (location.pathname === "/venue" || location.pathname === "/venue/print") import("./venue.js");
else if (location.pathname.startsWith("/v/")) import("./tent.js");
else import("./table-screen.js");
