"""``torch.compiler``'s questions and decorators, as a program that never runs under
torch.compile sees them: ``is_compiling()`` is False and ``disable``, ``allow_in_graph``
and their kin return the function they are given (``tapegrad.compile`` is tapegrad's own
tape replay, which these do not steer)."""


def is_compiling():
    """False: nothing here runs inside torch.compile's tracer."""
    return False


is_dynamo_compiling = is_exporting = is_compiling


def disable(fn=None, recursive=True, *, reason=None):
    """``fn`` itself (as a decorator, with or without arguments)."""
    return (lambda f: f) if fn is None else fn


def _identity(fn):
    return fn


allow_in_graph = assume_constant_result = substitute_in_graph = _identity


def reset():
    """Nothing to reset (no compiled-code caches)."""


def cudagraph_mark_step_begin():
    """No CUDA graphs on the CPU."""


def list_backends(exclude_tags=()):
    """No torch.compile backends."""
    return []


def __getattr__(name):
    raise AttributeError(f"module 'tapegrad.compiler' has no attribute '{name}' (tapegrad has "
                         f"no torch.compile; tapegrad.compile replays a recorded tape)")


__all__ = ["is_compiling", "is_dynamo_compiling", "is_exporting", "disable", "allow_in_graph",
           "assume_constant_result", "substitute_in_graph", "reset",
           "cudagraph_mark_step_begin", "list_backends"]
