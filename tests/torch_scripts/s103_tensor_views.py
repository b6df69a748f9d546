import torch

x = torch.arange(12.)
v = x.view(3, 4)
v[0, 0] = 100
print(x[0], v.is_contiguous(), v.t().is_contiguous(), v.t().contiguous().is_contiguous())
print(v.stride(), v.t().stride(), v[:, 1].stride(), v.storage_offset(), v[1].storage_offset())
print(x.data_ptr() == v.data_ptr())
try:
    v.t().view(12)
except RuntimeError as e:
    print("RuntimeError", "view size is not compatible" in str(e))
print(v.t().reshape(12), v.t().flatten().shape)
e = x.expand(2, 12)
print(e.shape, e.stride(), e.is_contiguous())
y = torch.zeros(2, 3)
y.t_()
print(y.shape)
s = torch.arange(6.).view(2, 3)
s.unsqueeze_(0)
print(s.shape)
s.squeeze_()
print(s.shape, s.transpose(0, 1).shape, s.permute(1, 0).stride(), s.mT.shape)
z = torch.arange(24.).view(2, 3, 4)
print(z.movedim(0, -1).shape, z.swapaxes(0, 2).shape, z.unflatten(2, (2, 2)).shape, z.flatten(0, 1).shape)
print(torch.chunk(torch.arange(7), 3), torch.tensor_split(torch.arange(7), 3), torch.tensor_split(torch.arange(7), [1, 5]))
print(torch.split(torch.arange(7), [2, 5]), torch.arange(10).split(4), torch.unbind(torch.eye(2)))
print(torch.hsplit(torch.arange(8.).view(2, 4), 2)[1], torch.vsplit(torch.arange(8.).view(4, 2), [1])[0])
a = torch.ones(3, requires_grad=True)
b = a[1:]
c = b * 2
print(b._base is a if hasattr(b, "_base") else None, c.sum().item())
w = torch.zeros(4)
w[::2] = torch.tensor([1.0, 2.0])
w[[1, 3]] += 5
print(w, w.clone().fill_(3), w.new_zeros(2), w.new_full((2,), 7.0), w.new_tensor([1, 2]).dtype, w.new_ones(1).dtype)
print(torch.empty_like(w).shape, torch.zeros(0).numel(), torch.tensor(5.).dim(), torch.ones(2, 3).element_size(), torch.ones(2, dtype=torch.int32).nbytes)
