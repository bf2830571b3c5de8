import sys

from repl.cli import main

sys.exit(main())
