"""The Fugitive and Marshal players behind ``bots.py``."""
