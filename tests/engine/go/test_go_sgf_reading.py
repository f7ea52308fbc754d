"""`read_record` on records as real servers, programs and books write them.

Charsets (CA, byte-order marks, detection without CA), Fox's HA[1], Nihon Kiin's missing ";",
moves that do not alternate, and what a record keeps: information and comments (the tree is
tested with writing, in test_go_sgf_writing.py).
Non-UTF-8 records are built here with Python's real codecs; three fuller ones live in
tests/data/go/sgf/.
"""

from __future__ import annotations

import codecs
import time
from pathlib import Path

import pytest

from app.engine.go import SgfError, SgfRecord, from_sgf, read_record
from app.engine.go.sgf import (
    _LANGUAGES,
    MAX_COMMENT_CHARS,
    MAX_INFO_CHARS,
    MAX_SGF_BYTES,
)

DATA = Path(__file__).parents[2] / "data" / "go" / "sgf"


def names(record: SgfRecord) -> tuple[str | None, str | None]:
    return record.info.get("black"), record.info.get("white")


def reread(record: SgfRecord) -> SgfRecord:
    """The record's tree read again: it must replay to the same game with nothing inserted."""
    again = read_record(record.tree)
    assert again.game.moves == record.game.moves
    assert again.info == record.info and again.comments == record.comments
    assert again.inserted_passes == 0
    return again


# -- Fox's HA[1] -------------------------------------------------------------------------------


@pytest.mark.parametrize("handicap", ["0", "1"])
def test_ha_0_and_fox_ha_1_are_even_games_with_black_first(handicap: str) -> None:
    game = from_sgf(f"(;GM[1]FF[4]SZ[19]HA[{handicap}]KM[0]AP[foxwq];B[pd];W[dp])")
    assert game.handicap == 0 and game.setup is None and game.first_to_move == "black"
    assert game.komi == 0 and game.moves == ["Q16", "D4"]


@pytest.mark.parametrize(("written", "komi"), [
    ("375", 7.5),  # Chinese rules: 3.75 stones (zi), i.e. 7.5 points
    ("650", 6.5),  # Japanese rules: 6.5 points, times 100
    ("-375", -7.5),
    ("7.5", 7.5),  # an ordinary komi is left alone
])
def test_fox_komi_written_times_100_is_read_as_points(written: str, komi: float) -> None:
    game = from_sgf(f"(;GM[1]FF[4]SZ[19]HA[0]KM[{written}]AP[foxwq];B[pd];W[dp])")
    assert game.komi == komi


def test_a_komi_that_is_no_fox_spelling_either_is_still_refused() -> None:
    with pytest.raises(SgfError, match="komi"):
        from_sgf("(;GM[1]FF[4]SZ[19]KM[1234];B[pd])")


def test_a_fox_record_in_gbk_without_charset() -> None:
    record = read_record((DATA / "fox_gbk_no_charset.sgf").read_bytes())
    assert names(record) == ("星阵围棋", "绝艺")
    assert record.info["result"] == "黑中盘胜" and record.info["black_rank"] == "9段"
    assert record.game.handicap == 0 and record.game.moves[:2] == ["Q16", "D4"]
    assert len(record.game.moves) == 16 and record.comments == {6: "白棋打劫，黑棋提子"}
    assert "CA[UTF-8]" in record.tree and "PB[星阵围棋]" in record.tree
    reread(record)


# -- charsets ----------------------------------------------------------------------------------

