# Not a composition: the queens of rows 2 and 5 share a diagonal.
# `nqueens validate` reports the pair and exits with status 1; `nqueens
# complete` rejects it the same way.
0 3 0 0 6 0 0 0
