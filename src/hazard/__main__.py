"""``python -m hazard`` runs the command line."""

from hazard.cli import main

main()
