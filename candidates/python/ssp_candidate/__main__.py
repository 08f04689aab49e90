"""``python3 -m ssp_candidate``: serve the driver protocol on stdin/stdout."""

import sys

from .handlers import METHODS
from .protocol import Server


def main() -> int:
    return Server(METHODS).run()


if __name__ == "__main__":
    sys.exit(main())
