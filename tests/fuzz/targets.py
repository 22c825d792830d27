"""Coverage-guided fuzz targets (atheris) for every decoder we own: `make fuzz` runs each one
time-boxed, seeded from ``tests/fuzz/corpus/TARGET/`` (copied to a scratch folder first, so a run
never changes the committed corpus).

    python -m tests.fuzz.targets TARGET [libFuzzer options] CORPUS_DIR...
    python -m tests.fuzz.targets --all SECONDS      # every target for SECONDS each

A target passes bytes to the decoder; success or our one error type is fine, anything else is
a crash that libFuzzer reports with the input that caused it.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"


def _replay(data: bytes) -> None:
    from replays.errors import ReplayError
    from replays.reader import read_replay
    from tests.fakegame import GAME as DASH

    with contextlib.suppress(ReplayError):
        read_replay(data, DASH)


def _nickname(data: bytes) -> None:
    from net.sanitize import NICK_MAX, nickname_error, normalise_nickname

    name, _notes = normalise_nickname(data.decode("utf-8", errors="replace"))
    assert len(name) <= NICK_MAX
    assert normalise_nickname(name) == (name, [])
    nickname_error(name)


def _chat(data: bytes) -> None:
    from net.sanitize import CHAT_MAX, clean_chat

    line = clean_chat(data.decode("utf-8", errors="replace"))
    assert len(line) <= CHAT_MAX
    assert "\x1b" not in line
    assert clean_chat(line) == line


def _input(data: bytes) -> None:
    from net.server import _LinePrompt
    from net.ssh_driver import SSHDriver

    class App:
        class _Q:
            def qsize(self) -> int:
                return 0

        _message_queue = _Q()

        def post_message(self, message: object) -> bool:
            return True

    class Chan:
        def write(self, data: bytes) -> None:
            pass

        def is_closing(self) -> bool:
            return False

    async def run() -> None:
        driver = SSHDriver(App(), channel=Chan(), size=(80, 24))
        driver._input = True
        half = len(data) // 2
        driver.feed(data[:half])
        driver.feed(data[half:])
        driver._tick()
        driver.close()
        prompt = _LinePrompt(lambda b: None)
        prompt.feed(data)

    asyncio.run(run())


def _cards(data: bytes) -> None:
    from core.cthulhu500.data import DataError, load_cards

    with contextlib.suppress(DataError):
        load_cards(data)


TARGETS: dict[str, Callable[[bytes], None]] = {
    "replay": _replay,
    "nickname": _nickname,
    "chat": _chat,
    "input": _input,
    "cards": _cards,
}


def _one(name: str, argv: list[str]) -> None:
    import atheris

    target = TARGETS[name]
    with atheris.instrument_imports():
        import net.sanitize
        import net.ssh_driver  # noqa: F401
        import replays.reader  # noqa: F401
    atheris.Setup([sys.argv[0], *argv], target)
    atheris.Fuzz()


def _all(seconds: int) -> int:
    failed = []
    for name in TARGETS:
        scratch = Path(tempfile.mkdtemp(prefix=f"fuzz-{name}-"))
        seeds = CORPUS / name
        for f in seeds.iterdir() if seeds.is_dir() else []:
            shutil.copy(f, scratch / f.name)
        cmd = [
            sys.executable,
            "-m",
            "tests.fuzz.targets",
            name,
            f"-max_total_time={seconds}",
            "-rss_limit_mb=1024",
            "-max_len=8192",
            f"-artifact_prefix={scratch}/",
            str(scratch),
        ]
        root = Path(__file__).resolve().parents[2]
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=root)
        runs = [ln for ln in done.stderr.splitlines() if "Done " in ln or "#" in ln[:2]]
        tail = runs[-1] if runs else done.stderr.strip().splitlines()[-1:]
        print(f"atheris {name}: exit {done.returncode}; {tail}", flush=True)
        if done.returncode != 0:
            failed.append(name)
            print(done.stderr[-3000:], flush=True)
            print(f"atheris {name}: the crashing input is kept in {scratch}", flush=True)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    print(f"atheris: {len(TARGETS)} targets, {len(failed)} crashed: {failed}")
    return 1 if failed else 0


def main() -> None:
    if len(sys.argv) >= 3 and sys.argv[1] == "--all":
        sys.exit(_all(int(sys.argv[2])))
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        print(f"usage: python -m tests.fuzz.targets ({'|'.join(TARGETS)}|--all SECONDS) ...")
        sys.exit(2)
    _one(sys.argv[1], sys.argv[2:])


if __name__ == "__main__":
    main()
