"""Several servers of one model (vLLM data-parallel replicas behind no router, or several
hosted endpoints), used as one: each request goes to the least busy replica that is up, at
most `per_replica` requests are in flight on each, and a replica whose request fails in
transport (no connection, a timeout, 5xx, 429) is taken out for a while, longer each time it
fails again, and put back once that time has passed. A request waits for a free replica until
its page's deadline; the caller's retries then land on another replica.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from redact_agent.errors import BackendError


@dataclass
class Replica:
    url: str | None  # None: the OpenAI API
    client: Any  # its openai.OpenAI
    in_flight: int = 0
    sent: int = 0
    failures: int = 0  # in a row
    down_until: float = 0.0  # time.monotonic()


@dataclass
class Replicas:
    replicas: list[Replica]
    per_replica: int = 8
    cooldown_s: float = 10.0  # out after a failure: this, doubled for each further failure in a row
    max_cooldown_s: float = 300.0
    _ready: threading.Condition = field(default_factory=threading.Condition)

    @classmethod
    def of(cls, urls: tuple[str, ...], client: Callable[[str | None], Any], per_replica: int) -> Replicas:
        if per_replica < 1:
            raise ValueError(f"requests in flight per replica must be at least 1, not {per_replica}")
        return cls([Replica(url, client(url)) for url in (urls or (None,))], per_replica)

    @contextmanager
    def take(self, deadline: float, transient: tuple[type[BaseException], ...]) -> Iterator[Replica]:
        """A replica for one request, held while it runs; an exception of the `transient` kinds
        takes the replica out for a while."""
        replica = self._acquire(deadline)
        try:
            yield replica
        except transient:
            with self._ready:  # with one replica there is none to turn to: the caller's backoff waits
                replica.failures += 1 if len(self.replicas) > 1 else 0
                if replica.failures:
                    wait = min(self.cooldown_s * 2 ** (replica.failures - 1), self.max_cooldown_s)
                    replica.down_until = time.monotonic() + wait
            raise
        else:
            with self._ready:
                replica.failures = 0
        finally:
            with self._ready:
                replica.in_flight -= 1
                self._ready.notify_all()

    def _acquire(self, deadline: float) -> Replica:
        with self._ready:
            while True:
                now = time.monotonic()
                free = [r for r in self.replicas if r.down_until <= now and r.in_flight < self.per_replica]
                if free:
                    replica = min(free, key=lambda r: (r.in_flight, r.sent))
                    replica.in_flight += 1
                    replica.sent += 1
                    return replica
                if now >= deadline:
                    raise BackendError(f"no replica was free before the page's deadline ({self.state()})")
                back = [r.down_until for r in self.replicas if r.down_until > now]
                self._ready.wait(min([deadline, *back]) - now)

    def state(self) -> str:
        """Each replica, up or down and how busy, for error messages."""
        now = time.monotonic()
        parts = []
        for r in self.replicas:
            status = f"down {r.down_until - now:.0f} s more" if r.down_until > now else f"{r.in_flight} in flight"
            parts.append(f"{r.url or 'the OpenAI API'}: {status}")
        return "; ".join(parts)
