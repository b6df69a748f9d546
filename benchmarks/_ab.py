"""The rounds of an interleaved A/B (ab_west.py, ab_gmm.py): worker processes, each already
warmed and waiting on stdin, are asked in turn, the order reversed every other round, for
a number of timed calls; each answers with a JSON list of the calls' CPU times."""
import json

import numpy as np

# the end of a worker's source: once ``call`` is defined and warm, the timed calls asked for
SERVE = r'''
for line in sys.stdin:
    ts = []
    for _ in range(int(line)):
        t0 = time.process_time(); call(); ts.append(time.process_time() - t0)
    print(json.dumps(ts), flush=True)
'''


def medians(procs, rounds, calls):
    """Each worker's median time over ``rounds`` rounds of ``calls(i)`` calls; closes them."""
    times = [[] for _ in procs]
    for r in range(rounds):
        order = range(len(procs)) if r % 2 == 0 else reversed(range(len(procs)))
        for i in order:
            procs[i].stdin.write(f"{calls(i)}\n")
            procs[i].stdin.flush()
            times[i] += json.loads(procs[i].stdout.readline())
    for p in procs:
        p.stdin.close()
        p.wait()
    return [float(np.median(t)) for t in times]
