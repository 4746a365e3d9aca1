"""A game at the table without any widget: the scorekeeper, its advice worker, a player's record,
a tournament table's card and signed result, and what an export of games may carry."""
