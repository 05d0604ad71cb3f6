"""A sorting network for 10 inputs, as few comparators as possible.

A comparator (i, j) with i < j compares the values on wires i and j and swaps them when wire i
holds the larger one. A sorting network is a fixed list of comparators that sorts every input.
evaluate.py calls the frozen run_network() below and checks the network on all 2^10 inputs of
zeros and ones (the 0-1 principle: a network that sorts those sorts everything).

This file is in ShinkaEvolve's task format: initial.py with EVOLVE-BLOCK markers, evaluate.py
called with --program_path and --results_dir.
"""

N = 10

# EVOLVE-BLOCK-START
def build_network(n):
    """Bubble sort written as a network: pass after pass of neighbouring comparators, each pass
    carrying the largest value left to the end. Correct, but it uses n(n-1)/2 comparators."""
    comparators = []
    for end in range(n - 1, 0, -1):
        for i in range(end):
            comparators.append((i, i + 1))
    return comparators
# EVOLVE-BLOCK-END


def run_network():
    """The evaluator calls this: a list of (i, j) pairs with 0 <= i < j < N."""
    return build_network(N)
