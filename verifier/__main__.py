"""`python -m verifier ...`"""
import sys

from .cli import main

sys.exit(main())
