"""Tabletop: classic board games against a computer, served by FastAPI.

Start reading at app/main.py (create_app), then app/games.py (what a game is to the
server) and app/engine/ (the pure rules and computer players).
"""
