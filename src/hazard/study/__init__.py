"""Studies: the simulator beside the exact analyser, for programs and notebooks as for ``hazard simulate``.

This layer sits over :mod:`hazard.sim` and :mod:`hazard.analysis` (it uses both) and under the command line.
"""

from hazard.study.exact import ExactFigures
from hazard.study.studies import Figure, RoundsStudy, SessionsStudy, main_text, study_rounds, study_sessions

__all__ = [
    "ExactFigures",
    "Figure",
    "RoundsStudy",
    "SessionsStudy",
    "main_text",
    "study_rounds",
    "study_sessions",
]
