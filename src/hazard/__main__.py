"""``python -m hazard`` runs the command line."""

from hazard.cli import run

run()
