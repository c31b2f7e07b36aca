"""``python -m riskmath`` runs the command line."""

from riskmath.cli import main_exit

main_exit()
