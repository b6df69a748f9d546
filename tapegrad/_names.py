"""PyTorch's names for the functions of ``torch.special``, ``torch.linalg`` and ``torch.fft``:
each is a builtin of ``torch._C._<module>`` named ``<module>_<name>``
(``torch.special.expit.__name__ == "special_expit"``), and scripts print or dispatch on those
names.  Ours carry the same ``__name__`` and ``__qualname__``; ``__module__`` stays the public
tapegrad module, whose ``__getattr__`` answers the prefixed name, so that pickle finds the
function again (a ``torch._C`` module name would send it to PyTorch)."""
import types


def torch_named(namespace, prefix):
    """Rename the functions in ``namespace["__all__"]`` to ``prefix + name`` (copies, so a
    function shared with another namespace, ``tg.erf`` and ``tg.special.erf``, keeps its own
    name there) and return the module ``__getattr__`` that resolves the prefixed names."""
    module = namespace["__name__"]
    by_name = {}
    for name in namespace["__all__"]:
        f = namespace[name]
        if not isinstance(f, types.FunctionType):
            continue  # (a class, LinAlgError, keeps its own)
        g = types.FunctionType(f.__code__, f.__globals__, prefix + name, f.__defaults__,
                               f.__closure__)
        g.__dict__.update(f.__dict__)
        g.__kwdefaults__, g.__doc__ = f.__kwdefaults__, f.__doc__
        g.__annotations__ = f.__annotations__
        g.__qualname__, g.__module__ = prefix + name, module
        namespace[name] = by_name[prefix + name] = g

    def __getattr__(name):  # noqa: N807 (the module hook)
        try:
            return by_name[name]
        except KeyError:
            raise AttributeError(f"module {module!r} has no attribute {name!r}") from None

    return __getattr__
