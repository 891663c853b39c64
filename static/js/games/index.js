// The client side of each game: options form, the table's board, the phone's view.
import * as rankfile from "./rankfile.js";

export const GAMES = { rankfile };
