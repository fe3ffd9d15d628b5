"""`python -m verifier ...`"""
from .commands.cli import run_command_line

if __name__ == "__main__":
    run_command_line()
