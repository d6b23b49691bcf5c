"""The pure rules engine: dice, rulesets, round state, the engine and the text forms.

No third-party dependency, no randomness and no I/O beyond reading ruleset and paytable files.
"""
