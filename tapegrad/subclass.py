"""``Tensor.as_subclass(cls)``: the tensor as an instance of a Tensor subclass, as PyTorch's:
an alias of its values (in-place ops write through, as to any view here) that stays on the
autograd graph (``AliasBackward0`` when it records), made without calling ``cls.__init__``."""
from .tensor import Tensor, _new

_FIELDS = tuple(n for n in Tensor.__slots__ if n != "__weakref__")


def as_subclass(self, cls):
    """``self`` as a ``cls`` (a subclass of Tensor) sharing its values and graph.

    >>> import tapegrad as tg
    >>> class Tagged(tg.Tensor):
    ...     pass
    >>> type(tg.ones(2).as_subclass(Tagged)).__name__
    'Tagged'
    """
    if not (isinstance(cls, type) and issubclass(cls, Tensor)):
        raise TypeError("Creating a Tensor subclass from a class that does not inherit from "
                        "Tensor is not possible. Make sure your class inherits from Tensor.")
    alias = self[...]  # (a view: AliasBackward0, writes go through to self)
    out = _new(cls)
    for name in _FIELDS:
        try:
            setattr(out, name, getattr(alias, name))
        except AttributeError:  # (an unset slot stays unset)
            pass
    return out


Tensor.as_subclass = as_subclass


def _convert(ret, cls):
    """``ret`` with its tensors as ``cls`` instances (PyTorch's rule for a subclass)."""
    if isinstance(ret, Tensor) and not isinstance(ret, cls):
        return as_subclass(ret, cls)
    if isinstance(ret, (tuple, list)):
        items = [_convert(r, cls) for r in ret]
        return type(ret)._make(items) if hasattr(type(ret), "_make") else type(ret)(items)
    return ret


@classmethod
def __torch_function__(cls, func, types, args=(), kwargs=None):  # noqa: N807 (PyTorch's)
    """PyTorch's default ``__torch_function__``: ``func(*args, **kwargs)``, tensors in the
    result made ``cls`` instances (NotImplemented where a type in ``types`` is not a base
    of ``cls``).  A subclass's override may call it through ``super()``; tapegrad's own ops
    never dispatch through it (no ``__torch_function__`` protocol: docs/limits.md)."""
    if not all(issubclass(cls, t) for t in types):
        return NotImplemented
    ret = func(*args, **(kwargs or {}))
    return ret if cls is Tensor else _convert(ret, cls)


Tensor.__torch_function__ = __torch_function__
