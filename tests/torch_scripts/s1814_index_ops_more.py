# index ops: index_put_ accumulate with duplicates, index_add alpha, take/put, advanced mixes
import torch

x = torch.zeros(5)
x.index_put_((torch.tensor([0, 0, 3]),), torch.tensor([1.0, 2.0, 5.0]), accumulate=True)
print(x)
y = torch.zeros(3, 2)
print(y.index_add(0, torch.tensor([0, 2, 0]), torch.ones(3, 2), alpha=2.5))
print(y.index_copy(0, torch.tensor([2, 0]), torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
print(y.index_fill(1, torch.tensor([1]), -1.0))
print(torch.take(torch.arange(6).reshape(2, 3), torch.tensor([0, 5, 3])))
z = torch.zeros(2, 3)
z.put_(torch.tensor([1, 1, 4]), torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
print(z)
m = torch.tensor([[True, False, True], [False, True, False]])
print(torch.zeros(2, 3).masked_scatter(m, torch.arange(1.0, 7.0)))
a = torch.arange(24).reshape(2, 3, 4)
print(a[:, [0, 2], 1:3])
print(a[torch.tensor([1, 0]), :, torch.tensor([3, 0])])
print(a[..., torch.tensor([True, False, True, False])].shape)
print(a[1, torch.tensor([[0], [2]]), torch.tensor([1, 3])])
print(a[None, 0, ..., None].shape, a[:, None, 1].shape)
b = torch.zeros(3, 4)
b[torch.tensor([0, 2])] = torch.tensor([1.0, 2.0, 3.0, 4.0])
b[:, 1:3] += 10
b[b > 10] *= -1
print(b)
print(torch.nonzero(b < 0, as_tuple=True), torch.argwhere(b == 0).shape)
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = torch.zeros(4).index_put((torch.tensor([0, 0, 2]),), w * 2, accumulate=True)
out.sum().backward()
print(out, w.grad)
w.grad = None
torch.take(w, torch.tensor([0, 0, 2])).sum().backward()
print(w.grad)
try:
    a[0, 0, 9]
except IndexError as e:
    print("IndexError", e)
try:
    a[torch.tensor([True, False])]
except IndexError as e:
    print("IndexError", e)
print(torch.arange(10)[torch.tensor(3)], torch.arange(10)[2:8:3], torch.arange(10)[-3:])
