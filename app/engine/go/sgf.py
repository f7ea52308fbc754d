"""SGF (Smart Game Format, FF[4]) in and out, on top of sgfmill.

Start with `read_record` (a record's bytes or text in, an `SgfRecord` out: the game, its
information, its comments and its whole tree) and `write_record` (a game out, merged into the
tree it was read from if given); `from_sgf` and `to_sgf` are their short forms.

Reading, in order:
1. Decoding (`_to_utf8`). Every record becomes UTF-8 before sgfmill sees a byte - so a
   Shift-JIS or GBK character whose second byte is "\\" or "]" cannot break the grammar. A
   byte-order mark decides first (UTF-8, UTF-16 and UTF-32, little or big endian). Else the
   root's CA does, read through the superset real files need (GB2312 and GBK as GB18030,
   Shift_JIS as cp932, EUC-KR as cp949), with three corrections: bytes that CA cannot decode
   but UTF-8 can are UTF-8 (a mislabelled file); bytes that both decode are UTF-8 when CA names
   a one-byte charset (valid UTF-8 is never an accident in ISO-8859 text), the more plausible
   reading when it names GB, Shift-JIS or EUC-KR (CA winning ties), else CA's reading; bytes
   neither decodes are detected as if CA were
   missing, or decoded with CA replacing the bad bytes. Without CA: UTF-8 when the bytes are
   UTF-8, else the most plausible of GB18030, Shift-JIS and EUC-KR (`_plausibility`: frequent
   characters of the language, letters of its national standard, no swallowed brackets), else
   ISO-8859-1, SGF's default. A CA naming no codec, or one that cannot hold SGF's ASCII, is
   refused. Text given as a str is already decoded; its CA is ignored.
2. Hostile-input guard and repair. Input over `MAX_SGF_BYTES` (bytes as given, text once
   encoded as UTF-8) is refused before decoding; then `_prescan` refuses more than
   `MAX_SGF_NODES` nodes or variations nested deeper than `MAX_SGF_DEPTH` before parsing
   (sgfmill's parser is iterative, so depth could not overflow the stack, but a cap keeps time
   and memory bounded). The same pass adds the ";" that Nihon Kiin-style records leave out
   after "(" ("(SZ[19]PB[..];B[pd])"), in the root or any variation.
3. Replay (`_replay`). The main line (first variation at every branch) is replayed into a
   `Game`, stopping at its last node, ready to play on. HA[0] and HA[1] (Fox's way of saying "no
   handicap") mean no handicap stones, black first; Fox's komi times 100 (KM[375]: 3.75 stones,
   7.5 points; KM[650]: 6.5 points) is read in points (`_fox_komi`). A move out of turn means a
   pass was left out: one is inserted (`SgfRecord.inserted_passes`) - unless the mover had just
   passed, since the missing pass would have ended play. Set-up stones (AB/AW/AE) are honoured
   in any node: in the root they become the game's set-up (or its fixed handicap when they are
   exactly GTP's handicap points for HA); in a later node the position reached there, with the
   changes applied, becomes the set-up of the returned game - the moves before it are dropped,
   so undo and superko history start from that node (its "start node"). sgfmill's `ValueError`s,
   boards outside 5-25, illegal moves and moves after two passes become an `SgfError` with a
   sentence of ours (never sgfmill's or Python's words) that quotes what it refuses as the
   record writes it, decoded, at most `QUOTED_CHARS` characters of it (`_shown`).
4. What is kept. `SgfRecord.tree` is the whole record, every variation, as UTF-8 text with
   CA[UTF-8], normalised so that it replays to the same game: the inserted passes are nodes of
   its main line, and a move sharing the start node with set-up stones gets a node of its own.
   `info` is the root's game information (PB PW BR WR DT RE EV RO PC GN RU KM) as clean text
   (control and bidi-override characters removed, `MAX_INFO_CHARS` at most); `comments` maps N
   to the C[] text of the main-line nodes reached after N moves of the returned game (several
   nodes' comments joined by a blank line, `MAX_COMMENT_CHARS` at most; comments before the
   start node are only in the tree).

Writing: without a tree, `write_record` writes FF[4] GM[1] CA[UTF-8] SZ KM, HA with AB (or
AB/AW/PL for a set-up) and every move, passes as an empty B[] / W[], nothing after a
resignation. With a tree (the text of `SgfRecord.tree`, read again with the same guards and
twice the byte cap, since UTF-8 and line breaks may have grown it) the game must start where
the tree's game starts; its moves follow the tree's main line as far as they agree (through
move-less nodes, and into an existing variation that has the move, which then becomes the
first); where they part, the game's moves become a new first variation and the old line the
second; moves beyond the tree's end extend it; a game that stops short leaves the rest of the
main line in place. Either way `info` keys set their root property (an empty value removes it,
unknown keys are ignored, "komi" comes from the game), `comments[N]` replaces the comments of
the nodes reached after N moves (unless it equals what they say), `date` sets DT, the game's
result sets RE and its komi KM (kept as the tree spells it when equal).
"""

from __future__ import annotations

import codecs
import datetime
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import islice
from typing import Any

from sgfmill import sgf, sgf_grammar, sgf_properties  # type: ignore[import-untyped]

from .board import BLACK, COLOR_NAMES, WHITE, Color
from .coords import MAX_SIZE, MIN_SIZE, geometry
from .errors import GoError, InvalidKomi, SgfError
from .game import MAX_KOMI, Game, Setup, check_komi
from .handicap import default_komi, handicap_points

