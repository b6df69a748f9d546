import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1, 10, dtype=torch.float64).reshape(1, 1, 3, 3).requires_grad_()
for pad in [nn.ReflectionPad2d(1), nn.ReplicationPad2d((1, 0, 2, 1)), nn.ZeroPad2d((0, 1, 1, 0)),
            nn.ConstantPad2d(1, 3.5), nn.CircularPad2d(1)]:
    y = pad(x)
    y.backward(torch.arange(y.numel(), dtype=torch.float64).reshape(y.shape))
    print(pad, tuple(y.shape), y.grad_fn.name())
    print(y[0, 0])
    print(x.grad[0, 0])
    x.grad = None
s = torch.tensor([[[1.0, 2.0, 3.0, 4.0]]])
print(nn.ReflectionPad1d(2)(s), nn.ReplicationPad1d((0, 3))(s), nn.CircularPad1d((1, 2))(s))
print(F.pad(s, (1, 1), mode="reflect"), F.pad(s, (2, 0), value=-1.0))
try:
    nn.ReflectionPad1d(4)(s)
except RuntimeError as e:
    print("RuntimeError:", str(e).split("\n")[0])
