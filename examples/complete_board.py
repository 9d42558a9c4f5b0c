#!/usr/bin/env python3
"""Completes a board in the q format on an nqueens-server, checks the answer
with the server's validator, and prints it.

usage: complete_board.py [BOARD.q]   (default: composition-8.q beside this file)

The server is $NQUEENS_SERVER (default localhost:50051), as for the CLI.
Needs the nqueens package (clients/python).
"""
import os
import sys

import nqueens


def read_q_board(path):
    """The columns of a q file: integers, '#' starting a comment."""
    with open(path, encoding="utf-8") as file:
        text = " ".join(line.split("#", 1)[0] for line in file)
    return [int(value) for value in text.split()]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "composition-8.q")
    server = os.environ.get("NQUEENS_SERVER", "localhost:50051")
    with nqueens.Client(server) as client:
        result = client.complete(read_q_board(path))
        print(result.outcome)
        if result.board is None:
            return 1
        # Trust the validator, not the solver.
        check = client.validate(result.board)
        print(" ".join(map(str, result.board)))
        print("valid and complete" if check.valid and check.complete else "NOT a solution")
        return 0 if check.valid and check.complete else 1


if __name__ == "__main__":
    sys.exit(main())
