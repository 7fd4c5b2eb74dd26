"""Scotland Yard: boards so far (:mod:`.board`, and Sleuth's own board from :mod:`.generate`).

The game is not registered yet: its rules engine does not exist.
"""
