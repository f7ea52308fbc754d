"""The Jinja2 environment for the HTML fragments in templates/ (autoescaped)."""

from pathlib import Path

from fastapi.templating import Jinja2Templates

templates = Jinja2Templates(directory=Path(__file__).resolve().parent.parent / "templates")
