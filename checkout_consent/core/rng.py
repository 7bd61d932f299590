"""Seeded randomness that never moves across library versions: streams derived with
SHA-256 and advanced with SplitMix64, both specified here, so golden values survive
upgrades of Python and numpy (`Draws` uses numpy's exact uint64 arithmetic only)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

import numpy as np

T = TypeVar("T")
_SPAN = 1 << 64
_MASK = _SPAN - 1
_GOLDEN, _MIX1, _MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def derive(seed: int, *names: str) -> int:
    """A 64-bit seed for one named stream, stable across versions."""
    key = "\x1f".join([str(seed), *names]).encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big")


class Stream:
    """A SplitMix64 generator. Deterministic and versioned by this file alone."""

    def __init__(self, seed64: int) -> None:
        self._state = seed64 & _MASK

    def next_u64(self) -> int:
        self._state = s = (self._state + _GOLDEN) & _MASK
        z = ((s ^ (s >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), unbiased (rejection sampling)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = _SPAN - (_SPAN % n)
        while True:  # next_u64, inlined: this is the generator's hot path
            self._state = s = (self._state + _GOLDEN) & _MASK
            z = ((s ^ (s >> 30)) * _MIX1) & _MASK
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK
            z ^= z >> 31
            if z < limit:
                return z % n

    def below_each(self, n: int, count: int) -> np.ndarray:
        """`count` calls of `below(n)` at once (a numpy uint64 array): the same values in the
        same order, and the stream moved past exactly the outputs those calls would use."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit, kept, have = _SPAN - (_SPAN % n), [], 0
        while have < count:  # each batch is consumed whole: only rejections ask for more
            z = _outputs(self, count - have)
            z = z if limit == _SPAN else z[z < np.uint64(limit)]
            kept.append(z % np.uint64(n))
            have += len(z)
        return np.concatenate(kept) if kept else np.zeros(0, np.uint64)

    def randint(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi], both ends included."""
        return lo + self.below(hi - lo + 1)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list: Fisher-Yates over a copy."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


_STEP = np.arange(1, 257, dtype=np.uint64) * np.uint64(_GOLDEN)  # wraps mod 2**64, as above
# 0-d arrays rather than numpy scalars: arithmetic with them skips a scalar conversion
_U27, _U30, _U31, _U_MIX1, _U_MIX2 = (
    np.array(v, dtype=np.uint64) for v in (27, 30, 31, _MIX1, _MIX2)
)


def _outputs(stream: Stream, n: int) -> np.ndarray:
    """The stream's next n outputs at once (uint64 wraps as the masks do); it moves past them."""
    steps = (
        _STEP[:n] if n <= len(_STEP) else np.arange(1, n + 1, dtype=np.uint64) * np.uint64(_GOLDEN)
    )
    z = steps + np.array(stream._state, dtype=np.uint64)  # then in place: next_u64, in order
    z ^= z >> _U30
    z *= _U_MIX1
    z ^= z >> _U27
    z *= _U_MIX2
    z ^= z >> _U31
    stream._state = (stream._state + n * _GOLDEN) & _MASK
    return z


class Draws:
    """A stream's next outputs drawn at once, then taken in order, exactly as the stream's
    own calls would give them (`span`: by position in `array`). `n` is a budget, not a
    limit; the stream ends past everything drawn, so use Draws for its last draws."""

    def __init__(self, stream: Stream, n: int) -> None:
        self._stream = stream
        self.array = _outputs(stream, n)
        self._values: list[int] = self.array.tolist()
        self._at = 0  # the position of the next output

    def _ensure(self, n: int) -> None:
        """At least n outputs left (drawing more past the budget)."""
        short = self._at + n - len(self._values)
        if short > 0:
            more = _outputs(self._stream, max(short, 16))
            self.array = np.concatenate([self.array, more])
            self._values += more.tolist()

    def span(self, n: int) -> tuple[int, int]:
        """Take the next n outputs; their positions [start, end) in `array`."""
        self._ensure(n)
        self._at += n
        return self._at - n, self._at

    def below(self, n: int) -> int:
        """As Stream.below."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = _SPAN - (_SPAN % n)
        while True:
            if self._at == len(self._values):
                self._ensure(1)
            z, self._at = self._values[self._at], self._at + 1
            if z < limit:
                return z % n

    def randint(self, lo: int, hi: int) -> int:
        return lo + self.below(hi - lo + 1)


def stream(seed: int, family: str, scenario: str, name: str) -> Stream:
    """The stream for one purpose in one scenario of one family."""
    return Stream(derive(seed, family, scenario, name))
