"""Studies: the simulator beside the exact analyser, for programs and notebooks as for ``hazard simulate``.

This layer sits over :mod:`hazard.sim` and :mod:`hazard.analysis` (it uses both) and under the command line.
"""

from hazard.study.exact import ExactFigures
from hazard.study.studies import (
    FIGURE_COLUMNS,
    MAIN_COLUMNS,
    Figure,
    RoundsStudy,
    SessionsStudy,
    figure_cells,
    interval_text,
    main_text,
    number_text,
    study_rounds,
    study_sessions,
    z_text,
)

__all__ = [
    "FIGURE_COLUMNS",
    "MAIN_COLUMNS",
    "ExactFigures",
    "Figure",
    "RoundsStudy",
    "SessionsStudy",
    "figure_cells",
    "interval_text",
    "main_text",
    "number_text",
    "study_rounds",
    "study_sessions",
    "z_text",
]
