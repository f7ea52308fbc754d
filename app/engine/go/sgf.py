"""SGF (Smart Game Format, FF[4]) in and out, on top of sgfmill.

Start with `from_sgf`. Reading is hostile-input safe: before sgfmill sees a byte, `_prescan`
refuses input over `MAX_SGF_BYTES`, more than `MAX_SGF_NODES` nodes or variations nested deeper
than `MAX_SGF_DEPTH` (sgfmill's parser is iterative, so depth could not overflow the stack, but
a cap keeps time and memory bounded); sgfmill's own `ValueError`s, boards outside 5-25, illegal
moves and moves out of turn all become an `SgfError` with a sentence. The main line (first
variation at every branch) is replayed into a `Game`, stopping at its last node, ready to play on.

Set-up stones (AB/AW/AE) are honoured in any node. In the root they become the game's set-up
(or its fixed handicap when they are exactly GTP's handicap points for HA); in a later node the
position reached there, with the changes applied, becomes the set-up of the returned game - the
moves before it are dropped, so undo and superko history start from that node.

`to_sgf` writes FF[4] GM[1] SZ KM, HA with AB (or AB/AW/PL for a set-up), PB/PW/DT if given,
RE once the game is over, and every move, passes as an empty B[] / W[].
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import Any

from sgfmill import sgf, sgf_grammar  # type: ignore[import-untyped]

from .board import BLACK, COLOR_NAMES, WHITE, Color
from .coords import MAX_SIZE, MIN_SIZE, geometry
from .errors import GoError, SgfError
from .game import Game, Setup, check_komi
from .handicap import default_komi, handicap_points

MAX_SGF_BYTES = 1_000_000  # a long commented game is ~100 kB; more is an accident or an attack
MAX_SGF_NODES = 20_000  # dozens of games' worth of nodes: a real record with variations fits
MAX_SGF_DEPTH = 1_000  # nested variations; editors nest once per branch, far below this
MAX_SGF_MOVES = 2_000  # main-line moves; no real game reaches this even on 25x25

# One SGF token: a bracketed value (with backslash escapes) or a structural character.
_TOKEN = re.compile(rb"\[(?:[^\\\]]|\\.)*\]|[();]", re.DOTALL)
_SIZE = re.compile(rb"\s*([0-9]{1,4})\s*(?::\s*([0-9]{1,4})\s*)?")

_SGF_COLOR = {"b": BLACK, "w": WHITE}


def to_sgf(
    game: Game,
    *,
    black_name: str | None = None,
    white_name: str | None = None,
    date: datetime.date | str | None = None,
) -> str:
    """The game as an SGF FF[4] record (a str). `date` (a date or SGF DT text) is optional."""
    size = game.size
    record = sgf.Sgf_game(size=size)
    root = record.get_root()
    root.set("KM", game.komi)
    shape = geometry(size)

    def point(name: str) -> tuple[int, int]:
        column, row_from_top = shape.column_row(shape.index[name])
        return size - 1 - row_from_top, column

    if game.handicap:
        root.set("HA", game.handicap)
        stones = handicap_points(size, game.handicap)
        root.set_setup_stones([point(shape.names[p]) for p in stones], [])
    elif game.setup is not None:
        root.set_setup_stones(
            [point(v.upper()) for v in game.setup.black],
            [point(v.upper()) for v in game.setup.white],
        )
        if game.setup.to_move == "white":
            root.set("PL", "w")
    if black_name:
        root.set("PB", black_name)
    if white_name:
        root.set("PW", white_name)
    if isinstance(date, datetime.date):
        record.set_date(date)
    elif date:
        root.set("DT", date)
    result = game.result
    if result is not None:
        root.set("RE", result["text"])

    color = BLACK if game.first_to_move == "black" else WHITE
    for move in game.moves:
        if move == "resign":
            break
        node = record.extend_main_sequence()
        if move == "pass":
            # sgfmill writes a pass as "tt" on small boards; FF[4] prefers the empty value.
            node.set_raw("B" if color == BLACK else "W", b"")
        else:
            node.set_move("b" if color == BLACK else "w", point(move))
        color = 3 - color
    data: bytes = record.serialise()
    return data.decode("utf-8")


def from_sgf(text: str | bytes) -> Game:
    """The game an SGF record's main line reaches, ready to play on (see the module docstring).

    Raises `SgfError` for anything it cannot read or replay.
    """
    if isinstance(text, str):
        data = text.encode("utf-8")
        encoding: str | None = "UTF-8"
    elif isinstance(text, bytes | bytearray):
        data = bytes(text)
        encoding = None
    else:
        raise SgfError(f"invalid SGF: expected text, not {type(text).__name__}.")
    _prescan(data)
    try:
        coarse = sgf_grammar.parse_sgf_game(data)
    except ValueError as error:
        raise SgfError(f"invalid SGF: the record could not be parsed ({error}).") from error
    size = _read_size(coarse.sequence[0])
    try:
        record = sgf.Sgf_game.from_coarse_game_tree(coarse, override_encoding=encoding)
        return _replay(record, size)
    except SgfError:
        raise
    except GoError as error:
        raise SgfError(f"invalid SGF: {error.message}") from error
    except (ValueError, LookupError, UnicodeError) as error:
        detail = f" ({error})" if str(error) else ""
        raise SgfError(f"invalid SGF: a property could not be read{detail}.") from error


def _prescan(data: bytes) -> None:
    """Refuse input too big, too many nodes or too deeply nested - before any parsing."""
    if len(data) > MAX_SGF_BYTES:
        raise SgfError(
            f"invalid SGF: the record is {len(data):,} bytes; the limit is "
            f"{MAX_SGF_BYTES:,} bytes."
        )
    depth = nodes = 0
    for match in _TOKEN.finditer(data):
        token = match.group()
        if token == b"(":
            depth += 1
            if depth > MAX_SGF_DEPTH:
                raise SgfError(
                    f"invalid SGF: variations are nested more than {MAX_SGF_DEPTH} deep."
                )
        elif token == b")":
            depth -= 1
        elif token == b";":
            nodes += 1
            if nodes > MAX_SGF_NODES:
                raise SgfError(f"invalid SGF: the record has more than {MAX_SGF_NODES:,} nodes.")


def _read_size(root: dict[str, list[bytes]]) -> int:
    """The board size from the root's SZ (19 when absent), checked before sgfmill uses it."""
    raw = root.get("SZ", [b"19"])[0]
    game_type = root.get("GM", [b"1"])[0].strip()
    if game_type != b"1":
        raise SgfError(
            f"invalid SGF: the record is for game type GM[{game_type.decode('ascii', 'replace')}]"
            ", not Go (GM[1])."
        )
    match = _SIZE.fullmatch(raw)
    if match is None:
        raise SgfError(f"invalid SGF: the board size SZ[{raw[:20].decode('ascii', 'replace')}] "
                       "is not a number.")
    width = int(match.group(1))
    height = int(match.group(2) or match.group(1))
    if width != height:
        raise SgfError(
            f"invalid SGF: the board is {width}x{height}; only square boards are played."
        )
    if not MIN_SIZE <= width <= MAX_SIZE:
        raise SgfError(
            f"invalid SGF: the board size is {width}; Go here is played on boards of {MIN_SIZE} "
            f"to {MAX_SIZE}."
        )
    return width


