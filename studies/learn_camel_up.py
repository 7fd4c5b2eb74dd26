"""A Camel Up player that learns (the Camel Up source's aim: a model that handles risk).

    python studies/learn_camel_up.py train --steps 200000 --every 50000   # study-output/
    python studies/learn_camel_up.py evaluate study-output/learn-camel-up*.zip --games 400
    python studies/learn_camel_up.py train --quick                         # 2,048 steps (CI)

``train`` fits sb3-contrib's MaskablePPO (the ``learn`` extra) for the 1st edition with four
players: the learner against ``ev``, ``random`` and ``random``, one environment per seating
so that it plays every seat; its reward is its win share when the race is over.  It saves the
model (``--model``, default ``study-output/learn-camel-up.zip``) and, with ``--every N``, a
copy every N steps for the learning curve.  ``evaluate`` plays each model named (default: the
model Sleuth ships, ``src/sleuth/games/camel_up/models/ppo.zip``) as the ``ppo`` bot in
``sleuth play camel-up --bots ppo,ev,random,random`` games, seats rotated, and prints each
bot's win rate with its 95% interval.  docs/learning.md has the results.
"""

from __future__ import annotations

from pathlib import Path

from _args import DEFAULT_OUT
from _learning import Setting, main

import sleuth

SETTING = Setting("camel-up", "player", ("ppo", "ev", "random", "random"), rotate=True, belief=True)
SHIPPED = Path(sleuth.__file__).parent / "games" / "camel_up" / "models" / "ppo.zip"

if __name__ == "__main__":
    main(SETTING, __doc__ or "", DEFAULT_OUT / "learn-camel-up.zip", SHIPPED)
