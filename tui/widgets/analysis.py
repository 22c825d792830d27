"""The replay viewer's analysis panel: the current step's decision, its options and values.

Owns `panel_text` (the panel in words, from an `Analysis` and a step; no textual) and
`AnalysisPanel`, the docked widget that shows it. The panel is handed the analysis, the step
and the progress by its screen; it holds no game state and starts no work.

Must not: run the analysis (the screen's worker does), or read the replay file.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.widgets import Static

from core.analysis import Analysis, Decision

__all__ = ["AnalysisPanel", "next_costly", "panel_text"]

MAX_OPTIONS = 8


def next_costly(analysis: Analysis, k: int) -> Decision | None:
    """The first costly decision after step ``k`` (wrapping to the first one)."""
    costly = [d for d in analysis.decisions if d.costly]
    later = [d for d in costly if d.step > k]
    if later:
        return later[0]
    return costly[0] if costly else None


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(1, width - 1)] + "…"


def _value(x: float) -> str:
    return f"{x:7.1f}"


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"


def _decision_lines(d: Decision, names: Sequence[str], inner: int, final: bool) -> list[str]:
    lines = [_clip(f"{_name(names, d.seat)}: {d.kind} ({d.unit})", inner)]
    order = sorted(range(len(d.options)), key=lambda i: (-d.options[i].value, i))
    shown = order[:MAX_OPTIONS]
    if d.chosen not in shown:
        shown[-1] = d.chosen
    label_w = inner - 11
    for i in shown:
        option = d.options[i]
        mark = ("▶" if i == d.chosen else " ") + ("★" if i == d.best else " ")
        spread = "" if option.spread is None else f"±{option.spread:.0f}"
        lines.append(
            f"{mark}{_clip(option.label, label_w):<{label_w}}{_value(option.value)}{spread}"
        )
    if len(d.options) > len(shown):
        lines.append(f"  … {len(d.options) - len(shown)} more")
    verdict = "best choice" if d.loss == 0 else f"lost {d.loss:.1f}"
    noise = [d.options[i].spread for i in (d.best, d.chosen)]
    if d.loss and all(x is not None for x in noise) and d.loss <= 2 * max(x or 0 for x in noise):
        verdict += " (within noise)"
    elif d.costly:
        verdict += " (costly)"
    luck = f"luck after {d.luck:+.1f}" if final else "luck after: not known yet"
    lines.append(_clip(f"{verdict} · {luck}", inner))
    return lines


def panel_text(
    analysis: Analysis | None,
    k: int,
    names: Sequence[str],
    *,
    progress: tuple[int, int] | None = None,
    partial: Sequence[Decision] = (),
    error: str | None = None,
    width: int = 40,
) -> str:
    """The panel for step ``k``: its decision or chance, the players' totals, the next key.

    While the analysis runs (``analysis`` None, ``progress`` given) the decisions valued so far
    (``partial``) are shown already.
    """
    inner = max(20, width - 2)
    if error is not None:
        return f"Analysis\n\n{error}"
    if analysis is None:
        if progress is None:
            return "Analysis\n\nPress a to analyse this replay."
        done, total = progress
        share = done / total if total else 0.0
        bar_w = max(5, inner - 8)
        filled = round(bar_w * share)
        bar = "█" * filled + "░" * (bar_w - filled)
        lines = [f"Analysing… step {done}/{total}", f"{bar} {round(100 * share):3d}%", ""]
        here = [d for d in partial if d.step == k]
        for d in here:
            lines += _decision_lines(d, names, inner, final=False)
        if not here:
            lines.append("This step is not analysed yet." if k > done else "No decision here.")
        return "\n".join(lines)
    lines = [f"Analysis · step {k} · the move made here"]
    decisions = [d for d in analysis.decisions if d.step == k]
    chances = [c for c in analysis.chances if c.step == k]
    for d in decisions:
        lines += _decision_lines(d, names, inner, final=True)
    for c in chances:
        lines.append(_clip(f"{_name(names, c.seat)}: {c.kind}", inner))
        for i, outcome in enumerate(c.outcomes):
            mark = "▶ " if i == c.happened else "  "
            label = _clip(outcome.label, inner - 9)
            lines.append(f"{mark}{label:<{inner - 9}}{outcome.value:5.1f}%")
        if c.note:
            lines.append(_clip(c.note, inner))
    luck_here = [g for g in analysis.segments if g.start == k and abs(g.opening_luck) > 1e-9]
    for g in luck_here:
        where = g.what or "before deciding"
        lines.append(
            _clip(f"{_name(names, g.seat)}: luck {where} {g.opening_luck:+.1f} {g.unit}", inner)
        )
    if not decisions and not chances and not luck_here:
        lines.append("No decision analysed at this step.")
    for i, tp in enumerate(analysis.turning_points):
        if tp.step == k:
            lines.append(_clip(f"◆ turning point {i + 1}: {tp.text}", 3 * inner))
    lines.append("")
    lines.append(f"Whole game ({analysis.unit}): skill loss, luck")
    for p in analysis.players:
        lines.append(
            f"{_clip(p.name, inner - 18):<{inner - 18}}{0.0 - p.skill_loss:+8.1f} {p.luck:+8.1f}"
        )
    nxt = next_costly(analysis, k)
    lines.append("")
    if nxt is None:
        lines.append("No costly decisions.")
    else:
        lines.append(f"d: next costly decision (step {nxt.step})")
    lines.append("t: next turning point · l: chart")
    return "\n".join(lines)


class AnalysisPanel(Static):
    """Docked beside the board; hidden until the player asks for it."""

    DEFAULT_CSS = """
    AnalysisPanel {
        dock: right;
        width: 44;
        height: 1fr;
        padding: 0 1;
        background: $panel;
        border-left: vkey $primary;
        display: none;
    }
    AnalysisPanel.shown { display: block; }
    """

    def show_text(self, text: str) -> None:
        self.update(text)
