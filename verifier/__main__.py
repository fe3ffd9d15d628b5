"""`python -m verifier ...`"""
from .cli import run_command_line

if __name__ == "__main__":
    run_command_line()
