"""BLANK: an UNO-like card game whose owner's deck gains a Rule Card or a custom Game Card with
every win (rules/blank.txt)."""
