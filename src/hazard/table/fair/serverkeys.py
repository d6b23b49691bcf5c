"""The server's two keys, kept out of the game record: one seals the fair dice's seeds, one signs reveals.

A database, its backups and its replicas hold games; they never hold a key. Each key comes, in this order:

- from the environment: ``HAZARD_SECRET_KEY`` (the seed-sealing key) and ``HAZARD_SIGNING_KEY`` (the
  Ed25519 signing key's 32-byte private seed), each 32 bytes in base64, for servers whose keys are handed
  to them (a secrets manager, a systemd credential). Every process that writes one record (several
  servers on one PostgreSQL) must be given the same two keys;
- else from a file in the key folder (``HAZARD_KEY_DIR``, default: the user's configuration folder for
  hazard, e.g. ``~/.config/hazard``, apart from the data folder that holds ``games.db``): ``seed.key`` and
  ``signing.key``, made on first use with 32 random bytes in base64, readable by their owner alone (mode
  0600, in a folder of mode 0700). A key file that group or others may read is refused, not used: whoever
  could read it could read every live seed.

A key is read once per process, when first needed, and kept in memory.
"""

from __future__ import annotations

import base64
import binascii
import os
import secrets
import stat
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from hazard.core.errors import InvalidError

if TYPE_CHECKING:
    from hazard.table.fair.sealing import SeedSealer
    from hazard.table.fair.signing import RevealSigner

__all__ = ["KEY_BYTES", "SEALING", "SIGNING", "KeyName", "ServerKeys", "key_from_text"]

KEY_BYTES = 32
"""How long each key is: AES-256's key, and an Ed25519 private key's seed."""


@dataclass(frozen=True, slots=True)
class KeyName:
    """Where one key is found: its environment variable and its file in the key folder, and what it is."""

    variable: str
    file: str
    what: str


SEALING = KeyName("HAZARD_SECRET_KEY", "seed.key", "seed-sealing key")
SIGNING = KeyName("HAZARD_SIGNING_KEY", "signing.key", "reveal-signing key")
FOLDER_VARIABLE = "HAZARD_KEY_DIR"


def key_from_text(text: str, where: str) -> bytes:
    """A key written as base64 (or 64 hex digits): its 32 bytes; else one clear error naming ``where``."""
    text = text.strip()
    try:
        if len(text) == 2 * KEY_BYTES and all(c in "0123456789abcdefABCDEF" for c in text):
            raw = bytes.fromhex(text)
        else:
            raw = base64.b64decode(
                text.replace("-", "+").replace("_", "/") + "=" * (-len(text) % 4), validate=True
            )
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != KEY_BYTES:
        raise InvalidError(f"invalid key in {where}: expected {KEY_BYTES} bytes in base64 (or 64 hex digits)")
    return raw


def _default_folder() -> Path:
    import platformdirs

    return Path(platformdirs.user_config_dir("hazard", appauthor=False))


@dataclass
class ServerKeys:
    """Where this process finds its keys (:meth:`from_environment` for the usual places), each read on first
    use and kept."""

    folder: Path | None = None
    """The key folder; None: ``HAZARD_KEY_DIR``, else the user's configuration folder for hazard."""
    environ: Mapping[str, str] = field(default_factory=dict)
    """Where ``HAZARD_SECRET_KEY`` and ``HAZARD_SIGNING_KEY`` are looked for."""
    _kept: dict[str, bytes] = field(default_factory=dict, repr=False)
    _made: dict[str, object] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def from_environment(cls) -> ServerKeys:
        """The keys this process is given: the environment's, else the key folder's."""
        folder = os.environ.get(FOLDER_VARIABLE)
        return cls(Path(folder).expanduser() if folder else None, dict(os.environ))

    @classmethod
    def in_folder(cls, folder: Path) -> ServerKeys:
        """Keys kept only in ``folder`` (the environment is not asked): for tests and tools."""
        return cls(folder, {})

    def sealer(self) -> SeedSealer:
        """What seals and opens the fair dice's kept seeds, with the seed-sealing key."""
        from hazard.table.fair.sealing import SeedSealer

        made = self._made.get(SEALING.variable)
        if not isinstance(made, SeedSealer):
            made = self._made[SEALING.variable] = SeedSealer(self.key(SEALING))
        return made

    def signer(self) -> RevealSigner:
        """What signs reveals, with the reveal-signing key."""
        from hazard.table.fair.signing import RevealSigner

        made = self._made.get(SIGNING.variable)
        if not isinstance(made, RevealSigner):
            made = self._made[SIGNING.variable] = RevealSigner(self.key(SIGNING))
        return made

    def key(self, name: KeyName) -> bytes:
        """The 32 bytes of key ``name``: from the environment, else its file (made on first use)."""
        with self._lock:
            kept = self._kept.get(name.variable)
            if kept is None:
                kept = self._kept[name.variable] = self._load(name)
            return kept

    def location(self, name: KeyName) -> str:
        """Where key ``name`` comes from, in words (for messages and ``docs``)."""
        if self.environ.get(name.variable):
            return f"the environment variable {name.variable}"
        return f"the key file {self._folder() / name.file}"

    def _folder(self) -> Path:
        return self.folder if self.folder is not None else _default_folder()

    def _load(self, name: KeyName) -> bytes:
        given = self.environ.get(name.variable)
        if given:
            return key_from_text(given, f"the environment variable {name.variable}")
        path = self._folder() / name.file
        try:
            return _read_key_file(path, name) if path.exists() else _make_key_file(path, name)
        except OSError as error:
            raise InvalidError(
                f"cannot read or make the {name.what} file {str(path)!r}: {error.strerror or error}; give "
                f"the key in {name.variable} (32 bytes in base64), or another folder in {FOLDER_VARIABLE}"
            ) from None


def _read_key_file(path: Path, name: KeyName) -> bytes:
    if os.name == "posix":
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            raise InvalidError(
                f"refused the {name.what} file {str(path)!r}: its mode is {mode:04o}, so others than its "
                f"owner may read it (and with it every live seed or the server's signature); make it "
                f"private with: chmod 600 {path}"
            )
    return key_from_text(path.read_text(encoding="ascii", errors="replace"), f"the key file {str(path)!r}")


def _make_key_file(path: Path, name: KeyName) -> bytes:
    """Write a new key to ``path``, readable by its owner alone, atomically: of two processes making it at
    once, one makes it and both use that one."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = secrets.token_bytes(KEY_BYTES)
    draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as out:
            out.write(base64.b64encode(key).decode("ascii") + "\n")
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(draft, path)  # fails where another process was first: then its key is the one
        except FileExistsError:
            return _read_key_file(path, name)
    finally:
        draft.unlink(missing_ok=True)
    return key
