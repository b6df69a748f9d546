# building tensors from lists of numpy arrays / 0-d arrays / mixed, as data loading code does
import numpy as np
import torch
import warnings

warnings.simplefilter("ignore")
print(torch.tensor([np.array([1.0, 2.0]), np.array([3.0, 4.0])]))
print(torch.tensor(np.array([[1, 2], [3, 4]], dtype=np.int32)).dtype)
print(torch.tensor([np.float32(1.5), np.float32(2.5)]).dtype)
print(torch.tensor([np.int64(3), 4]).dtype)
print(torch.stack([torch.from_numpy(np.arange(3.0)) for _ in range(2)]))
try:
    torch.tensor([np.ones(2), np.ones(3)])
except (ValueError, TypeError) as e:
    print(type(e).__name__, e)
try:
    torch.tensor([[1.0, 2.0], [3.0]])
except ValueError as e:
    print(e)
print(torch.as_tensor([1, 2.5]), torch.as_tensor(np.array([True, False])))
print(torch.tensor([torch.tensor(1.0), torch.tensor(2.0)]))
print(torch.from_numpy(np.array([1, 2], dtype=np.uint8)) + 1)
