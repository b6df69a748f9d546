"""nn.Parameter: a Tensor that requires grad and that a Module registers."""
import numpy as np

from ..tensor import Tensor


class Parameter(Tensor):
    """A leaf that requires grad (by default) and is listed by ``Module.parameters()``.

    >>> import tapegrad as tg
    >>> p = tg.nn.Parameter(tg.ones(2))
    >>> p.requires_grad, p.is_leaf
    (True, True)
    """

    __slots__ = ()

    def __init__(self, data=None, requires_grad=True):
        if data is None:
            data = np.zeros(0)
        super().__init__(data.detach() if isinstance(data, Tensor) else data,
                         requires_grad=requires_grad)

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol):
        return (Parameter, (np.asarray(self._data), self._rg))


class Buffer(Tensor):
    """A tensor that, assigned as a Module attribute, is registered as a buffer
    (``persistent=False``: left out of state_dict), as PyTorch's ``nn.Buffer``.

    >>> import tapegrad as tg
    >>> m = tg.nn.Module()
    >>> m.steps = tg.nn.Buffer(tg.zeros(1))
    >>> list(m.state_dict())
    ['steps']
    """

    __slots__ = ("persistent",)

    def __init__(self, data=None, *, persistent=True):
        if data is None:
            data = np.zeros(0)
        rg = data.requires_grad if isinstance(data, Tensor) else False
        super().__init__(data.detach() if isinstance(data, Tensor) else data, requires_grad=rg)
        self.persistent = persistent

    def __reduce_ex__(self, protocol):
        return (Tensor, (np.asarray(self._data),))
