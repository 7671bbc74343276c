"""Game-neutral pieces that Off to the Tower needs and the layer does not yet have.

Nothing here names a game: each module could move to :mod:`dicekit`
unchanged.

- :mod:`tower.neutral.dice`: dice thrown together, of which one die is used;
- :mod:`tower.neutral.store`: a shared store of captured pieces;
- :mod:`tower.neutral.turns`: whose turn follows a move that may earn another throw;
- :mod:`tower.neutral.boarddata`: boards given as data, named or embedded.
"""
