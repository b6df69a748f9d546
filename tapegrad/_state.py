"""Thread-local state consulted on every op: grad mode and the current tape."""
import threading

from ._fp import quiet_context


class _State(threading.local):
    def __init__(self):
        self.grad_enabled = True
        self.inference = False
        self.tape = None  # created lazily by tape.current_tape()
        self.tracing = None  # the private tape of tapegrad.trace while it records
        self.in_place = ""  # the in-place spelling running (ops/inplace_more.py _method)
        self.segment = 0  # slots of the graphs a backward swept across segments (tape.py _split)
        # ``quiet.run(ufunc, ...)``: NumPy with FP errors ignored (_fp.quiet_context); the
        # hot elementwise paths read it with grad mode (one thread-local read)
        self.quiet = quiet_context()


state = _State()
INFERENCE_THREADS = [0]  # threads inside inference_mode: tensors made then are marked


class _Anomaly:
    """Anomaly detection (autograd/anomaly.py): process-wide, as in PyTorch."""

    enabled = False
    check_nan = True


anomaly = _Anomaly()
