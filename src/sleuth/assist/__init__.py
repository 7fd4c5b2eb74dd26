"""Table-side assistants: a person types what happens at a real table, the assistant checks
each entry against the rules and shows what can be deduced (see :mod:`sleuth.assist.repl`)."""
