"""``torch.utils.checkpoint``: the calls run, with the same values and gradients; nothing is
recomputed, so no memory is saved (the tape keeps what the segment's rules read)."""


def checkpoint(function, *args, use_reentrant=None, context_fn=None,
               determinism_check="default", debug=False, preserve_rng_state=True, **kwargs):
    """``function(*args, **kwargs)``, recorded as usual.

    >>> import tapegrad as tg
    >>> x = tg.tensor(2.0, requires_grad=True)
    >>> checkpoint(lambda v: v * v, x, use_reentrant=False).backward()
    >>> x.grad
    tensor(4.)
    """
    return function(*args, **kwargs)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """``input`` through each of ``functions`` (a list or an nn.Sequential) in turn."""
    for f in (functions.children() if hasattr(functions, "children") else functions):
        input = f(input)
    return input


__all__ = ["checkpoint", "checkpoint_sequential"]
