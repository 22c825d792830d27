"""`ssh-audit` (PyPI, in the test extras) against the real server on 127.0.0.1: no SHA-1, no DH
group under 2048 bits (we offer none under 4096), no 64-bit-tag MAC, no CBC or chacha20
(Terrapin), no compression, strict KEX offered, and nothing ssh-audit marks as failing.

Its DHEat connection-rate test is skipped (``--skip-rate-test``): it opens dozens of
connections in a few milliseconds from one address, which our per-source penalties answer by
refusing that address for a while; that is the intended behaviour, not a configuration fault.
Outside CI a missing ssh-audit skips this test; with ``CI=true`` it fails.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from tests.net.test_server import start  # noqa: F401 - fixture


def _ssh_audit() -> str | None:
    local = Path(sys.executable).with_name("ssh-audit")
    return str(local) if local.exists() else shutil.which("ssh-audit")


async def test_ssh_audit_passes_the_loopback_server(start):  # noqa: F811
    tool = _ssh_audit()
    if tool is None:
        if os.environ.get("CI") == "true":
            pytest.fail("ssh-audit is missing (pip install ssh-audit; it is in the test extras)")
        pytest.skip("ssh-audit is not installed")
    server = await start()
    proc = await asyncio.create_subprocess_exec(
        tool,
        "-j",
        "--skip-rate-test",
        "-t",
        "10",
        "-p",
        str(server.port),
        "127.0.0.1",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, _err = await asyncio.wait_for(proc.communicate(), 60)
    report = json.loads(out)
    names = {kind: [a["algorithm"] for a in report[kind]] for kind in ("kex", "key", "enc", "mac")}
    print(f"ssh-audit: {sum(len(v) for v in names.values())} algorithms checked: {names}")
    failing = [
        (kind, a["algorithm"], a["notes"]["fail"])
        for kind in ("kex", "key", "enc", "mac")
        for a in report[kind]
        if a.get("notes", {}).get("fail")
    ]
    assert failing == []
    everything = [n for v in names.values() for n in v]
    assert not [n for n in everything if "sha1" in n or n.endswith("-sha") or "md5" in n]
    assert not [n for n in everything if "group1-" in n or "group14" in n or "group-exchange" in n]
    assert not [n for n in names["mac"] if "64" in n or "-96" in n]
    assert all(n.endswith("-etm@openssh.com") for n in names["mac"])
    assert not [n for n in names["enc"] if "cbc" in n or "chacha20" in n]
    assert "kex-strict-s-v00@openssh.com" in names["kex"]
    assert names["kex"][0] in ("mlkem768x25519-sha256", "curve25519-sha256")
    assert report["compression"] == ["none"]
    assert report["cves"] == []
    assert report["banner"]["software"] == "Server"  # neutral: no name or version
    assert report.get("recommendations", {}).get("critical") in (None, {})
