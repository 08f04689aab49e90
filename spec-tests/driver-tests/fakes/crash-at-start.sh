#!/usr/bin/env bash
# A fake driver that dies before reading anything (HARNESS-11).
echo "fake crash-at-start: cannot load the implementation" >&2
exit 3
