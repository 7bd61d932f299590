import sys

from checkout_consent.cli.main import main

sys.exit(main())
