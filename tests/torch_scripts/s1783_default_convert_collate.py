# torch.utils.data default_convert (batch_size=None loaders) and default_collate corner cases
import collections
import numpy as np
import torch
from torch.utils.data import DataLoader, default_collate, default_convert

print(default_convert(np.array([1.0, 2.0])))
print(default_convert(np.array([1, 2], dtype=np.int32)).dtype)
print(default_convert(np.float32(3.5)), type(default_convert(np.float32(3.5))).__name__)
print(default_convert({"a": np.arange(3), "b": "text", "c": [np.ones(2)]}))
Point = collections.namedtuple("Point", ["x", "y"])
print(default_convert(Point(np.zeros(2), 3)))
print(default_convert((np.array([True, False]), 1.5)))
print(default_convert(np.array(["a", "b"])))
batch = [Point(torch.tensor([1.0, 2.0]), 1), Point(torch.tensor([3.0, 4.0]), 2)]
print(default_collate(batch))
print(default_collate([{"img": np.ones((2, 2)), "label": 0, "name": "a"},
                       {"img": np.zeros((2, 2)), "label": 1, "name": "b"}]))
print(default_collate([True, False, True]))
print(default_collate([1.5, 2.5]).dtype, default_collate([1, 2]).dtype)
print(default_collate([np.int64(3), np.int64(4)]))
print(default_collate([[1, 2], [3, 4], [5, 6]]))
print(default_collate([(1, "a"), (2, "b")]))
try:
    default_collate([[1, 2], [3]])
except RuntimeError as e:
    print("RuntimeError", e)
try:
    default_collate([object(), object()])
except TypeError as e:
    print("TypeError", str(e).split(";")[0][:40])
loader = DataLoader([np.array([1.0, 2.0]), np.array([3.0, 4.0])], batch_size=None)
print([b for b in loader])
