#!/usr/bin/env python3
"""A composition as a SAT problem, to run a SAT solver on the boards of
docs/hard-instances.md beside the exact search (docs/hard-instances-log.md,
"A SAT solver on the same boards").

    python3 bench/board_to_cnf.py BOARD.q > BOARD.cnf
    cadical -q BOARD.cnf

BOARD.q is a Q array (docs/reference/formats.md), as `nqueens-hard-instances
--write_boards` writes them. The CNF (DIMACS) has a variable per open cell of
the free rows and free columns (a cell no given queen attacks); each free row
and each free column takes at least one queen, and no two queens share a row,
a column or a diagonal (every pair of cells on one line, not both). It is
satisfiable exactly when the composition has a completion.
"""
import itertools
import sys


def read_q_array(path):
    """The columns of a Q array file, 0 for an empty row."""
    numbers = []
    with open(path, encoding="utf-8") as board:
        for line in board:
            numbers += [int(word) for word in line.split("#", 1)[0].split()]
    return numbers


def cnf(columns):
    """The DIMACS text of the completion problem of `columns`."""
    n = len(columns)
    taken_sums = {row + column for row, column in enumerate(columns, 1) if column}
    taken_differences = {row - column for row, column in enumerate(columns, 1) if column}
    taken_columns = set(columns) - {0}
    free_rows = [row for row, column in enumerate(columns, 1) if column == 0]
    free_columns = [column for column in range(1, n + 1) if column not in taken_columns]
    lines = {}  # ("row" | "column" | "sum" | "difference", number): its cells' variables
    variables = 0
    for row in free_rows:
        for column in free_columns:
            if row + column in taken_sums or row - column in taken_differences:
                continue
            variables += 1
            for key in (("row", row), ("column", column), ("sum", row + column),
                        ("difference", row - column)):
                lines.setdefault(key, []).append(variables)
    clauses = [lines.get(("row", row), []) for row in free_rows]
    clauses += [lines.get(("column", column), []) for column in free_columns]
    for cells in lines.values():
        clauses += [[-x, -y] for x, y in itertools.combinations(cells, 2)]
    text = [f"c n={n} free rows={len(free_rows)} open cells={variables}",
            f"p cnf {variables} {len(clauses)}"]
    text += [" ".join(map(str, clause)) + " 0" for clause in clauses]
    return "\n".join(text) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: board_to_cnf.py BOARD.q")
    sys.stdout.write(cnf(read_q_array(sys.argv[1])))


if __name__ == "__main__":
    main()
