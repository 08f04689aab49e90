"""What both pages share: the order of sections, anchors, and Markdown escaping."""

from __future__ import annotations

import posixpath
import re

BACKEND_COLUMNS = ("memory", "sqlite", "postgres")


def section_key(section: str) -> tuple:
    """Sorts SSP2 sections as the suite does (``section_before``): numbered ones numerically
    (§0 first, §2.4 before §10.2, §5.9 before §5.9.1), then every other name (Conventions,
    Catalog, "segments §5" …) by its UTF-8 bytes."""
    match = re.fullmatch(r"§(\d+(?:\.\d+)*)", section)
    if match:
        return (0, tuple(int(part) for part in match.group(1).split(".")), section)
    return (1, (), section)


def sorted_sections(sections) -> list[str]:
    return sorted(set(sections), key=section_key)


def requirements_by_section(requirements: list[dict]) -> tuple[dict[str, list[dict]], list[str]]:
    """Each section → the requirements that name it (a requirement of several sections is under
    each, in the given order), and the sections in the spec's order."""
    by_section: dict[str, list[dict]] = {}
    for requirement in requirements:
        for section in dict.fromkeys(requirement["sections"]):
            by_section.setdefault(section, []).append(requirement)
    return by_section, sorted_sections(by_section)


def _slug(text: str) -> str:
    text = text.replace("§", "")
    text = re.sub(r"[^A-Za-z0-9._]+", "-", text).strip("-")
    return text or "x"


def section_anchor(section: str) -> str:
    """``§5.1`` → ``sec-5-1``; ``Conventions`` → ``sec-conventions``."""
    return "sec-" + _slug(section).replace(".", "-").lower()


def requirement_anchor(requirement_id: str) -> str:
    """``UPG-R35`` → ``req-UPG-R35``."""
    return "req-" + _slug(requirement_id)


def test_anchor(test: str) -> str:
    """``SegmentIdentity.R1_Put…`` → ``test-SegmentIdentity.R1_Put…``."""
    return "test-" + _slug(test)


def anchor(name: str) -> str:
    return f'<a id="{name}"></a>'


_ESCAPED = str.maketrans({
    "\\": "\\\\", "|": "\\|", "*": "\\*", "`": "\\`", "[": "\\[", "]": "\\]",
    "<": "&lt;", ">": "&gt;", "&": "&amp;", "_": "\\_",
})


def text_cell(text: str, limit: int | None = None) -> str:
    """Free text (a reason, a message) made safe for one table cell: one line, no Markdown."""
    text = " ".join(text.split())
    if limit is not None and len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text.translate(_ESCAPED)


def code(text: str) -> str:
    """Inline code that survives a table cell."""
    text = " ".join(text.split()).replace("|", "\\|")
    fence = "``" if "`" in text else "`"
    pad = " " if "`" in text else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def markdown_cell(text: str) -> str:
    """Catalog Markdown (a requirement's words) kept as Markdown, on one line of a table."""
    return " ".join(text.split()).replace("|", "\\|")


_LINK = re.compile(r"\]\(([^)\s]+)\)")


def rebase_links(text: str, catalog_file: str) -> str:
    """Makes the relative links of a requirement's words, written for docs/requirements/FILE,
    work from docs/: ``](coverage.md)`` → ``](requirements/coverage.md)``,
    ``](../decisions.md)`` → ``](decisions.md)``, ``](#edge-json)`` → ``](requirements/FILE#edge-json)``."""
    def rebase(match: re.Match) -> str:
        target = match.group(1)
        if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("/"):
            return match.group(0)
        if target.startswith("#"):
            return f"](requirements/{catalog_file}{target})"
        path, hash_, fragment = target.partition("#")
        rebased = posixpath.normpath(posixpath.join("requirements", path))
        return f"]({rebased}{hash_}{fragment})"
    return _LINK.sub(rebase, text)


_SCRATCH = re.compile(r"(/dev/shm|/tmp|/var/tmp)/[^\s'\"`,;)]+")
_PG_NAMES = re.compile(r"\bssp_(t|run)_[0-9A-Za-z]+")


def normalize_reason(text: str, replacements: list[tuple[str, str]] = ()) -> str:
    """A reason as the pages show it: the paths of this checkout and build replaced by
    placeholders, scratch paths and the random PostgreSQL names by a fixed text, so that a page
    does not depend on where the run happened."""
    for old, new in replacements:
        if old:
            text = text.replace(old, new)
    text = _SCRATCH.sub(lambda m: m.group(1) + "/…", text)
    text = _PG_NAMES.sub(lambda m: f"ssp_{m.group(1)}_…", text)
    return " ".join(text.split())
