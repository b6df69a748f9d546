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
