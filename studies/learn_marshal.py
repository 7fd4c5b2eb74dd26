"""A Fugitive Marshal that learns (the Fugitive source's plan: her notes are what she reads
and her action mask).

    python studies/learn_marshal.py train --steps 20000 --imitate 400    # study-output/
    python studies/learn_marshal.py evaluate study-output/learn-marshal*.zip --games 400
    python studies/learn_marshal.py train --quick                         # 2,048 steps (CI)

``train`` fits sb3-contrib's MaskablePPO (the ``learn`` extra) for the Marshal of the 1st
edition with the default options (no round limit) against the ``heuristic`` Fugitive
(``sleuth/Fugitive-Marshal-v0``, ``opponent="heuristic"``), with the belief segments on: the
exact hideout odds and the numbers still possible, read from her view; MaskablePPO never
samples an id outside the mask.  Her reward is 1 for a win, else 0.  With ``--imitate G`` the
policy first imitates the ``belief`` Marshal in G games.  It saves the model (``--model``,
default ``study-output/learn-marshal.zip``) and, with ``--every N``, a copy every N steps for
the learning curve.  ``evaluate`` plays each model named (default: the model Sleuth ships,
``src/sleuth/games/fugitive/models/ppo.zip``) as the ``ppo`` bot in ``sleuth play fugitive
--bots heuristic,ppo`` games and prints each side's win rate with its 95% interval;
``--against`` names another Fugitive (``elusive``, ``random``).  docs/learning.md has the
results.
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
    teacher="belief",
    layers=(64, 64),
)
"""64×64 layers: her observation is 971 entries wide, so 128×128 would save 1.2 MB."""
SHIPPED = Path(sleuth.__file__).parent / "games" / "fugitive" / "models" / "ppo.zip"

if __name__ == "__main__":
    main(SETTING, __doc__ or "", DEFAULT_OUT / "learn-marshal.zip", SHIPPED)
