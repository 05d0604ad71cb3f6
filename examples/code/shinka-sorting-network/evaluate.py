"""Evaluator for initial.py, in ShinkaEvolve's calling convention.

    python3 evaluate.py --program_path initial.py --results_dir results

Calls the program's run_network() in a child process, checks that the comparators sort every input of N
zeros and ones, and writes:

- results/correct.json  {"correct": bool, "error": str | null}
- results/metrics.json  {"combined_score", "public", "private", "text_feedback"}

combined_score is 29 / (number of comparators): 29 is the fewest any 10-input sorting network can
have, so 1.0 is optimal. Python standard library only; extra --key value arguments (ShinkaEvolve
passes some) are ignored.
"""

import argparse
import json
import math
import os
import signal
import subprocess
import sys
import tempfile

N = 10
OPTIMAL_SIZE = 29  # proved optimal for 10 inputs
OPTIMAL_DEPTH = 7  # proved optimal for 10 inputs
MAX_COMPARATORS = 1000
TIME_LIMIT_S = 10


# Runs in a child process: imports the program, calls run_network() and writes its answer as JSON
# (or the error, with the program's own traceback lines) to the file named by argv[2]. The network
# is checked back here, in a process the program never ran in, so nothing it does (replacing a
# function of this evaluator, say) can change the verdict.
CHILD = r"""
import importlib.util, json, os, sys, traceback
program_path, answer_path = sys.argv[1], sys.argv[2]
try:
    spec = importlib.util.spec_from_file_location("program", program_path)
    if spec is None or spec.loader is None:
        raise ImportError("cannot load " + program_path + " as a Python module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not callable(getattr(module, "run_network", None)):
        raise ValueError("the program does not define a function run_network()")
    network = module.run_network()
    try:
        text = json.dumps({"network": network})
    except (TypeError, ValueError) as exc:
        raise ValueError("run_network() must return a list of (i, j) pairs of integers; " + str(exc))
except Exception as exc:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if os.path.abspath(f.filename) == os.path.abspath(program_path)]
    where = "".join(traceback.format_list(frames))
    text = json.dumps({"error": type(exc).__name__ + ": " + str(exc) + ("\n" + where if where else "")})
with open(answer_path, "w") as f:
    f.write(text)
"""


def run_program(program_path):
    """Calls the program's run_network() in a child process with a time limit; returns the network or raises ValueError.

    The child has a session (process group) of its own and a clean environment (PATH only): when it
    is done, or out of time, the group is killed, so nothing it started is left to write where this
    evaluator writes its results."""
    with tempfile.TemporaryDirectory() as tmp:
        answer_path = os.path.join(tmp, "answer.json")
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, os.path.abspath(program_path), answer_path],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            env={"PATH": os.environ.get("PATH", "")},
            cwd=tmp,
        )
        try:
            stdout, stderr = child.communicate(timeout=TIME_LIMIT_S)
        except subprocess.TimeoutExpired:
            kill_group(child.pid)
            child.communicate()
            raise ValueError(f"run_network() did not return within {TIME_LIMIT_S} s") from None
        kill_group(child.pid)
        if not os.path.exists(answer_path):
            tail = (stderr or stdout).strip()[-2000:]
            raise ValueError(f"the program exited (code {child.returncode}) before run_network() returned" + (f"\n{tail}" if tail else ""))
        with open(answer_path) as f:
            answer = json.load(f)
    if "error" in answer:
        raise ValueError(answer["error"])
    return answer["network"]