def _replay(record: Any, size: int) -> Game:
    """Walk the main line, building the game node by node."""
    shape = geometry(size)

    def name(coordinates: tuple[int, int]) -> str:
        row, column = coordinates
        return shape.names[shape.point(column, size - 1 - row)]

    root = record.get_root()
    nodes = record.get_main_sequence()
    if len(nodes) > MAX_SGF_MOVES + 1:
        raise SgfError(f"invalid SGF: the main line has more than {MAX_SGF_MOVES:,} moves.")
    try:
        komi_raw = root.get("KM") if root.has_property("KM") else None
    except ValueError as error:
        raise SgfError(
            f"invalid SGF: the komi KM[{_raw(root, 'KM')}] is not a number."
        ) from error
    try:
        handicap = record.get_handicap() or 0
    except ValueError as error:
        raise SgfError(
            f"invalid SGF: the handicap HA[{_raw(root, 'HA')}] is not 0 or a number of stones "
            "from 2 to 9."
        ) from error

    # next_mover[i]: the colour of the first move at node i or later ("b"/"w"/None), found in
    # one backward pass so that set-up nodes need not each scan the rest of the line.
    next_mover: list[str | None] = [None] * (len(nodes) + 1)
    for number in range(len(nodes) - 1, -1, -1):
        mover, _ = nodes[number].get_raw_move()
        next_mover[number] = mover if mover is not None else next_mover[number + 1]

    game: Game | None = None
    for number, node in enumerate(nodes):
        try:
            color_text, move = node.get_move()
            if node.has_setup_stones() or game is None:
                game = _set_up(game, node, next_mover[number], size, komi_raw, handicap, name)
        except GoError:
            raise
        except (ValueError, LookupError) as error:
            detail = f" ({error})" if str(error) else ""
            raise SgfError(
                f"invalid SGF: node {number} has a move or set-up point that cannot be read"
                f"{detail}; points must lie on the {size}x{size} board."
            ) from error
        if color_text is None:
            continue
        color = _SGF_COLOR[color_text]
        to_move = game.to_move
        if to_move is None:
            raise SgfError(
                f"invalid SGF: node {number} has a move after the game's end (two passes)."
            )
        if COLOR_NAMES[color] != to_move:
            raise SgfError(
                f"invalid SGF: node {number} is a {COLOR_NAMES[color]} move, but {to_move} is "
                "to move; the record's moves must alternate."
            )
        text = "pass" if move is None else name(move)
        try:
            game.play(text)
        except GoError as error:
            raise SgfError(
                f"invalid SGF: the {COLOR_NAMES[color]} move at {text} in node {number} is "
                f"illegal - {error.message}"
            ) from error
    assert game is not None
    return game


