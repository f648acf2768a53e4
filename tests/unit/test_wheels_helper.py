# SPDX-License-Identifier: Apache-2.0
"""The test helper that downloads released wheels says so before each download."""

from __future__ import annotations

import subprocess

from helpers import wheels


def test_a_line_is_shown_before_each_download(monkeypatch, tmp_path):
    events = []
    monkeypatch.setenv("FASTLAUNCH_WHEEL_CACHE", str(tmp_path))
    monkeypatch.delenv("FASTLAUNCH_OFFLINE", raising=False)
    monkeypatch.setattr(wheels, "say", lambda line: events.append(("say", line)))

    def download(cmd, **kwargs):
        events.append(("pip", cmd[cmd.index("-d") + 1]))
        (tmp_path / "torch_npu-9.9-cp311-cp311-manylinux_2_28_x86_64.whl").write_bytes(b"")
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(wheels.subprocess, "run", download)
    got = wheels._download.__wrapped__("torch-npu==9.9", "torch_npu-9.9")
    assert got == tmp_path / "torch_npu-9.9-cp311-cp311-manylinux_2_28_x86_64.whl"
    assert [kind for kind, _ in events] == ["say", "pip"]
    assert f"downloading torch-npu==9.9 (40-55 MB, once) into {tmp_path}" in events[0][1]
    events.clear()
    wheels._download.__wrapped__("torch-npu==9.9", "torch_npu-9.9")  # cached: silent
    assert events == []
