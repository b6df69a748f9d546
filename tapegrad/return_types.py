"""PyTorch's ``torch.return_types``: the named tuples that max, sort, topk, cummax, median,
linalg.eigh, ... return, which print as PyTorch's do (under PyTorch's name, as dtypes and
Size do, so a script's printout reads the same on both)::

    torch.return_types.max(
    values=tensor([2.]),
    indices=tensor([1]))

Each type made by :func:`named` is also this module's attribute (``return_types.topk``).
"""
import collections


def _repr(self):
    fields = ",\n".join(f"{k}={v!r}" for k, v in zip(self._fields, self, strict=True))
    return f"torch.return_types.{type(self).__name__}(\n{fields})"


def named(typename, fields):
    """The named tuple type ``return_types.<typename>`` with these fields."""
    cls = collections.namedtuple(typename, fields)
    cls.__module__ = __name__
    cls.__repr__ = _repr
    globals()[typename] = cls
    return cls
