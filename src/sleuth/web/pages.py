"""The page templates (``templates/``, ``base.html`` the layout every page extends), shared by
the application (:mod:`sleuth.web.app`: home, API and error pages) and its routers
(:mod:`sleuth.web.play`, :mod:`sleuth.web.assist`), which the application mounts."""

from __future__ import annotations

from pathlib import Path

from fastapi.templating import Jinja2Templates

from sleuth.core.options import limit_text

templates = Jinja2Templates(directory=Path(__file__).parent / "templates")
"""The page templates."""
# a bot option's largest value, written as the server's refusals write it ("5,000")
templates.env.filters["bound"] = limit_text
