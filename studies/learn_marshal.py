"""A Fugitive Marshal that learns (the Fugitive source's plan: her notes are what she reads
and her action mask).

    python studies/learn_marshal.py train --steps 20000 --imitate 400    # study-output/
    python studies/learn_marshal.py evaluate study-output/learn-marshal*.zip --games 400
    python studies/learn_marshal.py train --quick                         # 2,048 steps (CI)

``train`` fits sb3-contrib's MaskablePPO (the ``learn`` extra) for the Marshal of the 1st
edition with a round limit (``--max-rounds``, 50 by default: without one a game may go round
in circles for ever, F29; the model records it and plays only games with it) against the
``heuristic`` Fugitive (``sleuth/Fugitive-Marshal-v0``, ``opponent="heuristic"``), with the
belief segments on: the exact hideout odds and the numbers still possible, read from her view;
MaskablePPO never samples an id outside the mask.  Her reward is 1 for a win, else 0 (a draw
by the round limit is no win).  With ``--imitate G`` the policy first imitates a teacher in G
games (``--teacher``, by default ``belief:guess=argmax``, the belief Marshal whose guess is
one number, the likeliest; ``--imitate-against`` names other Fugitives for those games).  It
saves the model (``--model``, default ``study-output/learn-marshal.zip``) and, with ``--every
N``, a copy every N steps for the learning curve.  ``evaluate`` plays each model named
(default: the model Sleuth ships, ``src/sleuth/games/fugitive/models/ppo.zip``) as the ``ppo``
bot in ``sleuth play fugitive --bots heuristic,ppo -o max_rounds=50`` games and prints each
side's win rate and the draws with their 95% intervals; ``--against`` names another Fugitive
(``elusive``, ``random``).  docs/learning.md has the results.
"""

from __future__ import annotations

from pathlib import Path

from _args import DEFAULT_OUT
from _learning import Setting, main

import sleuth

SETTING = Setting(
    "fugitive",
    "marshal",
    ("heuristic", "ppo"),
    rotate=False,
    belief=True,
    options=(("max_rounds", 50),),
    teacher="belief:guess=argmax",
    layers=(64, 64),
)
"""64×64 layers: her observation is 971 entries wide, so 128×128 would save 1.2 MB.  Her
teacher names one number a guess: a guess is then one id and ``done``, which a policy imitates
far better than the several numbers of ``belief``'s ``gamble`` guesses (docs/learning.md)."""
SHIPPED = Path(sleuth.__file__).parent / "games" / "fugitive" / "models" / "ppo.zip"

if __name__ == "__main__":
    main(SETTING, __doc__ or "", DEFAULT_OUT / "learn-marshal.zip", SHIPPED)
