"""Game-agnostic search players over belief samples: ISMCTS and determinized MCTS.

A game opts in by implementing :class:`~sleuth.core.searchmodel.SearchModel` (at least a world
sampler) and registering :func:`~sleuth.search.players.search_bots`; see ``docs/search.md``.
"""
