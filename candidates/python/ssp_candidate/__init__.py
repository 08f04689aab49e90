"""An independent SSP2 segment-store candidate in Python (standard library only),
written from SPEC, the project docs and the driver protocol. See ../README.md."""

__version__ = "0.1.0"
