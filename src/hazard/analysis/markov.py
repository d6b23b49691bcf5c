"""Rounds of Hazard as absorbing Markov chains, solved exactly in fractions.

A round can loop for ever in principle (a throw that decides nothing leaves the state as it was), so a plain
recursion over the game tree does not terminate. Instead the states the engine can reach from a start are
collected into a chain: transient states (the dice are to move) and absorbing ones (how the round ended).
With Q the transient-to-transient probabilities and R the transient-to-outcome ones, the fundamental matrix
N = (I - Q)^-1 gives the expected visits to each state, N R the probability of each ending, and N 1 the
expected number of throws. Everything works on whatever ruleset the engine is given, a user's file included.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from hazard.core.engine import Mover, apply, chance_totals, to_move
from hazard.core.errors import IllegalError
from hazard.core.state import Outcome, Round

__all__ = ["RoundChain", "invert"]

_ZERO = Fraction(0)


def invert(matrix: list[list[Fraction]]) -> list[list[Fraction]]:
    """The exact inverse of a square matrix of fractions, by fraction-free Gauss-Jordan elimination.

    The matrix is scaled to integers by the common denominator of its entries and eliminated in integers
    (Bareiss: each step's division is exact), so that no fraction is reduced until the last step, where in
    fractions every one of the n^3 steps would reduce one by a gcd. A singular matrix raises
    :class:`ZeroDivisionError`.

    >>> invert([[Fraction(2), Fraction(0)], [Fraction(0), Fraction(4)]])
    [[Fraction(1, 2), Fraction(0, 1)], [Fraction(0, 1), Fraction(1, 4)]]
    """
    scale = lcm(*(value.denominator for row in matrix for value in row))  # 1 for an empty matrix
    whole, unit = _whole_inverse([[_whole(value, scale) for value in row] for row in matrix], scale)
    return [[unit * value for value in row] for row in whole]


def _whole_inverse(matrix: list[list[int]], scale: int) -> tuple[list[list[int]], Fraction]:
    """The inverse of ``matrix`` / ``scale`` as whole numbers of one unit: it is ``unit`` times ``whole``."""
    size = len(matrix)
    work = [[*row, *(int(i == j) for j in range(size))] for i, row in enumerate(matrix)]
    # Each step brings every other row from the last lead to the new one. A row with nothing to eliminate
    # in the step's column (most rows of a round's chain, whose states lead only onward) is left as it is,
    # marked with the lead it stands at, and scaled once when next used: the skipped steps' factors multiply
    # to the ratio of the two leads, and that one division is exact as each step's was.
    at = [1] * size
    previous = 1
    for col in range(size):
        pivot = next((r for r in range(col, size) if work[r][col] != 0), None)
        if pivot is None:
            raise ZeroDivisionError("singular matrix")
        work[col], work[pivot] = work[pivot], work[col]
        at[col], at[pivot] = at[pivot], at[col]
        base = _scaled(work, at, col, previous)
        lead = base[col]
        for r in range(size):
            if r != col and work[r][col] != 0:
                row = _scaled(work, at, r, previous)
                factor = row[col]
                # Sylvester's identity: every entry is a minor of the scaled matrix, so the division is exact.
                work[r] = [(lead * a - factor * b) // previous for a, b in zip(row, base, strict=True)]
                at[r] = lead
        at[col] = lead  # the pivot's row, as it is, stands at the new lead (so the step leaves it)
        previous = lead
    # Now work = [d I | d M^-1] for M = matrix and d its determinant (up to sign): every row scaled to the
    # last lead, every diagonal entry is that lead. The inverse of M / scale is scale * M^-1 = (scale / d)
    # times the right half.
    return [_scaled(work, at, r, previous)[size:] for r in range(size)], Fraction(scale, previous)


def _scaled(work: list[list[int]], at: list[int], r: int, lead: int) -> list[int]:
    """Row ``r`` of an elimination, brought from the lead it stands at to ``lead`` (in place)."""
    if at[r] != lead:
        work[r] = [value * lead // at[r] for value in work[r]]
        at[r] = lead
    return work[r]


@dataclass(frozen=True)
class RoundChain:
    """The absorbing chain of every state reachable from ``start`` by throws of the dice.

    ``start`` must be a state in which the dice are to move (a called main is a choice, not a chance: analyse
    each called main from the state after the call).
    """

    start: Round
    states: tuple[Round, ...]
    """Transient states; ``states[0]`` is ``start``."""
    outcomes: tuple[Outcome, ...]
    """Every way the round can end from ``start``."""
    q: tuple[dict[int, Fraction], ...]
    """Sparse rows of Q: from state i, the probability of moving to transient state j."""
    r: tuple[dict[int, Fraction], ...]
    """Sparse rows of R: from state i, the probability of ending in outcome k."""
    n_whole: tuple[tuple[int, ...], ...]
    """The fundamental matrix N = (I - Q)^-1 (expected visits to state j starting from state i) as whole
    numbers of ``n_unit``: N = n_unit × n_whole. The figures are sums of products of N, R and their
    consequences, which in whole numbers need no reduction by a gcd until each figure is made."""
    n_unit: Fraction
    """What one of ``n_whole`` stands for: D over the determinant of D (I - Q), up to its sign, for D the
    common denominator of Q and R (36 for two dice, or a divisor of it)."""
    b_whole: tuple[dict[int, int], ...]
    """B = N R (from state i, the probability of the round ending in outcome k) as whole numbers of
    ``b_unit``."""
    b_unit: Fraction
    """What one of ``b_whole`` stands for: ``n_unit`` / D."""

    @property
    def n(self) -> tuple[tuple[Fraction, ...], ...]:
        """The fundamental matrix N = (I - Q)^-1: expected visits to state j starting from state i."""
        return tuple(tuple(self.n_unit * visits for visits in row) for row in self.n_whole)

    @property
    def b(self) -> tuple[dict[int, Fraction], ...]:
        """B = N R: from state i, the probability of the round ending in outcome k."""
        return tuple({k: self.b_unit * p for k, p in row.items()} for row in self.b_whole)

    @classmethod
    def build(cls, start: Round) -> RoundChain:
        """Explore every state reachable from ``start`` and solve the chain."""
        if to_move(start) is not Mover.DICE:
            raise IllegalError(f"illegal start for an analysis ({start}): the dice are not to move")
        states: list[Round] = [start]
        index = {start: 0}
        outcomes: list[Outcome] = []
        outcome_index: dict[Outcome, int] = {}
        q: list[dict[int, Fraction]] = []
        r: list[dict[int, Fraction]] = []
        i = 0
        while i < len(states):
            q_row: dict[int, Fraction] = {}
            r_row: dict[int, Fraction] = {}
            for roll, probability in chance_totals(states[i]):
                after, _ = apply(states[i], roll)
                if after.outcome is not None:
                    k = outcome_index.setdefault(after.outcome, len(outcomes))
                    if k == len(outcomes):
                        outcomes.append(after.outcome)
                    r_row[k] = r_row[k] + probability if k in r_row else probability
                else:
                    if to_move(after) is not Mover.DICE:  # pragma: no cover - the engine never does this
                        raise IllegalError(f"illegal state in an analysis ({after}): a choice mid-round")
                    j = index.setdefault(after, len(states))
                    if j == len(states):
                        states.append(after)
                    q_row[j] = q_row[j] + probability if j in q_row else probability
            q.append(q_row)
            r.append(r_row)
            i += 1
        n_whole, n_unit, b_whole, b_unit = _solve(q, r)
        return cls(
            start=start,
            states=tuple(states),
            outcomes=tuple(outcomes),
            q=tuple(q),
            r=tuple(r),
            n_whole=n_whole,
            n_unit=n_unit,
            b_whole=b_whole,
            b_unit=b_unit,
        )

    def _absorbed(self, within: Callable[[Outcome], bool]) -> list[int]:
        """h(s), the probability of ending in an outcome ``within`` accepts from each transient state s, in
        whole numbers of ``b_unit``."""
        accepted = {k for k, outcome in enumerate(self.outcomes) if within(outcome)}
        return [sum(p for k, p in row.items() if k in accepted) for row in self.b_whole]

    def probability(self, within: Callable[[Outcome], bool] = lambda outcome: True) -> Fraction:
        """The probability that the round ends in an outcome ``within`` accepts."""
        return self.b_unit * sum(p for k, p in self.b_whole[0].items() if within(self.outcomes[k]))

    def outcome_probabilities(self) -> dict[Outcome, Fraction]:
        """The probability of each way the round can end."""
        return {self.outcomes[k]: self.b_unit * p for k, p in self.b_whole[0].items()}

    def throw_moments(
        self, within: Callable[[Outcome], bool] = lambda outcome: True
    ) -> tuple[Fraction, Fraction]:
        """E[T 1_A] and E[T^2 1_A] for T the number of throws and A the outcomes ``within`` accepts.

        Each visit to a transient state is one throw. E[T 1_A] sums the visits to s times h_A(s), the
        chance of ending in A from s; for the square, T^2 = sum over throws k of 2(T - k) - 1, and the
        throws still to come from s, counted on A, are g_A(s) = sum_s' N(s, s') h_A(s').

        In whole numbers, with N = n_unit W and h = b_unit H: g = n_unit b_unit (W H), and E[T^2 1_A] =
        sum_s' N(0, s') (2 g(s') - h(s')) = n_unit b_unit (2 n_unit (W W H)(0) - (W H)(0)).
        """
        h = self._absorbed(within)
        g = [sum(visits * h_s for visits, h_s in zip(row, h, strict=True)) for row in self.n_whole]
        start = self.n_whole[0]
        first = self.n_unit * self.b_unit * g[0]
        again = sum(visits * g_s for visits, g_s in zip(start, g, strict=True))
        second = self.n_unit * self.b_unit * (2 * self.n_unit * again - g[0])
        return first, second

    def throw_distribution(
        self, within: Callable[[Outcome], bool] = lambda outcome: True, *, up_to: int = 20
    ) -> list[Fraction]:
        """P(T = t and the round ends in A) for t = 1 .. ``up_to``.

        In integers: every probability of the chain is a whole number of 1/D (D the common denominator of
        Q and R, 36 for two dice), so the chance of standing in each state after t throws is a whole number
        of 1/D^t, and only each term of the result is a fraction.
        """
        scale = _denominator(self.q, self.r)
        q = [{j: _whole(p, scale) for j, p in row.items()} for row in self.q]
        direct = [sum(_whole(p, scale) for k, p in row.items() if within(self.outcomes[k])) for row in self.r]
        weights: dict[int, int] = {0: 1}  # in 1/scale^t
        result = []
        for t in range(up_to):
            result.append(Fraction(sum(w * direct[s] for s, w in weights.items()), scale ** (t + 1)))
            moved: dict[int, int] = {}
            for s, w in weights.items():
                for j, p in q[s].items():
                    moved[j] = moved.get(j, 0) + w * p
            weights = moved
        return result


def _solve(
    q: list[dict[int, Fraction]], r: list[dict[int, Fraction]]
) -> tuple[tuple[tuple[int, ...], ...], Fraction, tuple[dict[int, int], ...], Fraction]:
    """N = (I - Q)^-1 and B = N R of a chain's sparse rows, each as whole numbers and their unit."""
    size = len(q)
    unit = _denominator(q, r)
    i_minus_q = [[-_whole(row[b], unit) if b in row else 0 for b in range(size)] for row in q]
    for a in range(size):
        i_minus_q[a][a] += unit
    n_whole, n_unit = _whole_inverse(i_minus_q, unit)
    r_whole = [{k: _whole(p, unit) for k, p in row.items()} for row in r]
    b_whole: list[dict[int, int]] = []
    for visits_from in n_whole:
        absorbed: dict[int, int] = {}
        for visits, ends in zip(visits_from, r_whole, strict=True):
            if visits:
                for k, p in ends.items():
                    absorbed[k] = absorbed.get(k, 0) + visits * p
        b_whole.append(absorbed)
    return tuple(map(tuple, n_whole)), n_unit, tuple(b_whole), n_unit / unit


def _denominator(q: Sequence[dict[int, Fraction]], r: Sequence[dict[int, Fraction]]) -> int:
    """D, the common denominator of a chain's probabilities: each is a whole number of 1/D (D = 36 for two
    dice, or a divisor of it)."""
    return lcm(*(p.denominator for rows in (q, r) for row in rows for p in row.values()))


def _whole(value: Fraction, unit: int) -> int:
    """``value`` as a whole number of 1/``unit``, where ``unit`` is a multiple of its denominator."""
    return value.numerator * (unit // value.denominator)


def total(values: Iterable[Fraction]) -> Fraction:
    """Exact sum of fractions (``sum`` would start from the int 0 and lose the type for empty input)."""
    return sum(values, _ZERO)
