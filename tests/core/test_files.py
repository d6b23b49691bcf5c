"""The one reader of a user's file: regular files only, bounded in size, UTF-8, every failure one error."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from hazard.core.errors import InvalidError
from hazard.core.files import MAX_FILE_BYTES, read_text_file

unix_only = pytest.mark.skipif(sys.platform == "win32", reason="devices and named pipes are Unix paths")


def _refused(path: str | Path, *fragments: str, limit: int = MAX_FILE_BYTES) -> str:
    started = time.perf_counter()
    with pytest.raises(InvalidError) as info:
        read_text_file(path, "ruleset", limit=limit)
    assert time.perf_counter() - started < 2, "refused, but only after a long wait"
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
    assert "\n" not in message
    assert len(message) < 300, message
    return message


def test_reads_a_regular_file(tmp_path: Path) -> None:
    path = tmp_path / "r.toml"
    path.write_text('id = "café"\n', encoding="utf-8")
    assert read_text_file(path, "ruleset") == 'id = "café"\n'
    assert read_text_file(str(path), "ruleset") == 'id = "café"\n'


def test_a_file_of_exactly_the_limit_is_read_and_one_byte_more_is_not(tmp_path: Path) -> None:
    path = tmp_path / "r.toml"
    path.write_bytes(b"a" * 100)
    assert read_text_file(path, "ruleset", limit=100) == "a" * 100
    path.write_bytes(b"a" * 101)
    _refused(path, f"cannot read ruleset file {str(path)!r}: it is larger than 100 bytes", limit=100)


def test_the_default_limit_is_one_mebibyte(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    _refused(path, "larger than 1 MiB", "expected a regular file of at most 1 MiB")


def test_reads_no_more_than_the_limit_and_one_byte(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.toml"
    path.write_bytes(b"#" * 10_000)
    asked: list[int] = []
    real_read = os.read

    def counting_read(descriptor: int, count: int) -> bytes:
        asked.append(count)
        return real_read(descriptor, count)

    monkeypatch.setattr(os, "read", counting_read)
    _refused(path, "larger than 1,000 bytes", limit=1000)
    assert sum(asked) <= 1001


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    assert _refused(path) == f"no ruleset file at {str(path)!r}"


def test_a_folder(tmp_path: Path) -> None:
    _refused(tmp_path, "it is a folder", "expected a regular file")


@unix_only
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_device_is_refused_at_once(device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    _refused(device, f"cannot read ruleset file {device!r}: it is a device", "expected a regular file")


@unix_only
def test_a_named_pipe_with_no_writer_is_refused_without_waiting(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.toml"
    os.mkfifo(pipe)
    _refused(pipe, "it is a named pipe")


@unix_only
def test_a_link_to_a_device_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "zero.toml"
    link.symlink_to("/dev/zero")
    _refused(link, "it is a device")


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(b'name = "caf\xe9"\n')
    _refused(
        path, f"cannot read ruleset file {str(path)!r}: byte 11 is not UTF-8", "expected a UTF-8 text file"
    )


def test_random_bytes(tmp_path: Path) -> None:
    path = tmp_path / "noise.toml"
    path.write_bytes(bytes(range(256)) * 4)
    _refused(path, "is not UTF-8")


def test_a_name_too_long_is_quoted_short(tmp_path: Path) -> None:
    name = str(tmp_path / ("x" * 5000 + ".toml"))
    message = _refused(name, "cannot read ruleset file", "characters)")
    assert "x" * 100 not in message


def test_a_nul_in_the_name() -> None:
    _refused("a\0b.toml", "cannot read ruleset file 'a\\x00b.toml'")


def test_the_message_names_what_is_read(tmp_path: Path) -> None:
    with pytest.raises(InvalidError, match="no paytable file at"):
        read_text_file(tmp_path / "absent.toml", "paytable")
