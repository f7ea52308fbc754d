"""Tabletop: classic board games against a computer, served by FastAPI.

Start reading at docs/architecture.md, then app/main.py (create_app), app/games/__init__.py
(what a game is to the server) and app/engine/ (the pure rules and computer players).
"""
