"""The GTP clock: what `time_settings` and `time_left` say, and what it leaves a move.

Start with `move_budget`: `genmove` thinks for `--time` seconds (or `--playouts`), less when the
clock cannot afford it. The session (`app.gtp.session`) takes off whatever the command waited
for before the search began, so the answer comes within the budget as the controller's clock
measures it.
"""

from __future__ import annotations

from dataclasses import dataclass

TIME_SAFETY = 0.8  # use at most this share of what the clock allows: pipes and GUIs lag
CLOCK_OVERHEAD = 0.1  # seconds per move lost outside thinking (GTP round trip, controller's clock)
MIN_SECONDS = 0.05  # always think a little: even a hurried move beats a random one
MIN_MOVES_LEFT = 15  # in main time, share the clock over at least this many more moves of ours
EMPTY_SHARE_PER_MOVE = 3  # ...or over (empty points / 3): roughly the moves a game still has


@dataclass(frozen=True, slots=True)
class TimeSettings:
    """GTP's Canadian byo-yomi settings (`time_settings`), all in seconds / stones."""

    main_time: float
    byo_yomi_time: float
    byo_yomi_stones: int

    @property
    def unlimited(self) -> bool:
        """The spec's "no time limits": byo-yomi time but zero stones per period."""
        return self.byo_yomi_time > 0 and self.byo_yomi_stones == 0


def move_budget(
    base_seconds: float | None,
    settings: TimeSettings | None,
    left: tuple[float, int] | None,
    empty_points: int,
) -> float | None:
    """Seconds to think about one move: `base_seconds` (None = no time limit of our own),
    lowered when the clock cannot afford it.

    `left` is the latest `time_left` for the colour to move (seconds, stones left in the
    byo-yomi period, 0 stones meaning main time). Without it, the full `time_settings` clock is
    assumed. In byo-yomi the period's time is shared over its stones; in main time it is shared
    over the moves the game probably still has, plus one byo-yomi share if byo-yomi follows.
    Only `TIME_SAFETY` of that is used, less `CLOCK_OVERHEAD`, and never less than `MIN_SECONDS`.
    """
    if settings is None or settings.unlimited:
        return base_seconds
    if left is None:
        if settings.main_time > 0:
            left = (settings.main_time, 0)
        else:
            left = (settings.byo_yomi_time, settings.byo_yomi_stones)
    seconds, stones = left
    if stones > 0:
        affordable = seconds / stones
    else:
        moves_left = max(MIN_MOVES_LEFT, empty_points // EMPTY_SHARE_PER_MOVE)
        affordable = seconds / moves_left
        if settings.byo_yomi_stones > 0:
            affordable += settings.byo_yomi_time / settings.byo_yomi_stones
    allowed = max(MIN_SECONDS, affordable * TIME_SAFETY - CLOCK_OVERHEAD)
    return allowed if base_seconds is None else min(base_seconds, allowed)
