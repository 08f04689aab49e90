"""Failures the candidate reports, each with the protocol error code it travels as.

The driver protocol maps these classes to its named codes; ``code`` is the default and
``protocol.py`` is the one place that may translate it.
"""


class CandidateError(Exception):
    code = "internal"


class InvalidInput(CandidateError):
    """An argument outside the contract (a field that is not a safe integer, U+0000, …)."""

    code = "invalid_argument"


class Collision(CandidateError):
    """Different bytes under a content address already stored (SPEC §5.1)."""

    code = "collision"


class ReadOnly(CandidateError):
    """A write on a store opened read-only."""

    code = "read_only"


class StoreFailure(CandidateError):
    """The database refused or failed an operation (busy, I/O, a raising trigger, …)."""

    code = "store_failure"


class Unsupported(CandidateError):
    """A method or option this candidate does not implement (declared absent in hello)."""

    code = "unsupported"