def kill_group(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # gone already


def end_program_processes():
    """Before the verdict: under Ratchet's jail or namespaces the evaluation has a process tree of its
    own (RATCHET_ISOLATION says so), and every process in it but this one and those it runs under
    is the program's. A few passes, for a process forked while the last one looked."""
    if os.environ.get("RATCHET_ISOLATION") not in ("jail", "namespaces"):
        return

    def parent_of(pid):
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
            return int(stat[stat.rindex(")") + 2:].split()[1])
        except (OSError, ValueError):
            return 0

    keep, pid = set(), os.getpid()
    while pid > 0 and pid not in keep:
        keep.add(pid)
        pid = parent_of(pid)
    for _ in range(3):
        for name in os.listdir("/proc"):
            if name.isdigit() and int(name) not in keep:
                try:
                    os.kill(int(name), signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass


def check_shape(network):
    """Returns the comparators as a list of (i, j) tuples, or raises ValueError saying what is wrong."""
    if not isinstance(network, (list, tuple)):
        raise ValueError(f"run_network() must return a list of (i, j) pairs; it returned {type(network).__name__}")
    if len(network) > MAX_COMPARATORS:
        raise ValueError(f"the network has {len(network)} comparators; at most {MAX_COMPARATORS} are allowed")
    pairs = []
    for k, c in enumerate(network):
        if not isinstance(c, (list, tuple)) or len(c) != 2:
            raise ValueError(f"comparator {k} is {c!r}, not a pair (i, j)")
        i, j = c
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (i, j)):
            raise ValueError(f"comparator {k} is {c!r}: both wires must be integers")
        if not (0 <= i < j < N):
            raise ValueError(f"comparator {k} is {c!r}: it needs 0 <= i < j < {N}")
        pairs.append((i, j))
    return pairs


def first_unsorted_input(pairs):
    """The first 0-1 input (as a list) that the network leaves unsorted, with its output; None if all sort."""
    for bits in range(1 << N):
        wires = [(bits >> w) & 1 for w in range(N)]
        for i, j in pairs:
            if wires[i] > wires[j]:
                wires[i], wires[j] = wires[j], wires[i]
        if any(wires[w] > wires[w + 1] for w in range(N - 1)):
            return [(bits >> w) & 1 for w in range(N)], wires
    return None


def depth(pairs):
    """Parallel layers: each comparator goes one layer after the latest one touching its wires."""
    level = [0] * N
    for i, j in pairs:
        level[i] = level[j] = max(level[i], level[j]) + 1
    return max(level, default=0)


def evaluate(program_path):
    """Returns (correct, error, metrics)."""
    try:
        pairs = check_shape(run_program(program_path))
    except ValueError as exc:  # the program's failure, reported to the proposer
        error = str(exc)
        return False, error, {"combined_score": 0.0, "public": {}, "private": {}, "text_feedback": error}

    unsorted = first_unsorted_input(pairs)
    if unsorted is not None:
        given, out = unsorted
        error = (
            f"the network does not sort: the input {given} comes out as {out} "
            f"(wire 0 first; {len(pairs)} comparators)"
        )
        return False, error, {"combined_score": 0.0, "public": {"comparators": len(pairs)}, "private": {}, "text_feedback": error}

    size, d = len(pairs), depth(pairs)
    score = OPTIMAL_SIZE / size if size else 0.0
    if not math.isfinite(score):
        return False, "the score is not finite", {"combined_score": 0.0, "public": {}, "private": {}, "text_feedback": ""}
    return True, None, {
        "combined_score": score,
        "public": {"comparators": size, "depth": d},
        "private": {"optimal_comparators": OPTIMAL_SIZE, "optimal_depth": OPTIMAL_DEPTH},
        "text_feedback": (
            f"The network sorts all {1 << N} zero-one inputs with {size} comparators in {d} layers. "
            f"The fewest possible for {N} inputs is {OPTIMAL_SIZE} comparators; the fewest layers possible is {OPTIMAL_DEPTH}."
        ),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--program_path", default="initial.py")
    parser.add_argument("--results_dir", default="results")
    args, _extra = parser.parse_known_args(argv)

    correct, error, metrics = evaluate(args.program_path)
    end_program_processes()
    os.makedirs(args.results_dir, exist_ok=True)
    with open(os.path.join(args.results_dir, "correct.json"), "w") as f:
        json.dump({"correct": correct, "error": error}, f, indent=2)
    with open(os.path.join(args.results_dir, "metrics.json"), "w") as f:
        json.dump(metrics, f, indent=2)
    print(f"correct={correct} combined_score={metrics['combined_score']:.6f}" + (f" error={error.splitlines()[0]}" if error else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
