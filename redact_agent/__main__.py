import sys

from redact_agent.cli import main

sys.exit(main())
