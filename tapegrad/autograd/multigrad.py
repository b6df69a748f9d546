"""``torch.autograd.graph.register_multi_grad_hook``: one hook over several tensors.
``mode="all"``: ``fn(grads)`` once per backward that reaches any of them, when the backward
ends, with None for the tensors it did not reach.  ``mode="any"``: ``fn(grad)`` with the
first of their gradients each backward computes."""
import threading

from ..tensor import Tensor
from . import engine


class _MultiHandle:
    def __init__(self, handles):
        self._handles = handles

    def remove(self):
        for h in self._handles:
            h.remove()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = list(tensors)
    if not all(isinstance(t, Tensor) and t.requires_grad for t in tensors):
        raise RuntimeError("register_multi_grad_hook: every tensor must require grad")
    lock, seen = threading.Lock(), {}

    def fire():
        with lock:
            grads = [seen.get(i) for i in range(len(tensors))]
            seen.clear()
        fn(grads)

    def hook_for(i):
        def hook(g):
            with lock:
                first = not seen
                if mode == "any" and not first:
                    return None
                seen[i] = g
            if mode == "any":
                # once per backward: forget the marker when this backward ends
                if engine.in_backward():
                    engine.queue_callback(seen.clear)
                fn(g)
            elif first:
                if engine.in_backward():
                    engine.queue_callback(fire)
                else:  # (a sweep outside backward/grad: deliver at once)
                    fire()
            return None
        return hook

    return _MultiHandle([t.register_hook(hook_for(i)) for i, t in enumerate(tensors)])


__all__ = ["register_multi_grad_hook"]
