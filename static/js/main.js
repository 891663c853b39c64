// One page for both screens: /t/CODE is a phone at a table, anything else the table's screen.
if (location.pathname.startsWith("/t/")) import("./phone.js");
else import("./table-screen.js");
