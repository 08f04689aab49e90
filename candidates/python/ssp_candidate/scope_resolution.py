"""Requested ∩ allowed = effective, and when that revokes (SPEC §3.2 rules 4–6)."""

from dataclasses import dataclass
from typing import Optional

from . import jsontext
from .scope_digest import ScopeMap

WILDCARD = "*"


@dataclass(frozen=True)
class Effective:
    """``active`` with the effective map, or revoked with the reason."""

    scopes: ScopeMap
    revoked_because: Optional[str]  # None when active, else why, in words

    @property
    def active(self) -> bool:
        return self.revoked_because is None


def compute_effective(requested: ScopeMap, allowed: ScopeMap) -> Effective:
    """Per requested key: absent from allowed → excluded; allowed ``'*'`` → the requested
    values pass through; otherwise the requested values that allowed lists (requested
    order and repetitions kept: the canonical rendering normalizes them). A key left
    with no value is excluded. Keys only in allowed never enter.

    Revoked when a requested key is missing from effective (partial loss must not
    deliver a subset) or when effective is empty (an empty request included). A revoked
    answer carries no scopes, as SUB_START echoes none when not active (§4.4).
    """
    effective = {}
    for key, values in requested.items():
        grant = allowed.get(key)
        if grant is None:
            continue
        kept = list(values) if WILDCARD in grant else [v for v in values if v in grant]
        if kept:
            effective[key] = kept
    lost = [key for key in requested if key not in effective]
    if lost:
        return Effective({}, "requested key %s not held" % jsontext.quote(lost[0]))
    if not effective:
        return Effective({}, "effective scopes are empty")
    return Effective(effective, None)
