# boolean masks to read and write, index_put_ with accumulate=True and repeated indices
import torch

x = torch.arange(12.0).reshape(3, 4)
m = x % 3 == 0
print(m, x[m], x[m].shape)
x[m] = -1.0
print(x)
rows = torch.tensor([True, False, True])
print(x[rows], x[rows, 1:3], x[:, torch.tensor([False, True, True, False])])
acc = torch.zeros(5)
acc.index_put_((torch.tensor([0, 1, 1, 4, 1]),), torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0]), accumulate=True)
print(acc)
t = torch.zeros(2, 3)
t.index_put_((torch.tensor([0, 0, 1]), torch.tensor([2, 2, 0])), torch.tensor(1.5), accumulate=True)
print(t)
y = torch.zeros(4, dtype=torch.int64)
y.index_put_((torch.tensor([3, 3, 3]),), torch.tensor([1, 1, 1]), accumulate=True)
print(y, torch.zeros(3).index_put((torch.tensor([1, 1]),), torch.tensor([2.0, 5.0]), accumulate=True))
z = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = torch.zeros(2).index_put((torch.tensor([0, 1, 0]),), z * 2, accumulate=True)
out.backward(torch.tensor([1.0, 10.0]))
print(out, z.grad)
try:
    x[torch.tensor([True, False])]
except IndexError as e:
    print(e)
