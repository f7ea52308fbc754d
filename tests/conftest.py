"""Shared fixtures: a fresh app on a temporary SQLite file, and an httpx-backed client."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tabletop.db'}"


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    app = create_app(database_url=database_url, rng=random.Random(1234))
    with TestClient(app) as test_client:
        yield test_client
