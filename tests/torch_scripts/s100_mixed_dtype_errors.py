import torch
import torch.nn as nn
import torch.nn.functional as F
import numpy as np

torch.set_default_dtype(torch.float32)  # the usual setup: float32 models
try:
    model = nn.Linear(3, 2)
    print(model.weight.dtype)
    x64 = torch.tensor(np.ones((4, 3)))
    print(x64.dtype)
    try:
        model(x64)
    except RuntimeError as e:
        print(type(e).__name__, e)
    print(model(x64.float()).dtype)
    model.double()
    print(model(x64).dtype, model.weight.dtype)
    model.to(torch.float32)
    print(model.bias.dtype, model(x64.to(model.weight.dtype)).dtype)
    try:
        F.linear(torch.ones(2, 3), torch.ones(4, 3), torch.zeros(4, dtype=torch.float64))
    except RuntimeError as e:
        print(e)
    try:
        F.linear(torch.ones(2, 3, dtype=torch.float64), torch.ones(4, 3))
    except RuntimeError as e:
        print(e)
    for a, b in [((2, 2), (2, 2)), ((3,), (3,)), ((2, 3), (3,)), ((2, 2, 3), (2, 3, 2)), ((4, 2, 3), (3,))]:
        try:
            torch.ones(a) @ torch.ones(b, dtype=torch.float64)
        except RuntimeError as e:
            print(a, b, e)
    try:
        torch.bmm(torch.ones(1, 2, 2, dtype=torch.float64), torch.ones(1, 2, 2))
    except RuntimeError as e:
        print(e)
    try:
        F.binary_cross_entropy(torch.sigmoid(torch.zeros(3)), torch.tensor([1.0, 0.0, 1.0], dtype=torch.float64))
    except RuntimeError as e:
        print(e)
    print(F.binary_cross_entropy_with_logits(torch.zeros(3), torch.ones(3), weight=torch.ones(3, dtype=torch.float64)).dtype)
    print((torch.ones(2) + torch.ones(2, dtype=torch.float64)).dtype, torch.outer(torch.ones(2), torch.ones(2, dtype=torch.float64)).dtype)
finally:
    torch.set_default_dtype(torch.float64)
try:
    torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.long)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.inner(torch.ones(3, dtype=torch.int32), torch.ones(3))
except RuntimeError as e:
    print(e)
try:
    torch.nn.functional.cross_entropy(torch.randn(3, 4), torch.tensor([1.0, 2.0, 0.0]))
except RuntimeError as e:
    print(type(e).__name__)
try:
    torch.tensor([1, 2, 3], requires_grad=True)
except RuntimeError as e:
    print(type(e).__name__, str(e).startswith("Only Tensors of floating point"))
try:
    nn.Embedding(5, 2)(torch.tensor([1.0, 2.0]))
except RuntimeError as e:
    print(type(e).__name__)
print(torch.get_default_dtype())
