# gradient of scatter_reduce amax/amin with ties, and of mean
import torch

src = torch.tensor([1.0, 3.0, 3.0, 2.0, 0.5], requires_grad=True)
idx = torch.tensor([0, 0, 0, 1, 1])
for red in ["amax", "amin", "mean", "sum"]:
    src.grad = None
    out = torch.zeros(2).scatter_reduce(0, idx, src, red, include_self=False)
    out.backward(torch.tensor([1.0, 10.0]))
    print(red, out, src.grad)
