# only floating point tensors can require grad; mean of ints errors; grads of float casts
import torch

for make in [lambda: torch.tensor([1, 2], requires_grad=True), lambda: torch.arange(3).requires_grad_(), lambda: torch.tensor([True]).requires_grad_()]:
    try:
        make()
        print("ok")
    except RuntimeError as e:
        print("RuntimeError", str(e)[:40])
try:
    torch.tensor([1, 2, 3]).mean()
except RuntimeError as e:
    print("RuntimeError", str(e)[:40])
x = torch.tensor([1.5, 2.5], requires_grad=True)
i = x.long()
print(i, i.requires_grad, i.grad_fn)
f = x.to(torch.float32)
f.sum().backward()
print(x.grad, x.grad.dtype)
