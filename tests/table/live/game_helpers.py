"""What the game-record tests share: the ruleset, the game's setup and entries built from actions."""

from __future__ import annotations

from hazard.core.rulesets import find_paytable, find_ruleset
from hazard.table.rules.actions import Actor

WIKIPEDIA = find_ruleset("wikipedia")
WIKI_PAYS = find_paytable("wikipedia")
ANN, BOB = Actor.player("Ann"), Actor.player("Bob")
