# a comment

2 4  # row 2
1 3
