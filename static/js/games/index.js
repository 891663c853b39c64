// The client side of each game: options form, the table's board, the phone's view.
import * as blank from "./blank.js";
import * as blanko from "./blanko.js";
import * as bldng from "./bldng.js";
import * as rankfile from "./rankfile.js";

export const GAMES = { blank, blanko, bldng, rankfile };
