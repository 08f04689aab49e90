#!/usr/bin/env bash
# A driver written before protocol version 2 (HARNESS-33): the reference
# driver behind a filter that refuses every hello but version 1's, as a
# version-1 driver does. The harness must fall back to version 1 and skip the
# push tests, saying why. SSP_REFERENCE_DRIVER names the driver to wrap.
set -u
exec 3>&1
while IFS= read -r line; do
  if [[ $line == *'"method":"hello"'* && $line != *'"protocol":1'[,}]* ]]; then
    [[ $line =~ \"id\":([0-9]+) ]]
    printf '{"id":%s,"error":{"code":"ssp.unsupported","message":"this driver speaks protocol version 1 only"}}\n' \
      "${BASH_REMATCH[1]}" >&3
  else
    printf '%s\n' "$line"
  fi
done | "$SSP_REFERENCE_DRIVER"
