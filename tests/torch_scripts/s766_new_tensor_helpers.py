# Tensor-creation helpers inside modules: new_zeros/new_ones/new_full/new_tensor/new_empty,
# type_as, expand_as, view_as, zeros_like(dtype=), repeat_interleave, index_fill_, masked_scatter
import torch
import torch.nn as nn

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float32)
print(x.new_zeros(3), x.new_ones((2, 1)), x.new_full((2,), 7), x.new_tensor([1, 2]).dtype)
print(x.new_empty(2, 3).shape, x.new_zeros(2, dtype=torch.int64), x.new_tensor([[1.5]]).dtype)
i = torch.tensor([1, 2])
print(i.type_as(x), i.type_as(x).dtype, x.type(torch.int32), x.type())
print(torch.tensor([1.0, 2.0]).expand_as(torch.zeros(3, 2)), torch.arange(4.0).view_as(x))
print(torch.zeros_like(x, dtype=torch.long), torch.ones_like(i, dtype=torch.float64), torch.full_like(x, 0.5))
print(torch.repeat_interleave(torch.tensor([1, 2, 3]), 2), torch.tensor([1, 2]).repeat_interleave(torch.tensor([3, 1])))
print(x.repeat_interleave(2, dim=0), torch.repeat_interleave(torch.tensor([2, 0, 1])))
y = torch.zeros(3, 4)
print(y.index_fill_(1, torch.tensor([0, 2]), -1.0))
m = torch.tensor([[True, False], [False, True]])
print(torch.zeros(2, 2).masked_scatter(m, torch.tensor([10.0, 20.0, 30.0])))
print(x.masked_select(x > 1.5), torch.zeros(2, 2, dtype=x.dtype).index_copy(0, torch.tensor([1, 0]), x))
print(torch.empty(0).new_zeros(0).shape, torch.tensor(3.0).new_ones(()).shape)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)

    def forward(self, x):
        h0 = x.new_zeros(x.size(0), 2)
        mask = torch.ones_like(x, dtype=torch.bool)
        return self.fc(x) + h0 + mask.type_as(x)


net = Net()
with torch.no_grad():
    net.fc.weight.copy_(torch.eye(2))
    net.fc.bias.zero_()
xx = torch.tensor([[1.0, -1.0]], requires_grad=True)
o = net(xx)
o.sum().backward()
print(o, xx.grad, o.dtype)
print(torch.as_tensor([1, 2], dtype=torch.float32), torch.as_tensor(x) is x, torch.asarray([[1, 2]]).shape)
print(torch.Tensor([1, 2]).dtype, torch.Tensor(2, 3).shape, torch.LongTensor([1, 2]), torch.FloatTensor([0.5]))
