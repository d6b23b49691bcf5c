"""Playing Hazard at a table: players, stakes, side bets, dice passing, dice sources, bots and the record."""
