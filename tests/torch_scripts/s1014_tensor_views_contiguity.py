# views and contiguity: transpose/permute/expand/narrow/unfold strides, is_contiguous, storage sharing via data_ptr-free checks
import torch

x = torch.arange(12.0).view(3, 4)
t = x.t()
print(t.stride(), t.is_contiguous(), t.contiguous().stride(), x.stride())
e = torch.tensor([1.0, 2.0]).expand(3, 2)
print(e.stride(), e.is_contiguous(), e.contiguous().is_contiguous())
n = x.narrow(1, 1, 2)
n[0, 0] = 100
print(x[0], n.stride(), n.storage_offset())
u = torch.arange(7.0).unfold(0, 3, 2)
print(u, u.stride())
p = torch.zeros(2, 3, 4).permute(2, 0, 1)
print(p.shape, p.stride(), p.is_contiguous())
print(x.view(-1)[:3], x.reshape(2, 6).stride(), x.T.reshape(12)[:4])
s = x[:, ::2]
print(s.stride(), s.is_contiguous(), s.shape)
try:
    s.view(6)
except RuntimeError as e:
    print(str(e)[:70])
print(x.unsqueeze(1).stride(), x.flatten().is_contiguous(), x.movedim(0, 1).shape, x.swapaxes(0, 1).stride())
print(torch.as_strided(torch.arange(6.0), (2, 2), (1, 2)))
z = x.clone()
zz = z.view(4, 3)
zz.mul_(0)
print(z.sum(), x.sum() != 0)