# (codec that writes the bytes, the record's CA or "" for none, black, white, comment)
ENCODED = {
    "GB2312": ("gb2312", "GB2312", "柯洁", "朴廷桓", "这盘棋很精彩"),
    "GBK": ("gbk", "GBK", "朱镕基", "古力", "白棋打劫，黑棋提子"),  # 镕: GBK, not GB2312
    "GB2312 holding GBK": ("gbk", "gb2312", "朱镕基", "喆", "镕"),  # what Chinese files do
    "Shift_JIS": ("shift_jis", "Shift_JIS", "井山裕太", "張栩", "ソ表示は定石の表"),
    "Shift_JIS holding cp932": ("cp932", "SJIS", "①髙橋", "井山", "№"),  # NEC/IBM extensions
    "EUC-KR": ("euc_kr", "EUC-KR", "박정환", "신진서", "흑 불계승"),
    "EUC-KR holding cp949": ("cp949", "EUC-KR", "똠방", "신진서", "좋은 바둑"),  # 똠: cp949 only
    "ISO-8859-1": ("iso8859-1", "ISO-8859-1", "Müller", "Ærøskøbing", "Très bien joué."),
    "windows-1252": ("cp1252", "windows-1252", "Œdipe", "Zoë", "“quotes” – dash"),
    # Without CA, as many servers write them: detected.
    "GBK, no CA": ("gbk", "", "柯洁", "古力", "黑中盘胜。白棋打劫，黑棋提子"),
    "GBK names, no CA": ("gbk", "", "常昊", "聂卫平", ""),
    "GBK names, no CA, 2": ("gbk", "", "唐韦星", "时越", ""),
    "Shift-JIS, no CA": ("cp932", "", "井山裕太", "張栩", "黒中押し勝ち。ソ表示は定石の表"),
    "Shift-JIS names, no CA": ("cp932", "", "一力遼", "芝野虎丸", ""),
    "EUC-KR, no CA": ("euc_kr", "", "박정환", "신진서", "흑 불계승. 좋은 바둑입니다"),
    "EUC-KR names, no CA": ("euc_kr", "", "이세돌", "조훈현", ""),
    "EUC-KR names, no CA, 2": ("euc_kr", "", "최정", "김지석", ""),
    "ISO-8859-1, no CA": ("iso8859-1", "", "Müller", "Café", "Très bien joué."),
}


@pytest.mark.parametrize("case", sorted(ENCODED))
def test_a_record_that_is_not_utf8_is_decoded(case: str) -> None:
    codec, charset, black, white, comment = ENCODED[case]
    declared = f"CA[{charset}]" if charset else ""
    text = f"(;{declared}SZ[9]PB[{black}]PW[{white}]C[{comment}];B[ee]C[{comment}];W[cc])"
    data = text.encode(codec)
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")  # a real test: the bytes are not UTF-8
    record = read_record(data)
    assert names(record) == (black, white)
    assert record.comments == ({0: comment, 1: comment} if comment else {})
    assert record.game.moves == ["E5", "C7"]
    assert "CA[UTF-8]" in record.tree and (not charset or declared not in record.tree)
    reread(record)


def test_a_shift_jis_backslash_byte_before_a_closing_bracket_does_not_escape_it() -> None:
    data = "(;CA[Shift_JIS]SZ[9]C[表];B[ee]C[ソ])".encode("shift_jis")
    assert b"\x95\x5c]" in data and b"\x83\x5c]" in data  # 表 and ソ end in "\"
    assert read_record(data).comments == {0: "表", 1: "ソ"}


def test_detection_tables_hold_only_characters_of_their_standard() -> None:
    # _plausibility gives +3 to these characters: each must be a two-byte character of the
    # national standard its charset extends, or the table rewards wrong decodings.
    for language in _LANGUAGES.values():
        assert len(language.common) > 200
        for character in language.common:
            assert len(character.encode(language.standard)) == 2, character


