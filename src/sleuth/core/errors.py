"""Exceptions raised by Sleuth.  Every one names the culprit in its message."""


class SleuthError(Exception):
    """Base class of every error Sleuth raises on bad input."""


class IllegalActionError(SleuthError, ValueError):
    """An action that the rules do not allow in the current state (the state is unchanged)."""


class ActionParseError(SleuthError, ValueError):
    """A text that is not the text form of any action of the game."""


class NumberTextError(SleuthError, ValueError):
    """A typed text that should be a whole number and is not one Sleuth reads (not the digits
    0-9, or more digits than any number of a game has)."""


class OptionError(SleuthError, ValueError):
    """An unknown game option, or an option value that cannot be used."""


class UnknownNameError(SleuthError, KeyError):
    """An unknown game or bot name."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class LogError(SleuthError, ValueError):
    """A malformed or tampered game log; the message names the line and the problem."""


class SolverLimitError(SleuthError, RuntimeError):
    """A solver input too large to be answered within its documented limit."""


class PositionError(SleuthError, ValueError):
    """A game position that the rules cannot produce (a camel missing or twice, a tile on a
    camel, ...); the message names the culprit."""


class ContradictionError(SleuthError):
    """Events that no hidden state explains (a mistyped entry at the table, a tampered view):
    a belief raises it naming the first such event (see :mod:`sleuth.core.belief`)."""
