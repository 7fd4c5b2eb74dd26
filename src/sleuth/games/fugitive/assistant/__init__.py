"""The Marshal at a real table: her typed entries and the notepad session of ``sleuth assist
fugitive``."""
