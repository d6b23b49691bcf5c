"""The live table: replay, catch-up, sessions and one actor per game."""
