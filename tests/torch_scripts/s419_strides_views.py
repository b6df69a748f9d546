import torch

x = torch.arange(12.0).view(3, 4)
t = x.t()
print(x.stride(), t.stride(), t.is_contiguous(), t.contiguous().stride(), x.storage_offset(), x[1:].storage_offset())
print(torch.as_strided(x, (2, 2), (1, 4)), x.unfold(1, 2, 2).shape, x[:, ::2].stride())
v = x.view(-1)
v[0] = 100
print(x[0, 0], x.data_ptr() == v.data_ptr(), x.untyped_storage().nbytes() if hasattr(x, "untyped_storage") else 96)
e = torch.ones(3, 1).expand(3, 4)
print(e.stride(), e.is_contiguous())
try:
    e.add_(1)
except RuntimeError as err:
    print("RuntimeError", str(err)[:50])
d = x.diagonal()
d.zero_()
print(x)
print(x.T.reshape(-1)[:4], x.movedim(0, 1).shape, x.swapaxes(0, 1).shape, x.narrow(1, 1, 2).stride(), x.view(2, 6).transpose(0, 1).shape)
y = torch.zeros(4, 4)
y[1:3, 1:3] += torch.ones(2, 2)
y.T[0] = 5
print(y, y.flatten(0).is_contiguous())
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 1
b[1:] = b[1:] * 3
b.sum().backward()
print(a.grad, b.grad_fn.__class__.__name__)
z = torch.arange(6.0).view(2, 3)
print(z.view_as(torch.empty(3, 2)).shape, z.expand(2, 2, 3).sum(0), z.clone(memory_format=torch.contiguous_format).stride())
print(z._base is None, z.view(6)._base is z, z.unsqueeze(0).squeeze(0)._base is z)
