# F.pad used for cropping with negative pads, constant value pads, padding a sequence batch
# to a multiple of 8, reflect/replicate on 3-d, and pad on the last two dims
import torch
import torch.nn.functional as F

x = torch.arange(16.0).view(1, 1, 4, 4)
print(F.pad(x, (-1, -1, -1, -1)), F.pad(x, (1, -2)).shape, F.pad(x, (0, 0, 2, -1)).shape)
print(F.pad(torch.ones(2, 3), (1, 2), value=-5.0))
seq = torch.ones(3, 13)
pad = (8 - seq.size(1) % 8) % 8
print(F.pad(seq, (0, pad)).shape, pad)
s = torch.arange(5.0).view(1, 1, 5)
print(F.pad(s, (2, 2), mode="reflect"), F.pad(s, (1, 3), mode="replicate"), F.pad(s, (2, 1), mode="circular"))
print(F.pad(torch.arange(4).view(2, 2), (1, 1, 1, 1)), F.pad(torch.tensor([True]), (1, 1)))
y = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
F.pad(y, (2, -1), value=7.0).sum().backward()
print(y.grad)
print(torch.nn.ZeroPad2d((1, 0, 0, 1))(torch.ones(1, 2, 2)), torch.nn.ConstantPad1d(2, 3.5)(torch.zeros(1, 2)))
try:
    F.pad(s, (5, 0), mode="reflect")
except RuntimeError as e:
    print(str(e)[:80])
