"""What the Marshal can deduce: the exact belief's compiled programme and its parts, the notepad's
advice, the endgame, the opponent model and the baseline notes."""
