"""nn.Parameter: a Tensor that requires grad and that a Module registers."""
import numpy as np

from .. import dtypes
from ..tensor import COMPLEX_HOOKS, Tensor, add_view


class _ParameterMeta(type):
    """PyTorch's: ``isinstance(t, Parameter)`` also holds for a tensor flagged ``_is_param``
    (here a complex tensor made a parameter, which stays a ComplexTensor: its ops dispatch
    on that type)."""

    def __instancecheck__(cls, instance):
        t = type(instance)
        if t is COMPLEX_HOOKS.get("type"):
            return cls is Parameter and getattr(instance, "_is_param", False)
        return issubclass(t, cls)  # (type's own check, in C: isinstance stays cheap)


class Parameter(Tensor, metaclass=_ParameterMeta):
    """A leaf that requires grad (by default) and is listed by ``Module.parameters()``.

    >>> import tapegrad as tg
    >>> p = tg.nn.Parameter(tg.ones(2))
    >>> p.requires_grad, p.is_leaf
    (True, True)
    """

    __slots__ = ()
    _format_as_number = False

    def __new__(cls, data=None, *args, **kwargs):  # (subclasses' own arguments pass by)
        if type(data) is COMPLEX_HOOKS.get("type"):  # (its two parts become the leaves)
            return COMPLEX_HOOKS["parameter"](data, *args, **kwargs)
        return super().__new__(cls)

    def __init__(self, data=None, requires_grad=True):
        if data is None:
            data = np.zeros(0)
        if getattr(data, "_inf", False):  # (an inference tensor's parameter is one too)
            self._inf = True
        if not isinstance(data, Tensor):
            super().__init__(data)
        else:  # PyTorch's: a new leaf on data's memory (its detach(): writes through either
            d = data.detach()  # show in the other, one version counter), where a
            super().__init__(np.zeros(0, d.dtype))  # Tensor(data) would copy the values
            self._data = d._data
            self._da = d._da
            add_view(data, self)
        self._check_can_require(requires_grad, "Only Tensors of floating point and complex "
                                "dtype")  # (PyTorch's words for a parameter)
        if requires_grad:
            self.requires_grad_(True)

    def __copy__(self):  # (PyTorch's: a Parameter on the same memory, without .grad)
        return Parameter(self, self._rg)

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


class _Uninitialized:
    """What the lazy modules hold until their first input sets the shapes: an empty tensor
    that ``materialize(shape)`` fills (zeros; the module's ``reset_parameters`` follows)
    and turns into ``cls_to_become`` in place, so references to it stay valid."""

    __slots__ = ()
    cls_to_become = Tensor

    def materialize(self, shape, device=None, dtype=None):
        """Give the tensor ``shape`` (zeros, in ``dtype`` or its own) and its final class."""
        dt = np.dtype(dtype) if dtype is not None else self.dtype
        self.data = Tensor(np.zeros(tuple(shape), dt))
        self.__class__ = self.cls_to_become

    def __repr__(self):
        return f"<{type(self).__name__}>"


class UninitializedParameter(_Uninitialized, Parameter):
    """A Parameter whose shape is not known yet (a lazy module's, until its first forward).

    >>> import tapegrad as tg
    >>> p = tg.nn.UninitializedParameter()
    >>> p.materialize((2, 3)); type(p).__name__, tuple(p.shape)
    ('Parameter', (2, 3))
    """

    __slots__ = ()
    cls_to_become = Parameter

    def __init__(self, requires_grad=True, device=None, dtype=None):
        super().__init__(np.zeros(0, dtypes.to_dtype(dtype) or dtypes.get_default_dtype()),
                         requires_grad)

    def __reduce_ex__(self, protocol):
        return (UninitializedParameter, (self._rg,))


class UninitializedBuffer(_Uninitialized, Tensor):
    """A buffer whose shape is not known yet (a lazy norm's running statistics)."""

    __slots__ = ()
    cls_to_become = Tensor

    def __init__(self, requires_grad=False, device=None, dtype=None, persistent=True):
        super().__init__(np.zeros(0, dtypes.to_dtype(dtype) or dtypes.get_default_dtype()),
                         requires_grad=requires_grad)

    def __reduce_ex__(self, protocol):
        return (UninitializedBuffer, ())


def is_lazy(param):
    """Whether ``param`` is an uninitialized parameter or buffer."""
    return isinstance(param, _Uninitialized)
