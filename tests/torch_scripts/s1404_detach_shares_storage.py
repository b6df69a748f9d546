# detach shares storage; in-place on a detached view bumps the version seen by autograd
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.sigmoid()
d = y.detach()
d[0] = 100.0
print(y)
try:
    y.sum().backward()
except RuntimeError as e:
    print("RuntimeError", "inplace" in str(e))
z = x.detach().clone()
z[0] = 5.0
print(x, z, x.data_ptr() == x.detach().data_ptr())
x.data[1] = 7.0
print(x, x.requires_grad)
