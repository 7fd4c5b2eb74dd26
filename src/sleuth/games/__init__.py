"""The games Sleuth implements; each subpackage has the same shape (rules, belief, bots, ...)."""
