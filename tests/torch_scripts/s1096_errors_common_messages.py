# Common mistakes caught and printed: backward twice, in-place on leaf, non-scalar backward, view on non-contiguous
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
try:
    y.backward()
except RuntimeError as e:
    print(str(e).split(".")[0])
try:
    x.add_(1)
except RuntimeError as e:
    print(e)
try:
    (x * 2).backward()
except RuntimeError as e:
    print(str(e)[:54])
try:
    torch.arange(6).view(2, 3).t().view(6)
except RuntimeError as e:
    print(str(e)[:80])
try:
    torch.ones(2, 3) @ torch.ones(2, 3)
except RuntimeError as e:
    print(e)
try:
    torch.cat([torch.ones(2, 3), torch.ones(3, 2)])
except RuntimeError as e:
    print(e)
try:
    torch.ones(3).view(2, 2)
except RuntimeError as e:
    print(e)
try:
    torch.tensor([1, 2]).requires_grad_()
except RuntimeError as e:
    print(str(e)[:57])
try:
    torch.ones(2, 2).expand(3, 3)
except RuntimeError as e:
    print(str(e)[:80])