@pytest.mark.parametrize("codec", ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_byte_order_marks_decide_the_encoding(codec: str) -> None:
    text = "(;SZ[9]PB[柯洁]PW[박정환]C[井山裕太];B[ee])"
    data = text.encode(codec)
    if not data.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        data = (codecs.BOM_UTF16_LE if codec.endswith("le") else codecs.BOM_UTF16_BE) + data
    record = read_record(data)
    assert names(record) == ("柯洁", "박정환") and record.comments == {0: "井山裕太"}
    assert record.game.moves == ["E5"]


MISLABELLED = {
    "UTF-8 labelled GB2312": ("(;CA[GB2312]SZ[9]PB[柯洁]C[这盘棋很精彩];B[ee])", "utf-8"),
    "UTF-8 labelled Shift_JIS": ("(;CA[Shift_JIS]SZ[9]PB[井山裕太]C[黒中押し勝ち];B[ee])",
                                 "utf-8"),
    "UTF-8 labelled ISO-8859-1": ("(;CA[ISO-8859-1]SZ[9]PB[Müller]C[Café];B[ee])", "utf-8"),
    "GBK labelled UTF-8": ("(;CA[UTF-8]SZ[9]PB[柯洁]C[这盘棋很精彩];B[ee])", "gbk"),
    "EUC-KR labelled UTF-8": ("(;CA[UTF-8]SZ[9]PB[박정환]C[흑 불계승];B[ee])", "euc_kr"),
}


@pytest.mark.parametrize("case", sorted(MISLABELLED))
def test_a_mislabelled_record_is_read_as_what_it_is(case: str) -> None:
    text, codec = MISLABELLED[case]
    record = read_record(text.encode(codec))
    expected = read_record(text)  # the text itself, already decoded
    assert record.info == expected.info and record.comments == expected.comments


def test_bytes_no_charset_can_read_are_replaced_not_refused() -> None:
    record = read_record(b"(;CA[UTF-8]SZ[9]PB[Ann\xff\xfe]C[ok];B[ee])")
    assert record.info["black"].startswith("Ann") and record.comments == {0: "ok"}


def test_text_is_already_decoded_so_its_charset_is_ignored() -> None:
    record = read_record("\ufeff(;CA[GB2312]SZ[9]PB[柯洁];B[ee])")
    assert names(record) == ("柯洁", None) and "CA[UTF-8]" in record.tree


@pytest.mark.parametrize("charset", ["no-such-codec", "UTF-16", "rot13", "hex"])
def test_a_charset_that_cannot_hold_sgf_is_refused(charset: str) -> None:
    with pytest.raises(SgfError, match="character set"):
        read_record(f"(;SZ[9]CA[{charset}];B[ee])".encode("ascii"))


def test_detecting_a_large_record_is_quick() -> None:
    comment = "黑棋打劫，白棋提子。这盘棋很精彩。" * (MAX_SGF_BYTES // 40)
    data = f"(;SZ[19]C[{comment}];B[pd])".encode("gbk")
    assert len(data) <= MAX_SGF_BYTES
    began = time.perf_counter()
    record = read_record(data)
    assert time.perf_counter() - began < 1.0
    comment = record.comments[0]
    assert comment.startswith("黑棋打劫") and len(comment) == MAX_COMMENT_CHARS


# -- Nihon Kiin's missing ";" ------------------------------------------------------------------


def test_a_nihon_kiin_record_in_shift_jis_without_semicolons() -> None:
    data = (DATA / "nihon_kiin_shift_jis.sgf").read_bytes()
    assert data.startswith(b"(SZ[19]")
    record = read_record(data)
    assert names(record) == ("一力遼", "井山裕太")
    assert record.info["event"] == "第48期棋聖戦挑戦手合七番勝負第1局"
    assert record.info["result"] == "黒中押し勝ち" and record.game.komi == 6.5
    assert record.game.moves == ["R16", "D4", "Q3", "D17", "P17", "R5", "P4", "R3"]
    assert record.comments == {5: "ソ表示は定石の表"}
    assert record.tree.startswith("(;")
    reread(record)


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        ("(SZ[9]PB[a];B[ee];W[cc])", ["E5", "C7"]),
        ("( SZ[9] ;B[ee](W[cc])(W[gg]))", ["E5", "C7"]),
        ("(;SZ[9];B[ee](W[cc];B[gg])(;W[gg]))", ["E5", "C7", "G3"]),
        ("A heading (see below)\n(;SZ[9];B[ee])", ["E5"]),
    ],
)
def test_a_variation_opening_straight_onto_a_property_gets_its_semicolon(
    text: str, moves: list[str]
) -> None:
    assert from_sgf(text).moves == moves


