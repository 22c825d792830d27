"""``python -m tests.golden``: rewrite every golden playthrough (see ``tests/golden``)."""

from tests.golden import main

main()
