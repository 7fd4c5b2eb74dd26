"""The table-side assistants in the browser (``/assist``): every ``sleuth assist GAME``
session with an entry box, a history with undo, edit, delete and insert, save and load of the
view log, the assistant's rendering and the game's own visuals.  (To be filled in.)"""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(prefix="/assist")
