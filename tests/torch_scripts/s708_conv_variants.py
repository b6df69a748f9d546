import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.cos(torch.arange(1 * 4 * 6 * 6, dtype=torch.float64) * 0.1).reshape(1, 4, 6, 6).requires_grad_()
convs = {
    "grouped": nn.Conv2d(4, 4, 3, groups=2, bias=False),
    "depthwise": nn.Conv2d(4, 8, 3, groups=4, padding="same"),
    "dilated": nn.Conv2d(4, 2, 3, dilation=2, padding=2, stride=2),
    "valid": nn.Conv2d(4, 2, (2, 3), padding="valid"),
    "reflect": nn.Conv2d(4, 2, 3, padding=1, padding_mode="reflect"),
    "circular": nn.Conv2d(4, 2, 3, padding=1, padding_mode="circular"),
    "transposed": nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1),
    "transposed_groups": nn.ConvTranspose2d(4, 4, 2, stride=2, groups=2, dilation=1),
}
for name, conv in convs.items():
    with torch.no_grad():
        for i, p in enumerate(conv.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.3 + i).reshape(p.shape))
    x.grad = None
    y = conv(x)
    y.pow(2).sum().backward()
    print(name, tuple(y.shape), round(y.sum().item(), 5), round(x.grad.abs().sum().item(), 5))
s = torch.arange(10.0).reshape(1, 1, 10)
print(F.conv1d(s, torch.tensor([[[1.0, 0.0, -1.0]]]), stride=2, padding=1))
print(F.conv_transpose1d(s[:, :, :3], torch.ones(1, 2, 2), stride=2).shape)
print(nn.Conv1d(1, 1, 3, padding="same", bias=False, padding_mode="replicate").to(torch.float64)(s).shape)
print(F.conv2d(x.detach(), torch.ones(2, 4, 1, 1)).shape, nn.LazyConv2d(3, 2)(x.detach()).shape)
