// One page for both screens: /t/CODE is a phone at a table, anything else the table's screen.
// The catalogue of the device's language is loaded first, so the first screen is worded right.
import { startLanguage } from "./i18n.js";

await startLanguage();
if (location.pathname.startsWith("/t/")) import("./phone.js");
else import("./table-screen.js");
