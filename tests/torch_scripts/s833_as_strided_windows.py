# Sliding windows with as_strided and unfold (the NumPy stride-tricks answer ported), a moving
# average, and a Toeplitz matrix built from strides
import torch

x = torch.arange(10.0)
w = x.as_strided((8, 3), (1, 1))
print(w, w.mean(1))
print(x.unfold(0, 3, 1).equal(w), x.unfold(0, 4, 3))
c = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
full = torch.cat([c.flip(0)[:-1], c])
T = full.as_strided((5, 5), (1, 1), 4).flip(0) if False else torch.stack([full[4 - i:9 - i] for i in range(5)])
print(T)
m = torch.arange(12.0).view(3, 4)
print(m.as_strided((2, 2), (4, 1), 1), m.as_strided((3,), (5,)))
y = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
y.as_strided((3, 2), (1, 1)).sum().backward()
print(y.grad)
z = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
z.unfold(0, 2, 1).prod(1).sum().backward()
print(z.grad)
img = torch.arange(25.0).view(5, 5)
print(img.unfold(0, 3, 2).unfold(1, 3, 2).shape, img.unfold(0, 3, 2).unfold(1, 3, 2).sum((-1, -2)))
