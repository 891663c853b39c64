"""BLDNG: each player builds a hidden project of coloured shapes; jolly cards are wild."""
