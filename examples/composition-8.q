# A composition of 4 queens on the 8 x 8 board as the paper's array Q: the
# column of the queen in each row, 0 for an empty row. Taken from the solution
# 1 7 5 8 2 4 6 3 by keeping rows 1, 3, 4 and 7.
1 0 5 8 0 0 6 0
