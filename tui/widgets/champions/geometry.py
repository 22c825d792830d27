"""Where the NASCAR Champions oval's 24 rows of 3 lanes sit on screen, and back.

Owns `OvalGeometry`: the loop (front stretch along the bottom, turns 1-2 up the right, the
backstretch along the top, turns 3-4 down the left), a cell's screen position, the space under a
screen cell, and the infield box. Must not: draw anything or know about cars or game state.
"""

from __future__ import annotations

from dataclasses import dataclass

ROWS = 24


@dataclass(frozen=True)
class OvalGeometry:
    """Where every (row, lane) is drawn: a loop of 8 + 4 + 8 + 4 rows, ``cw`` columns a cell."""

    cw: int

    @property
    def left(self) -> int:
        return 3 * self.cw

    @property
    def width(self) -> int:
        return 14 * self.cw

    height = 12  # label line, 3 lanes, 4 side rows, 3 lanes, label line

    def cell(self, row: int, lane: int) -> tuple[int, int]:
        """(x, y) of the cell's first column."""
        cw, left = self.cw, self.left
        if 8 <= row <= 15:  # top band, right to left: row 8 at the right
            return left + (15 - row) * cw, 1 + (2 - lane)
        if 4 <= row <= 7:  # right side, bottom to top, inside lane nearest the infield
            return left + 8 * cw + lane * cw, 11 - row
        if 16 <= row <= 19:  # left side, top to bottom
            return (2 - lane) * cw, row - 12
        col = row - 20 if row >= 20 else row + 4  # bottom band, left to right
        return left + col * cw, 8 + lane

    def space_at(self, x: int, y: int) -> tuple[int, int] | None:
        """The (row, lane) drawn at screen cell (x, y), if any."""
        for row in range(ROWS):
            for lane in range(3):
                cx, cy = self.cell(row, lane)
                if cy == y and cx <= x < cx + self.cw:
                    return (row, lane)
        return None

    def infield(self) -> tuple[int, int, int, int]:
        """(x, y, width, height) of the space inside the loop."""
        return self.left, 4, 8 * self.cw, 4
