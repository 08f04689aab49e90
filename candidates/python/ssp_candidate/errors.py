"""Failures the candidate reports, each with the driver-protocol error code it travels
as (docs/driver-protocol.md, "Errors")."""


class CandidateError(Exception):
    code = "ssp.internal"


class InvalidInput(CandidateError):
    """An argument outside the contract (a field that is not a safe integer, U+0000, …)."""

    code = "ssp.invalid_argument"


class Collision(CandidateError):
    """Different bytes under a content address already stored (SPEC §5.1)."""

    code = "ssp.segment_collision"

    def __init__(self, message: str, segment_id: str):
        super().__init__(message)
        self.data = {"segmentId": segment_id}


class ReadOnly(CandidateError):
    """A write on a store opened read-only."""

    code = "ssp.read_only"


class StoreFailure(CandidateError):
    """The database refused or failed an operation (busy, I/O, a raising trigger, …)."""

    code = "ssp.storage_error"


class CallbackFailed(CandidateError):
    """The harness answered a hook or hash callback with an error: the test injected a failure
    there, so the call is abandoned (nothing written) and answered with the same code."""

    code = "ssp.callback_failed"


class Unsupported(CandidateError):
    """A method or option this candidate does not implement (declared absent in hello)."""

    code = "ssp.unsupported"
