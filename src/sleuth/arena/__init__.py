"""Tournaments: scheduling and seat rotation, parallel backends, the results store, statistics."""