# -- moves that do not alternate ---------------------------------------------------------------


def test_a_left_out_pass_is_inserted_and_counted() -> None:
    record = read_record("(;SZ[9];B[ee]C[one];B[cc]C[two];W[gg];W[dd];W[ff])")
    assert record.game.moves == ["E5", "pass", "C7", "G3", "pass", "D6", "pass", "F4"]
    assert record.inserted_passes == 3
    assert record.comments == {1: "one", 3: "two"}  # counted in the returned game's moves
    assert record.tree.count("[]") == 3  # the passes are nodes of the stored tree
    reread(record)


def test_a_left_out_pass_in_a_set_up_node_goes_after_the_set_up() -> None:
    record = read_record("(;SZ[9]AB[aa]PL[W]B[ee]C[set-up];W[cc])")
    assert record.game.moves == ["pass", "E5", "C7"] and record.inserted_passes == 1
    assert record.game.setup is not None and record.game.setup.black == ("A9",)
    assert record.comments == {0: "set-up"}
    assert ";W[];B[ee]" in record.tree  # the move left the set-up node, after the pass
    reread(record)


def test_only_the_main_line_is_repaired() -> None:
    record = read_record("(;SZ[9];B[ee](;B[cc])(;B[gg];B[dd]))")
    assert record.game.moves == ["E5", "pass", "C7"] and record.inserted_passes == 1
    assert "(;B[gg];B[dd])" in record.tree.replace("\n", "")


def test_a_move_after_the_movers_own_pass_is_still_refused() -> None:
    with pytest.raises(SgfError, match="second pass"):
        read_record("(;SZ[9];B[ee];W[];W[cc])")


def test_passes_before_a_later_set_up_node_do_not_count() -> None:
    record = read_record("(;SZ[9];B[ee];B[cc];AB[gg]C[from here];W[dd])")
    assert record.inserted_passes == 0 and record.game.moves == ["D6"]
    assert record.comments == {0: "from here"}


# -- information and comments ------------------------------------------------------------------


def test_the_game_information_is_kept_as_clean_text() -> None:
    record = read_record(
        "(;SZ[19]PB[Ann [the\\] Black]PW[Bob\x07 \u202eevil\u202c]BR[3d]WR[2k]DT[2024-05-17]"
        "RE[W+1.5]EV[Cup\n  final]RO[2]PC[Paris]GN[game one]RU[Japanese]KM[6.5]"
        f"AP[x]US[y]SO[{'z' * 500}];B[pd])"
    )
    assert record.info == {
        "black": "Ann [the] Black", "white": "Bob evil", "black_rank": "3d",
        "white_rank": "2k", "date": "2024-05-17", "result": "W+1.5", "event": "Cup final",
        "round": "2", "place": "Paris", "name": "game one", "rules": "Japanese", "komi": "6.5",
    }
    assert read_record("(;SZ[9]PB[]PW[ \x01 ];B[ee])").info == {}
    assert len(read_record(f"(;SZ[9]EV[{'e' * 5000}])").info["event"]) == MAX_INFO_CHARS


def test_comments_are_keyed_by_the_moves_that_reach_them() -> None:
    record = read_record(
        "(;SZ[9]C[root];C[still before any move];B[ee]C[first\\]\r\nline two];W[cc];"
        "C[after two];B[gg]C[\x1b[31mred\x1b[0m](;W[dd]C[main])(;W[ff]C[variation]))"
    )
    assert record.comments == {
        0: "root\n\nstill before any move", 1: "first]\nline two", 2: "after two",
        3: "[31mred[0m", 4: "main",
    }
    long = read_record(f"(;SZ[9]C[{'c' * 50_000}])").comments[0]
    assert len(long) == MAX_COMMENT_CHARS
