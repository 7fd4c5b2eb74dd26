"""The web app (``sleuth serve``, the ``web`` extra): play every game against Sleuth's bots
and use every table-side assistant in a browser.

:func:`sleuth.web.app.create_app` builds the FastAPI application; :mod:`sleuth.web.store`
keeps each browser session's games and notepads as logs in one SQLite file;
:mod:`sleuth.web.play` serves the games against bots and :mod:`sleuth.web.assist` the
assistants, with each game drawn as SVG from one seat's view by :mod:`sleuth.render`.  Pages are
server-rendered templates with small static scripts shipped in the package: no build step, no
CDN.  Invariant: a response about a game in progress holds only what the human's seat may see.
"""