MAX_SGF_BYTES = 1_000_000  # a long commented game is ~100 kB; more is an accident or an attack
MAX_SGF_NODES = 20_000  # dozens of games' worth of nodes: a real record with variations fits
MAX_SGF_DEPTH = 1_000  # nested variations; editors nest once per branch, far below this
MAX_SGF_MOVES = 2_000  # main-line moves; no real game reaches this even on 25x25
FOX_KOMI_FROM = 100  # points: beyond any real komi (9x9 to 19x19), so KM this large is Fox's x100
MAX_INFO_CHARS = 200  # a name, an event or a date; a longer value is not information
MAX_COMMENT_CHARS = 10_000  # one node's commentary: several pages of a book
DETECTION_SAMPLE = 4_000  # non-ASCII characters that decide a charset: a few hundred are enough
QUOTED_CHARS = 20  # of a value a refusal repeats: enough to recognise it, never a whole file

# One SGF token: a bracketed value (with backslash escapes) or a structural character.
_TOKEN = re.compile(rb"\[[^\\\]]*(?:\\.[^\\\]]*)*\]|[();]", re.DOTALL)
_PROPERTY_AHEAD = re.compile(rb"\s*[A-Za-z]{1,64}\s*\[")  # after "(": a node without its ";"
_SIZE = re.compile(rb"\s*([0-9]+)\s*(?::\s*([0-9]+)\s*)?")
_CHARSET = re.compile(rb"(?<![A-Za-z])CA\s*\[\s*([^\]\\]{1,64}?)\s*\]")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
# C0/C1 controls except tab and newline, DEL, bidi marks/overrides/isolates, the BOM.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]")

_SGF_COLOR = {"b": BLACK, "w": WHITE}
_MOVE_PROPERTIES = ("B", "W", "KO", "MN", "BL", "WL", "OB", "OW", "BM", "DO", "IT", "TE")
_SETUP_PROPERTIES = ("AB", "AW", "AE")

# The game information `SgfRecord.info` keeps: SGF property -> key.
INFO_PROPERTIES = {
    "PB": "black", "PW": "white", "BR": "black_rank", "WR": "white_rank", "DT": "date",
    "RE": "result", "EV": "event", "RO": "round", "PC": "place", "GN": "name", "RU": "rules",
    "KM": "komi",
}
_INFO_KEYS = {key: identifier for identifier, key in INFO_PROPERTIES.items()}


@dataclass(frozen=True, slots=True)
class SgfRecord:
    """A record as read: the game its main line reaches and everything else worth keeping."""

    game: Game  # at the end of the main line, ready to play on
    info: dict[str, str]  # INFO_PROPERTIES keys present in the root, as clean text
    comments: dict[int, str]  # N -> comment of the node(s) reached after N moves of `game`
    tree: str  # the whole record, every variation, as UTF-8 SGF text with CA[UTF-8]
    inserted_passes: int = 0  # passes added where the record's moves did not alternate
    # The moves of every variation from the start node on, as a `Variation` tree (see
    # `_variation_tree`): [moves, children], a move "B D4", "W pass".
    variations: list[Any] = field(default_factory=lambda: [[], []])


def read_record(data: bytes | str) -> SgfRecord:
    """The record in `data` (see the module docstring). Raises `SgfError` for anything it
    cannot read or replay."""
    loaded = _load(_to_utf8(data))
    groups = _groups(loaded.start)
    comments = {number: text for number, group in enumerate(groups) if (text := _comment(group))}
    return SgfRecord(
        game=loaded.game,
        info=_read_info(loaded.tree.sequence[0]),
        comments=comments,
        tree=_serialise(loaded.tree),
        inserted_passes=loaded.inserted_passes,
        variations=_variation_tree(loaded.start, loaded.game.size),
    )


def from_sgf(text: str | bytes) -> Game:
    """The game an SGF record's main line reaches, ready to play on (see the module docstring).

    Raises `SgfError` for anything it cannot read or replay.
    """
    return read_record(text).game


def write_record(
    game: Game,
    *,
    tree: str | None = None,
    info: Mapping[str, str] | None = None,
    comments: Mapping[int, str] | None = None,
    date: datetime.date | str | None = None,
) -> str:
    """The game as SGF FF[4] text, merged into `tree` (an `SgfRecord.tree`) if given; see the
    module docstring. Raises `SgfError` if `tree` cannot be read or its game starts elsewhere."""
    presenter = sgf_properties.Presenter(game.size, "UTF-8")
    if tree is None:
        record = sgf_grammar.Coarse_game_tree()
        record.sequence = [_fresh_root(game, presenter)]
        start: _Place = (record, 0)
    else:
        loaded = _load(_to_utf8(tree, 2 * MAX_SGF_BYTES))  # UTF-8 and line breaks: it grew
        if _start_key(loaded.game) != _start_key(game):
            raise SgfError(
                "invalid SGF: the game does not start where the tree's game starts (board size,"
                " handicap or set-up stones differ); write it without the tree."
            )
        record, start = loaded.tree, loaded.start
    end = _merge(start, game, presenter)
    if game.status == "over" and game.to_dict().get("accepted") is True:
        _write_territory(end, game, presenter)

    root = sgf.Node(record.sequence[0], presenter)
    if _komi(root) != game.komi:  # else keep the tree's spelling ("6.50")
        root.set("KM", game.komi)
    for key, value in (info or {}).items():
        identifier = _INFO_KEYS.get(key)
        if identifier is None or identifier == "KM":
            continue
        text = _clean(str(value), MAX_INFO_CHARS, lines=False)
        if text:
            root.set(identifier, text)
        elif root.has_property(identifier):
            root.unset(identifier)
    if isinstance(date, datetime.date):
        root.set("DT", date.strftime("%Y-%m-%d"))
    elif date:
        root.set("DT", _clean(date, MAX_INFO_CHARS, lines=False))
    result = game.result
    if result is not None and result["text"]:
        root.set("RE", result["text"])
    if comments:
        _write_comments(_groups(start), comments, presenter)
    return _serialise(record)


