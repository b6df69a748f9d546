# Layout idioms: contiguous(), is_contiguous, stride, channels_last (values only: docs/limits.md), t()/transpose views, expand
# strides, storage sharing (data_ptr), clone vs view
import torch
import torch.nn as nn

x = torch.arange(24.0).view(2, 3, 4)
print(x.stride(), x.is_contiguous(), x.transpose(1, 2).is_contiguous(), x.transpose(1, 2).stride())
t = x.permute(2, 0, 1)
print(t.shape, t.stride(), t.contiguous().stride(), t.contiguous().is_contiguous())
print(x[:, :, ::2].stride(), x[:, 1].stride(), x[..., 0].is_contiguous())
e = torch.tensor([1.0, 2.0]).view(2, 1).expand(2, 3)
print(e.stride(), e.is_contiguous(), e.contiguous().stride())
img = torch.arange(2 * 3 * 4 * 5.0).view(2, 3, 4, 5)
cl = img.contiguous(memory_format=torch.channels_last)
print(cl.shape, torch.equal(cl, img), img.to(memory_format=torch.channels_last).shape)
conv = nn.Conv2d(3, 2, 3).to(memory_format=torch.channels_last)
with torch.no_grad():
    conv.weight.copy_(torch.linspace(-1, 1, 54).view(2, 3, 3, 3))
    conv.bias.zero_()
print(conv(cl).shape, torch.allclose(conv(cl), conv(img)))
v = x.view(6, 4)
print(v.data_ptr() == x.data_ptr(), x.clone().data_ptr() == x.data_ptr(), v._base is x)
v[0, 0] = 100.0
print(x[0, 0, 0].item())
print(x.reshape(4, 6).is_contiguous(), x.t().shape if x.dim() <= 2 else x.mT.shape)
m = torch.arange(6.0).view(2, 3)
print(m.t(), m.T.stride(), m.t().contiguous().view(-1), m.storage_offset(), m[1].storage_offset())
print(m.flatten().is_contiguous(), m.t().reshape(-1), m.unsqueeze(0).stride(), m.element_size(), m.nelement())