def _set_up(
    game: Game | None,
    node: Any,
    next_mover: str | None,
    size: int,
    komi_raw: Any,
    handicap: int,
    name: Callable[[tuple[int, int]], str],
) -> Game:
    """A fresh game whose start is the position at `node` (after its AB/AW/AE)."""
    black_added, white_added, emptied = node.get_setup_stones()
    if game is None:
        black: set[str] = set()
        white: set[str] = set()
        before: Color = "black"
    else:
        board, names = game.board, geometry(size).names
        black = {names[p] for p in board.stones(BLACK)}
        white = {names[p] for p in board.stones(WHITE)}
        before = game.to_move or "black"
    for coordinates in emptied:
        black.discard(name(coordinates))
        white.discard(name(coordinates))
    for coordinates in black_added:
        white.discard(name(coordinates))
        black.add(name(coordinates))
    for coordinates in white_added:
        black.discard(name(coordinates))
        white.add(name(coordinates))

    is_root = game is None
    if is_root and not black and not white and _to_move_hint(node, next_mover) in (None, "black"):
        komi = default_komi(0) if komi_raw is None else check_komi(komi_raw)
        return Game(size, komi)
    if is_root and handicap >= 2 and not white and black == {
        geometry(size).names[p] for p in _safe_handicap(size, handicap)
    }:
        komi = default_komi(handicap) if komi_raw is None else check_komi(komi_raw)
        return Game(size, komi, handicap)

    to_move = _to_move_hint(node, next_mover)
    if to_move is None:
        to_move = "white" if is_root and handicap >= 2 and black else before
    if game is not None:
        komi = game.komi
    else:
        komi = default_komi(handicap if black else 0) if komi_raw is None else check_komi(komi_raw)
    order = geometry(size).index
    setup = Setup(
        black=tuple(sorted(black, key=order.__getitem__)),
        white=tuple(sorted(white, key=order.__getitem__)),
        to_move=to_move,
    )
    return Game(size, komi, setup=setup)


def _to_move_hint(node: Any, next_mover: str | None) -> Color | None:
    """Who moves after a set-up node: its PL property, else the colour of the next move."""
    if node.has_property("PL"):
        return "black" if node.get("PL") == "b" else "white"
    if next_mover is None:
        return None
    return "black" if next_mover == "b" else "white"


def _raw(node: Any, identifier: str) -> str:
    """A property's raw text, shortened for an error message."""
    raw: bytes = node.get_raw(identifier)
    return raw[:20].decode("utf-8", "replace")


def _safe_handicap(size: int, handicap: int) -> list[int]:
    try:
        return handicap_points(size, handicap)
    except GoError:
        return []