def to_sgf(
    game: Game,
    *,
    black_name: str | None = None,
    white_name: str | None = None,
    date: datetime.date | str | None = None,
) -> str:
    """The game as an SGF FF[4] record (a str). `date` (a date or SGF DT text) is optional."""
    names = {"black": black_name, "white": white_name}
    return write_record(game, info={k: v for k, v in names.items() if v}, date=date)


# -- decoding ----------------------------------------------------------------------------------

_BOMS = (  # UTF-32 first: its little-endian mark begins with UTF-16's
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# CA names seen in files that Python spells differently.
_CHARSET_ALIASES = {"windows-31j": "cp932", "x-sjis": "cp932", "x-gbk": "gbk",
                    "windows-949": "cp949", "windows-936": "gbk"}
# Legacy charsets read through the superset their files actually use.
_SUPERSETS = {"gb2312": "gb18030", "gbk": "gb18030", "shift_jis": "cp932", "euc_kr": "cp949"}
_PROBE = b"(;)[]\\:AZaz09 \n"  # what an SGF charset must read as ASCII


def _to_utf8(data: object, limit: int = MAX_SGF_BYTES) -> bytes:
    """The record as UTF-8 bytes (module docstring, step 1), refused at once when it is more
    than `limit` bytes: bytes as given, text once encoded."""
    if isinstance(data, str):
        encoded = data.removeprefix("\ufeff").encode("utf-8", "replace")
        if len(encoded) > limit:
            _too_big(len(encoded), limit)
        return encoded
    if isinstance(data, bytes | bytearray):
        if len(data) > limit:
            _too_big(len(data), limit)
        return _decode(bytes(data)).removeprefix("\ufeff").encode("utf-8", "replace")
    raise SgfError(f"invalid SGF: expected text, not {type(data).__name__}.")


def _too_big(size: int, limit: int) -> None:
    raise SgfError(f"invalid SGF: the record is {size:,} bytes; the limit is {limit:,} bytes.")


def _decode(data: bytes) -> str:
    """The record's text: byte-order mark, then CA, then detection (module docstring, step 1)."""
    for mark, codec in _BOMS:
        if data.startswith(mark):
            return data[len(mark):].decode(codec, "replace")
    declared = _declared_charset(data)
    utf8 = _strict(data, "utf-8")
    if declared is None:
        return utf8 or _detect(data) or data.decode("iso8859-1")
    text = utf8 if declared == "utf-8" else _strict(data, declared)
    if text is None:
        return utf8 or _detect(data) or data.decode(declared, "replace")
    if utf8 is None or utf8 == text:
        return text
    if _single_byte(declared):
        return utf8
    if declared in _LANGUAGES and (
        _plausibility(utf8, data, declared) > _plausibility(text, data, declared)
    ):
        return utf8
    return text


def _declared_charset(data: bytes) -> str | None:
    """The Python codec the record's CA names (through `_SUPERSETS`), or None without CA."""
    match = _CHARSET.search(data)
    if match is None:
        return None
    raw = match.group(1)
    # Read before the record is decoded: as UTF-8 if it is, else as SGF's default charset.
    name = (_strict(raw, "utf-8") or raw.decode("iso8859-1")).strip()
    try:
        codec: str = codecs.lookup(_CHARSET_ALIASES.get(name.lower(), name)).name
        readable = _PROBE.decode(codec) == _PROBE.decode("ascii")
    except (LookupError, ValueError):
        readable = False
    if not readable:
        raise SgfError(
            f"invalid SGF: the record's character set CA[{_shown(name)}] is "
            "unknown or cannot hold an SGF record."
        )
    return _SUPERSETS.get(codec, codec)


def _strict(data: bytes, codec: str) -> str | None:
    try:
        return data.decode(codec)
    except UnicodeDecodeError:
        return None


@cache
def _single_byte(codec: str) -> bool:
    """Whether `codec` maps every byte to one character (ISO-8859-x, Windows-125x...)."""
    return len(bytes(range(0x80, 0x100)).decode(codec, "replace")) == 0x80


def _detect(data: bytes) -> str | None:
    """The most plausible strict decoding among the CJK charsets, if any scores above zero."""
    best: str | None = None
    best_score = 0
    for codec in _LANGUAGES:
        text = _strict(data, codec)
        if text is not None and (score := _plausibility(text, data, codec)) > best_score:
            best, best_score = text, score
    return best


@dataclass(frozen=True, slots=True)
class _Language:
    """What text in a CJK charset's language looks like, for `_plausibility`."""

    standard: str  # the national standard the charset extends (a Python codec)
    common: frozenset[str]  # characters frequent in its text, records and names


# Frequent characters (from general frequency lists), common surnames and the words of game
# records. They need not be complete: a wrong decoding seldom lands on them, a right one often.
_COMMON_ZH = (
    "的一是不了在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之"
    "年过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样"
    "理心她本前开但因只从想实日军者意无力它与长把机十民第公此已工使情明性知全三又关点正业外将"
    "两高间由问很最重并物手应战向头文体政美相见被利什二等产或新己制身果加西斯月话合回特代内信"
    "表化老给世位次度门任常先海通教儿原东声提立及比员解水名真论处走义各入几口认条平系气题活尔"
    "黑白胜负盘目半贴先手局段级棋围赛杯届决轮冠军对局者解说打劫提子劫"
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程"
    "苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦方邹孟熊秦邱江尹薛段雷侯龙史陶黎贺顾毛郝龚邵"
    "万钱严武戴莫孔向汤柯古常聂芈檀洁辛"
)
_COMMON_JA = (
    "日一国人年大十二本中長出三同時政事自行社見月分議後前民生連五発間対上部東者党地合市業内相"
    "方四定今回新場金員九入選立開手米力学問高代明実円関決子動京全目表戦経通外最言氏現理調体化"
    "田当八六約主題下首意法不来作性的要用制治度務強気小七成期公持野協取都和統以機平総加山思家"
    "話世受区領多県続進正安設保改数記院女初北午指権心界支第産結百派点教報済書府活原先共得解名"
    "交資予川向際査勝面委告軍文反元重近千考判認画海参売利組知案道信策集在件団別物側任引使求所"
    "次水半品白黒局碁段級棋聖因坊王座天押負番井裕太佐藤鈴木高橋渡辺伊小林加吉松清"
)
_KANA = "".join(chr(c) for c in [*range(0x3041, 0x3094), *range(0x30A1, 0x30F7), 0x30FC])
_COMMON_KO = (
    "이다는의에가을하고지기한서로사대도리를자나인시수어정아보부일우그게해적전들있구주요상스비"
    "마세치선장원국동성제면만라소여내거조오계중경화식유무실신물방생공위개없되것으니습었했과며"
    "까데른말음간안학당연문득회모미분단진금드람심발입용결집불승흑백반패배호명관행래더목감본통"
    "날히속러야차현품저산김박최강윤임권황송류홍양손허남노곽엄채천함변염추석설길표왕옥육맹탁은"
    "편예봉복태형피두빈온범좌팽갈견창옹순빙종풍후바둑프덤초읽"
)
_LANGUAGES = {  # detection order: ties go to the first
    "gb18030": _Language("gb2312", frozenset(_COMMON_ZH)),
    "cp932": _Language("shift_jis", frozenset(_COMMON_JA + _KANA)),
    "cp949": _Language("euc_kr", frozenset(_COMMON_KO)),
}


def _plausibility(text: str, data: bytes, codec: str) -> int:
    """How much `text` (`data` decoded somehow) reads like the language of `codec`: +3 a
    frequent character, +1 another letter of its national standard, 0 its other symbols and
    half-width katakana, -3 anything else (extension characters, private use, other scripts),
    -10 for each "[" or "]" byte a multi-byte character swallowed. Reads at most
    `DETECTION_SAMPLE` non-ASCII characters."""
    swallowed = sum(data.count(c.encode()) - text.count(c) for c in "[]")
    score = -10 * swallowed
    for match in islice(_NON_ASCII.finditer(text), DETECTION_SAMPLE):
        score += _character_score(match.group(), codec)
    return score


@lru_cache(maxsize=16_384)
def _character_score(character: str, codec: str) -> int:
    language = _LANGUAGES[codec]
    if character in language.common:
        return 3
    if "\uff61" <= character <= "\uff9f":  # half-width katakana: rare, but old Japanese files
        return 0
    try:  # two bytes: Python's euc_kr also spells other syllables as eight-byte sequences
        in_standard = len(character.encode(language.standard)) == 2
    except UnicodeEncodeError:
        in_standard = False
    if not in_standard:
        return -3
    return 1 if unicodedata.category(character).startswith("L") else 0


# -- parsing -----------------------------------------------------------------------------------

_Place = tuple[Any, int]  # a node: (sgfmill Coarse_game_tree, index in its sequence)


@dataclass(slots=True)
class _Loaded:
    """A record parsed, replayed and normalised (module docstring, steps 2-4)."""

    tree: Any  # sgfmill Coarse_game_tree: sequences of property maps (str -> [raw bytes])
    start: _Place  # the node the game starts from (the root or the last set-up node)
    game: Game
    inserted_passes: int


def _load(data: bytes) -> _Loaded:
    """Parse UTF-8 SGF bytes, replay the main line and normalise the tree to match the game."""
    data = _prescan(data)
    try:
        tree = sgf_grammar.parse_sgf_game(data)
    except ValueError as error:
        raise _unparsable(data, str(error)) from error
    size = _read_size(tree.sequence[0])
    tree.sequence[0]["CA"] = [b"UTF-8"]
    presenter = sgf_properties.Presenter(size, "UTF-8")
    line = list(_line((tree, 0)))
    if len(line) > MAX_SGF_MOVES + 1:
        raise SgfError(f"invalid SGF: the main line has more than {MAX_SGF_MOVES:,} moves.")
    try:
        game, start, passes = _replay([sgf.Node(p[0].sequence[p[1]], presenter) for p in line],
                                      size)
    except SgfError:
        raise
    except GoError as error:
        raise SgfError(f"invalid SGF: {error.message}") from error
    except (ValueError, LookupError, UnicodeError) as error:  # sgfmill's words are not ours
        raise SgfError("invalid SGF: a property of the main line could not be read.") from error

    # Normalise, last node first so that earlier places stay valid. A move sharing the start
    # node with set-up stones moves to a node of its own (after its inserted pass, if any).
    for number in reversed(passes):
        sequence, index = line[number][0].sequence, line[number][1]
        if number != start:
            sequence.insert(index, _pass_before(sequence[index]))
    start_tree, start_index = line[start]
    start_node = start_tree.sequence[start_index]
    if _has_move(start_node):
        moved = {key: start_node.pop(key) for key in _MOVE_PROPERTIES if key in start_node}
        start_tree.sequence.insert(start_index + 1, moved)
        if passes[:1] == [start]:
            start_tree.sequence.insert(start_index + 1, _pass_before(moved))
    return _Loaded(tree, line[start], game, len(passes))


def _variation_tree(start: _Place, size: int) -> list[Any]:
    """The record's moves from the start node on, every variation kept, as nested lists
    [moves, children]: `moves` the moves of one sequence ("B D4", "W pass"), `children` the
    variations that follow it (the first continues the main line). Nodes without a move are
    left out, a variation holding no move gives its place to its own variations, and a
    variation stops before a node it could not replay from its moves alone: set-up stones
    (AB/AW/AE) or an unreadable move. Built without recursion: variations nest up to
    `MAX_SGF_DEPTH` deep."""
    presenter = sgf_properties.Presenter(size, "UTF-8")
    shape = geometry(size)
    root: list[Any] = [[], []]
    order = [root]  # every node, parents before children
    stack: list[tuple[Any, int, list[Any]]] = [(start[0], start[1], root)]
    while stack:
        tree, index, node = stack.pop()
        stopped = False
        for position in range(index, len(tree.sequence)):
            properties = tree.sequence[position]
            # The start node has its set-up; any later one ends the variation.
            if (node is not root or position != index) and _has_setup(properties):
                stopped = True
                break
            move = _move_of(properties, presenter)
            if move is None:
                continue
            color, point = move
            if point == "unreadable":
                stopped = True
                break
            if point is None:
                vertex = "pass"
            else:
                row, column = point
                vertex = shape.names[shape.point(column, size - 1 - row)]
            node[0].append(f"{color.upper()} {vertex}")
        if stopped:
            continue
        for child in tree.children:
            variation: list[Any] = [[], []]
            node[1].append(variation)
            order.append(variation)
            stack.append((child, 0, variation))
    for node in reversed(order):  # children first: a move-less variation is already flat
        children: list[Any] = []
        for child in node[1]:
            children.extend([child] if child[0] else child[1])
        node[1] = children
    return root


def _unparsable(data: bytes, reason: str) -> SgfError:
    """The refusal for a record sgfmill's parser gave up on, for `reason` (its words), in
    ours: what is wrong, quoting the record where it goes wrong."""
    tokens, end = sgf_grammar.tokenise(data)
    if reason == "no SGF data found":
        if not data.strip():
            return SgfError("invalid SGF: the record is empty.")
        return SgfError(f"invalid SGF: there is no game in {_quote(data.strip())}; a record "
                        "starts with \"(;\".")
    if reason == "unexpected end of SGF data":
        rest = data[end:].lstrip()  # where the tokens stopped: junk, an open value, or nothing
        if not rest:
            return SgfError("invalid SGF: the record stops before its game ends (a \")\" is "
                            "missing); the file may be cut short.")
        if rest.startswith(b"["):
            return SgfError(f"invalid SGF: the value {_quote(rest)} has no closing \"]\"; the "
                            "file may be cut short.")
        return SgfError(f"invalid SGF: the record cannot be read from {_quote(rest)} on; SGF "
                        "has properties such as B[dd], \";\" and parentheses there.")
    pairs = list(zip(tokens, [*tokens[1:], ("", b"")], strict=True))
    if reason == "property with no values":
        name = next((token for (kind, token), (after, _) in pairs
                     if kind == "I" and after != "V"), b"")
        return SgfError(f"invalid SGF: the property {_shown(name)} has no value; its value "
                        f"follows it in brackets, such as {_shown(name)}[dd].")
    if reason == "unexpected value":
        value = next((token for (kind, _), (after, token) in pairs
                      if kind == "D" and after == "V"), b"")
        return SgfError(f"invalid SGF: the value [{_shown(value)}] follows no property name; a "
                        "property is a name and its value, such as B[dd].")
    if reason == "property value outside a node":
        name = next((following for (kind, token), (after, following) in pairs
                     if kind == "D" and token != b";" and after == "I"), b"")
        return SgfError(f"invalid SGF: the property {_shown(name)} stands outside any node; a "
                        "node starts with \";\".")
    if reason == "unexpected node":
        return SgfError("invalid SGF: a node (\";\") follows the end of a variation; after its "
                        "variations a game tree ends, so the node belongs in a variation.")
    if reason == "empty sequence":
        return SgfError("invalid SGF: a variation holds no node; \"(\" opens one with \";\" and "
                        "its properties, such as (;B[dd]).")
    return SgfError("invalid SGF: the record could not be parsed.")


def _prescan(data: bytes) -> bytes:
    """Refuse input with too many nodes or nested too deeply - before any parsing - and add
    the ";" missing after a "(" that opens straight onto a property."""
    depth = nodes = 0
    missing: list[int] = []
    for match in _TOKEN.finditer(data):
        token = match.group()
        if token == b"(":
            depth += 1
            if depth > MAX_SGF_DEPTH:
                raise SgfError(
                    f"invalid SGF: variations are nested more than {MAX_SGF_DEPTH} deep."
                )
            if _PROPERTY_AHEAD.match(data, match.end()):
                missing.append(match.end())
                token = b";"
        elif token == b")":
            depth -= 1
        if token == b";":
            nodes += 1
            if nodes > MAX_SGF_NODES:
                raise SgfError(f"invalid SGF: the record has more than {MAX_SGF_NODES:,} nodes.")
    if not missing:
        return data
    pieces = [data[begin:end] for begin, end in zip([0, *missing], [*missing, len(data)],
                                                    strict=True)]
    return b";".join(pieces)


def _read_size(root: dict[str, list[bytes]]) -> int:
    """The board size from the root's SZ (19 when absent), checked before sgfmill uses it."""
    raw = root.get("SZ", [b"19"])[0]
    game_type = root.get("GM", [b"1"])[0].strip()
    if game_type != b"1":
        raise SgfError(
            f"invalid SGF: the record is for game type GM[{_shown(game_type)}], not Go (GM[1])."
        )
    match = _SIZE.fullmatch(raw)
    if match is None:
        raise SgfError(f"invalid SGF: the board size SZ[{_shown(raw)}] is not a number in the "
                       "digits 0 to 9, such as SZ[19].")
    sides = [digits.lstrip(b"0") or b"0" for digits in match.groups() if digits is not None]
    if any(len(digits) > 2 for digits in sides):  # 100 or more: not worth reading as a number
        raise SgfError(f"invalid SGF: the board size SZ[{_shown(raw)}] is far too large; Go here "
                       f"is played on boards of {MIN_SIZE} to {MAX_SIZE}.")
    width, height = int(sides[0]), int(sides[-1])  # SZ[19] is SZ[19:19]
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


def _line(place: _Place) -> Iterator[_Place]:
    """The main line from `place` on: the first variation at every branch."""
    tree, index = place
    while True:
        for position in range(index, len(tree.sequence)):
            yield tree, position
        if not tree.children:
            return
        tree, index = tree.children[0], 0


def _pass_before(properties: dict[str, list[bytes]]) -> dict[str, list[bytes]]:
    """A pass by the other colour than the move in `properties`."""
    return {"W" if "B" in properties else "B": [b""]}


def _has_move(properties: dict[str, list[bytes]]) -> bool:
    return "B" in properties or "W" in properties


def _has_setup(properties: dict[str, list[bytes]]) -> bool:
    return any(key in properties for key in _SETUP_PROPERTIES)


# -- replaying the main line -------------------------------------------------------------------


def _replay(nodes: list[Any], size: int) -> tuple[Game, int, list[int]]:
    """Walk the main line, building the game node by node. Returns the game, the number of its
    start node and the numbers of the nodes before which a pass had to be inserted."""
    shape = geometry(size)

    def name(coordinates: tuple[int, int]) -> str:
        row, column = coordinates
        return shape.names[shape.point(column, size - 1 - row)]

    root = nodes[0]
    try:
        komi_raw = _fox_komi(root.get("KM")) if root.has_property("KM") else None
        if komi_raw is not None:
            check_komi(komi_raw)
    except (ValueError, InvalidKomi) as error:
        raise SgfError(
            f"invalid SGF: the komi KM[{_raw(root, 'KM')}] is not a whole or half number of "
            f"points from -{MAX_KOMI:,} to {MAX_KOMI:,}, such as KM[7.5]."
        ) from error
    handicap = 0
    if root.has_property("HA"):
        try:
            handicap = root.get("HA")
        except ValueError:
            handicap = -1
        if handicap < 0:
            raise SgfError(
                f"invalid SGF: the handicap HA[{_raw(root, 'HA')}] is not a number of stones."
            )
        if handicap == 1:  # Fox writes HA[1] for an even game without komi: no stones
            handicap = 0

    # next_mover[i]: the colour of the first move at node i or later ("b"/"w"/None), found in
    # one backward pass so that set-up nodes need not each scan the rest of the line.
    next_mover: list[str | None] = [None] * (len(nodes) + 1)
    for number in range(len(nodes) - 1, -1, -1):
        mover, _ = nodes[number].get_raw_move()
        next_mover[number] = mover if mover is not None else next_mover[number + 1]

    game: Game | None = None
    start = 0
    passes: list[int] = []
    for number, node in enumerate(nodes):
        try:
            color_text, move = node.get_move()
            if node.has_setup_stones() or game is None:
                game = _set_up(game, node, next_mover[number], size, komi_raw, handicap, name)
                start, passes = number, []
        except GoError:
            raise
        except (ValueError, LookupError) as error:
            raise _unreadable(node, number, size) from error
        if color_text is None:
            continue
        mover = COLOR_NAMES[_SGF_COLOR[color_text]]
        if game.to_move is None:
            raise SgfError(
                f"invalid SGF: node {number} has a move after the game's end (two passes)."
            )
        if game.to_move != mover:
            game.play("pass")  # the record left out the other player's pass
            passes.append(number)
            if game.to_move is None:
                raise SgfError(
                    f"invalid SGF: node {number} is a {mover} move right after {mover}'s pass; "
                    "the missing move between them would be a second pass, which ends play."
                )
        text = "pass" if move is None else name(move)
        try:
            game.play(text)
        except GoError as error:
            raise SgfError(
                f"invalid SGF: the {mover} move at {text} in node {number} is "
                f"illegal - {error.message}"
            ) from error
    assert game is not None
    return game, start, passes


def _unreadable(node: Any, number: int, size: int) -> SgfError:
    """The refusal for a main-line node whose move, set-up stones or player to move sgfmill
    could not read: the first such property, quoted as the record writes it."""
    presenter = sgf_properties.Presenter(size, "UTF-8")
    for identifier in ("B", "W", "AB", "AW", "AE", "PL"):
        if not node.has_property(identifier):
            continue
        values = node.get_raw_list(identifier)
        if identifier in ("B", "W", "PL") and len(values) > 1:
            return SgfError(f"invalid SGF: in node {number}, {identifier} has {len(values)} "
                            "values; it takes one.")
        for value in values:
            try:  # one value at a time; an empty one stands for no points only on its own
                if value or len(values) == 1:
                    sgf.Node({identifier: [value]}, presenter).get(identifier)
                    continue
            except ValueError:
                pass
            written = f"{identifier}[{_shown(value)}]"
            if identifier == "PL":
                return SgfError(f"invalid SGF: in node {number}, {written} names no player; "
                                "the player to move is PL[B] or PL[W].")
            if identifier in ("B", "W"):
                return SgfError(f"invalid SGF: in node {number}, {written} is not a point of "
                                f"the {size}x{size} board, such as {identifier}[dd] (or "
                                f"{identifier}[] to pass).")
            return SgfError(f"invalid SGF: in node {number}, {written} is not a point of the "
                            f"{size}x{size} board nor a rectangle of them, such as "
                            f"{identifier}[dd] or {identifier}[aa:cc].")
    return SgfError(f"invalid SGF: node {number} could not be read.")


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
    return _shown(node.get_raw(identifier))


def _shown(value: bytes | str) -> str:
    """`value` (a property's raw value, a piece of the record) as a refusal repeats it: as
    the record writes it - UTF-8, which every record is once decoded - on one line, without
    control characters, at most QUOTED_CHARS characters ("…" marks a cut)."""
    window = 4 * QUOTED_CHARS  # a UTF-8 character is at most 4 bytes
    cut = len(value) > window
    text = value[:window].decode("utf-8", "replace") if isinstance(value, bytes) \
        else value[:window]
    if cut:
        text = text.removesuffix("\ufffd")  # a character the window cut in two
    text = _CONTROL.sub("", text.replace("\n", " ").replace("\t", " "))
    return text[:QUOTED_CHARS] + "…" if cut or len(text) > QUOTED_CHARS else text


def _quote(value: bytes | str) -> str:
    """`value` shown (`_shown`) between double quotes."""
    return f'"{_shown(value)}"'


def _safe_handicap(size: int, handicap: int) -> list[int]:
    try:
        return handicap_points(size, handicap)
    except GoError:
        return []


# -- information and comments ------------------------------------------------------------------


def _clean(text: str, limit: int, *, lines: bool) -> str:
    """`text` without control or bidi-override characters, at most `limit` characters long;
    on one line unless `lines`."""
    text = _CONTROL.sub("", text[: 2 * limit])
    text = text.replace("\t", " ").strip() if lines else " ".join(text.split())
    return text[:limit]


def _read_info(root: dict[str, list[bytes]]) -> dict[str, str]:
    info: dict[str, str] = {}
    for identifier, key in INFO_PROPERTIES.items():
        if identifier in root:
            raw = sgf_grammar.simpletext_value(root[identifier][0][: 4 * MAX_INFO_CHARS])
            text = _clean(raw.decode("utf-8", "replace"), MAX_INFO_CHARS, lines=False)
            if text:
                info[key] = text
    return info


def _groups(start: _Place) -> list[list[dict[str, list[bytes]]]]:
    """The main-line nodes from `start` on, grouped by how many moves lead to them."""
    groups: list[list[dict[str, list[bytes]]]] = [[]]
    for tree, index in _line(start):
        properties = tree.sequence[index]
        if _has_move(properties):
            groups.append([])
        groups[-1].append(properties)
    return groups


def _comment(group: list[dict[str, list[bytes]]]) -> str:
    """The comments of a group of nodes as one clean text."""
    parts = []
    for properties in group:
        if "C" in properties:
            value = properties["C"][0][: 4 * MAX_COMMENT_CHARS]  # UTF-8: 4 bytes a character
            raw = sgf_grammar.text_value(value).decode("utf-8", "replace")
            if text := _clean(raw, MAX_COMMENT_CHARS, lines=True):
                parts.append(text)
    return "\n\n".join(parts)[:MAX_COMMENT_CHARS]


def _write_comments(
    groups: list[list[dict[str, list[bytes]]]], comments: Mapping[int, str], presenter: Any
) -> None:
    """Give the nodes reached after N moves the comment `comments[N]`, unless they have it."""
    for number, text in comments.items():
        if not 0 <= number < len(groups):
            continue
        group = groups[number]
        text = _clean(str(text), MAX_COMMENT_CHARS, lines=True)
        if text == _comment(group):
            continue
        for properties in group:
            properties.pop("C", None)
        if text:
            group[0]["C"] = presenter.serialise("C", text)


# -- writing -----------------------------------------------------------------------------------


def _sgf_point(game: Game, vertex: str) -> tuple[int, int]:
    """sgfmill's (row from the bottom, column) for a vertex such as "D4"."""
    shape = geometry(game.size)
    column, row_from_top = shape.column_row(shape.index[vertex.upper()])
    return game.size - 1 - row_from_top, column


def _fresh_root(game: Game, presenter: Any) -> dict[str, list[bytes]]:
    """The root of a new record: format, size and the game's start (handicap or set-up)."""
    properties: dict[str, list[bytes]] = {
        "FF": [b"4"], "GM": [b"1"], "CA": [b"UTF-8"], "SZ": presenter.serialise("SZ", game.size),
    }
    root = sgf.Node(properties, presenter)
    if game.handicap:
        root.set("HA", game.handicap)
        names = geometry(game.size).names
        stones = handicap_points(game.size, game.handicap)
        root.set_setup_stones([_sgf_point(game, names[p]) for p in stones], [])
    elif game.setup is not None:
        root.set_setup_stones(
            [_sgf_point(game, v) for v in game.setup.black],
            [_sgf_point(game, v) for v in game.setup.white],
        )
        if game.setup.to_move == "white":
            root.set("PL", "w")
    return properties


def _fox_komi(komi: float) -> float:
    """The komi in points of a KM value, undoing Fox's spelling: Fox writes komi times 100,
    and under Chinese rules counts it in stones (zi) of two points each - KM[650] is 6.5
    points, KM[375] is 3.75 zi, 7.5 points. No real komi reaches `FOX_KOMI_FROM` points, so
    a value that large that is a whole number of hundredths of a quarter is Fox's; anything
    else is left for `check_komi` to judge."""
    hundredths = abs(komi)
    if hundredths < FOX_KOMI_FROM or hundredths % 25:
        return komi
    points = komi / 100
    return points if (points * 2).is_integer() else points * 2


def _komi(root: Any) -> float | None:
    try:
        return float(root.get("KM")) if root.has_property("KM") else None
    except ValueError:
        return None


def _start_key(game: Game) -> tuple[object, ...]:
    """What must agree for a game to be written into a tree: where and how it starts."""
    setup = game.setup or Setup()
    return (game.size, game.handicap, game.first_to_move,
            frozenset(v.upper() for v in setup.black), frozenset(v.upper() for v in setup.white))


def _merge(start: _Place, game: Game, presenter: Any) -> _Place:
    """Lay the game's moves onto the tree from its start node (module docstring, writing);
    return the node of its last move (the start node without moves)."""
    place = start
    color = "b" if game.first_to_move == "black" else "w"
    for move in game.moves:
        if move == "resign":
            break
        point = None if move == "pass" else _sgf_point(game, move)
        # FF[4] writes a pass as an empty value (sgfmill would write "tt" on small boards).
        value = [b""] if point is None else presenter.serialise(color.upper(), point)
        place = _follow(place, (color, point), {color.upper(): value}, presenter)
        color = "w" if color == "b" else "b"
    return place


def _write_territory(place: _Place, game: Game, presenter: Any) -> None:
    """A scored game's count on its last node: TB and TW (FF[4]: black's and white's
    territory or area, as the rules count it) list the points each side counts besides its
    stones - under area scoring its empty points and where its opponent's dead stones stood.
    Whatever the node said before is replaced; a side with no such point gets none."""
    properties = place[0].sequence[place[1]]
    territory = game.territory or {}
    for identifier, colour in (("TB", "black"), ("TW", "white")):
        properties.pop(identifier, None)
        points = {_sgf_point(game, vertex) for vertex in territory.get(colour, [])}
        if points:
            properties[identifier] = presenter.serialise(identifier, points)


def _follow(
    place: _Place, wanted: tuple[str, Any], properties: dict[str, list[bytes]], presenter: Any
) -> _Place:
    """The node after `place` that plays `wanted`: the main line's next node, an existing
    variation (made the first), or a new first variation made of `properties`."""
    tree, index = place
    while True:
        if index + 1 < len(tree.sequence):  # inside a sequence: one child
            child = tree.sequence[index + 1]
            if _move_of(child, presenter) == wanted:
                return tree, index + 1
            if not _has_move(child) and not _has_setup(child):
                index += 1
                continue
            old = sgf_grammar.Coarse_game_tree()
            old.sequence, old.children = tree.sequence[index + 1:], tree.children
            del tree.sequence[index + 1:]
            tree.children = [old]
            break
        for position, variation in enumerate(tree.children):
            if _move_of(variation.sequence[0], presenter) == wanted:
                tree.children.insert(0, tree.children.pop(position))
                return variation, 0
        first = tree.children[0].sequence[0] if tree.children else None
        if first is None or _has_move(first) or _has_setup(first):
            break
        tree, index = tree.children[0], 0
    if not tree.children:
        tree.sequence.append(properties)
        return tree, len(tree.sequence) - 1
    new = sgf_grammar.Coarse_game_tree()
    new.sequence = [properties]
    tree.children.insert(0, new)
    return new, 0


def _move_of(properties: dict[str, list[bytes]], presenter: Any) -> tuple[str, Any] | None:
    """A node's move as ("b"|"w", (row, column) or None for a pass); None without one."""
    for identifier in ("B", "W"):
        if identifier in properties:
            try:
                return identifier.lower(), presenter.interpret(identifier, properties[identifier])
            except ValueError:
                return identifier.lower(), "unreadable"
    return None


def _serialise(tree: Any) -> str:
    data: bytes = sgf_grammar.serialise_game_tree(tree, 79)
    return data.decode("utf-8", "replace")
