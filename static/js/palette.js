// The players' colours, by seat, on every chart: the live BLANKO chart draws with them here,
// and the server draws the record's and the stats' charts from this same list
// (companion/record/charts.py reads it), so a player keeps one colour all evening.
// Okabe and Ito's palette: told apart with every common colour blindness.
export const PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442", "#7f7f7f", "#8c564b"];
