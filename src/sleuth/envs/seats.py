"""What the PettingZoo and Gymnasium adapters share: a game made from option texts with its
encoding, the agents' names, the spaces, and the text of a seat's view.

Invariant: the spaces of one game are the same for every seat (one encoding serves all), and
every observation an :class:`~sleuth.envs.episode.Episode` gives lies in them (the check kit
holds each encoding to its segments' bounds).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from sleuth.core.encoding import Encoding
from sleuth.core.registry import game_spec
from sleuth.envs.episode import Episode
from sleuth.render import describe


def encoded_game(name: str, options: Mapping[str, Any], belief: bool) -> Encoding[Any]:
    """The encoding of the game ``name`` made from ``options`` (texts or typed values, read by
    the game's :meth:`~sleuth.core.registry.GameSpec.make`: bad ones are the CLI's errors); a
    game with no encoding, or no belief to add when ``belief`` is asked for, is an error."""
    spec = game_spec(name)
    encoding = spec.encoding_for(spec.make(options))
    if belief and not encoding.belief_segments:
        raise ValueError(f"{name} has no belief to add to its observations (belief=False)")
    return encoding


def agent_names(roles: Sequence[str]) -> list[str]:
    """Each seat's agent name from the seats' ``roles``: its role when no other seat has that
    role, else ``role_seat`` (``player_0`` .. ``player_3``)."""
    return [role if roles.count(role) == 1 else f"{role}_{seat}" for seat, role in enumerate(roles)]


def observation_space(encoding: Encoding[Any], belief: bool) -> spaces.Dict:
    """``observation`` (float32 within the segments' bounds) and ``action_mask`` (int8, 0/1)."""
    low, high = encoding.bounds(belief)
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, low.shape, np.float32),
            "action_mask": spaces.Box(0, 1, (encoding.action_count,), np.int8),
        }
    )


def observe(episode: Episode, seat: int) -> dict[str, Any]:
    """``seat``'s observation as the spaces of :func:`observation_space` hold it (fresh arrays)."""
    return {"observation": episode.observe(seat), "action_mask": episode.mask(seat)}


def view_text(episode: Episode, seat: int) -> str:
    """``seat``'s view in words: every event it saw in the game's own text forms (those of the
    web app's transcript), then, when it is to move, the ids chosen so far and the legal ids."""
    game, encoding = episode.game, episode.encoding
    lines = [f"{game.name}: seat {seat} ({game.roles[seat]})"]
    lines += [f"  {describe(game, event, seat)}" for event in episode.views[seat].events]
    if episode.over:
        wins = ", ".join(f"{share:g}" for share in episode.wins())
        lines.append(f"game over: win shares {wins}")
    elif episode.seat == seat:
        prefix = " ".join(encoding.id_text(i) for i in episode.builder.prefix)
        if prefix:
            lines.append(f"chosen so far: {prefix}")
        legal = ", ".join(f"{i} {encoding.id_text(i)}" for i in episode.builder.legal_ids())
        lines.append(f"legal ids: {legal}")
    return "\n".join(lines)
