"""The formulations' encoders of the constraints beyond houses and cages (puzzles/constraints/): one registry
by kind for each formulation, `ENCODERS` in the module of its name, a function that adds one constraint to
that formulation's model. What a formulation knows is its registry's keys (`contract(..., knows=...)`): a puzzle
with a kind its registry lacks is not run by it.

- anti-knight, anti-king: CP-SAT `a != b` for each pair (the boolean model: not both x[a,v] and x[b,v]); SAT the
  binary clause (not x(a,v) or not x(b,v)); MIP the row x[a,v] + x[b,v] <= 1; python-constraint an
  AllDifferentConstraint over the pair;
- non-consecutive: CP-SAT a - b outside {-1, 1} (boolean model: each forbidden pair of values as a clause); SAT
  and MIP each forbidden pair of values (a binary clause, a row <= 1); python-constraint a function of the pair;
- thermometer: along the line, each two neighbours a, b: CP-SAT a < b on the cells' values; SAT support clauses
  (a holding v needs b above v, b holding w needs a below w); MIP sum(v x[a,v]) + 1 <= sum(v x[b,v]);
  python-constraint a function a < b.

A pair of cells that already share a house is left out of the difference kinds' statements: the houses say it.
Adding a kind: one encoder in each of these modules, and its line in each registry.
"""
