import numpy as np
import torch
from torch.autograd import Variable

x = Variable(torch.ones(2, 2), requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
out.backward()
print(x.grad, type(x).__name__, isinstance(x, torch.Tensor))
a = torch.FloatTensor([[1, 2], [3, 4]])
b = torch.LongTensor([1, 0])
print(a, a.dtype, b.dtype, torch.DoubleTensor(2).shape, torch.IntTensor([1]).dtype)
c = torch.Tensor([1, 2, 3])
print(c.dtype, torch.Tensor(2, 3).shape, torch.BoolTensor([1, 0]).dtype, torch.ByteTensor([3]).dtype)
w = Variable(torch.randn(2, 1), requires_grad=True)
w.data = torch.tensor([[0.5], [-0.5]], dtype=torch.float32)
for _ in range(3):
    loss = ((a @ w - 1) ** 2).sum()
    loss.backward()
    w.data -= 0.01 * w.grad.data
    w.grad.data.zero_()
print(w.data, loss.data.item() > 0, w.grad)
n = np.arange(6.0).reshape(2, 3)
t = torch.from_numpy(n)
t[0, 0] = 100
print(n[0, 0], t.numpy().dtype, torch.tensor(n).dtype)
print(x.data.numpy(), x.detach().numpy().shape, y.data)
e = torch.zeros(3).type(torch.LongTensor)
print(e.dtype, a.type(torch.DoubleTensor).dtype, isinstance(a, torch.FloatTensor), isinstance(a, torch.DoubleTensor))
print(torch.is_tensor(a), torch.numel(a), a.size(), a.size(1), a.data_ptr() == a.data.data_ptr() or True)
v = torch.zeros(2, 3)
v.resize_(3, 2)
print(v.shape, torch.cat((a, a), 0).size(), a.view(-1).size(), torch.squeeze(torch.zeros(1, 2, 1)).size())
print(a.max(0)[1], a.sum(1, keepdim=True), torch.max(a, 1)[0], a.t().contiguous().is_contiguous())
