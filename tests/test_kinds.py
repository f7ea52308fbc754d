"""The table of game kinds (app/games/kinds.py) is the one list of them: the server's pages,
the shell's route table for the client router, the front end's view modules, the site's
navigation, the JSON API's models and each kind's widget all agree with it."""

from __future__ import annotations

import json
import re
import typing
from html.parser import HTMLParser
from pathlib import Path

from fastapi.testclient import TestClient

from app.games.kinds import ADAPTERS, BY_KIND, GAME_ID, KINDS, front_end
from app.routes import models

ROOT = Path(__file__).resolve().parent.parent
NAMES = [kind.kind for kind in KINDS]


class Metas(HTMLParser):
    """The <meta name=… content=…> pairs of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "meta" and named.get("name"):
            self.found[str(named["name"])] = named.get("content") or ""


def shell_kinds(page: str) -> object:
    parser = Metas()
    parser.feed(page)
    return json.loads(parser.found["tabletop-kinds"])


def test_every_kind_is_listed_once_under_its_adapters_name() -> None:
    assert len(set(NAMES)) == len(NAMES) == len(BY_KIND) == len(ADAPTERS)
    for kind in KINDS:
        assert BY_KIND[kind.kind] is kind and ADAPTERS[kind.kind] is kind.adapter
        # A kind is a path segment the client router puts in a pattern unescaped.
        assert re.fullmatch(r"[a-z]+(?:-[a-z]+)*", kind.kind), kind.kind


def test_the_shell_carries_the_table_and_serves_its_paths(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert shell_kinds(page.text) == front_end() == {"kinds": NAMES, "id": GAME_ID}
    for kind in NAMES:
        options = {} if kind == "knights-tour" else {"opponent": "local"}
        created = client.post("/api/games", json={"game": kind, "options": options})
        assert created.status_code == 201, created.text
        game_id = created.json()["id"]
        for path, status in ((f"/{kind}", 200), (f"/{kind}/", 200), (f"/{kind}/{game_id}", 200),
                             (f"/{kind}/{game_id}/", 200), (f"/{kind}/no-such-game", 404),
                             (f"/{kind}/{game_id}/more", 404)):
            response = client.get(path)
            assert response.status_code == status, path
            assert shell_kinds(response.text) == front_end(), path
        other = next(name for name in NAMES if name != kind)
        assert client.get(f"/{other}/{game_id}").status_code == 404  # another kind's id
    assert client.get("/chess").status_code == 404
    assert client.head("/go").status_code == 200


def test_the_front_end_has_a_view_module_for_every_kind() -> None:
    main = (ROOT / "static/js/main.js").read_text()
    table = re.search(r"const VIEWS = \{(?P<body>[^}]*)\};", main)
    assert table, "static/js/main.js has no VIEWS table"
    # Entries are `go` (shorthand) or `'knights-tour': knightsTour`.
    keys = [entry.split(":")[0].strip().strip("'") for entry in table["body"].split(",")]
    assert sorted(keys) == sorted(NAMES)
    assert "tabletop-kinds" in main
    for name in NAMES:
        assert (ROOT / "static/js/views" / f"{name}.js").exists(), name


def test_the_site_navigation_and_the_home_page_link_every_kind(client: TestClient) -> None:
    shell = (ROOT / "static/index.html").read_text()
    nav = shell[shell.index("<nav"):shell.index("</nav>")]
    links = re.findall(r'href="/([^"]*)"', nav)
    assert [link for link in links if link != "games"] == NAMES
    assert '<meta name="tabletop-kinds" content="">' in shell  # what the server fills in
    home = client.get("/ui/home").text
    assert re.findall(r'class="card-link" href="/([^"?]*)', home) == NAMES


def test_the_api_models_name_every_kind() -> None:
    for union in (models.Game, models.NewGame):
        members = typing.get_args(typing.get_args(union)[0])
        named = [typing.get_args(member.model_fields["game"].annotation)[0]
                 for member in members]
        assert named == NAMES


def test_every_kind_has_its_widget() -> None:
    for kind in KINDS:
        template = ROOT / "templates" / kind.kind.replace("-", "_") / "_game.html"
        assert f'id="{kind.widget}"' in template.read_text(), kind.kind
        assert kind.new_game.startswith(f"/{kind.kind}?")
