# Grad-CAM as the tutorials implement it: a forward hook stores the last conv block's
# activations, a full backward hook stores their gradients, the class score is
# backpropagated, channel weights are the spatially pooled gradients; hooks then removed
import torch
import torch.nn as nn
import torch.nn.functional as F

net = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 6, 3, padding=1),
                    nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(6, 3))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.9 + i).view_as(p) * 0.5)
store = {}


def fwd_hook(module, inp, out):
    store["act"] = out.detach()
    store["fwd_in"] = [tuple(t.shape) for t in inp]


def bwd_hook(module, grad_in, grad_out):
    store["grad"] = grad_out[0].detach()
    store["bwd_in"] = [None if g is None else tuple(g.shape) for g in grad_in]


h1 = net[3].register_forward_hook(fwd_hook)
h2 = net[3].register_full_backward_hook(bwd_hook)
img = torch.cos(torch.arange(36, dtype=torch.float64) * 0.4).view(1, 1, 6, 6).requires_grad_()
logits = net(img)
cls = logits.argmax(1).item()
logits[0, cls].backward()
weights = store["grad"].mean(dim=(2, 3), keepdim=True)
cam = F.relu((weights * store["act"]).sum(1, keepdim=True))
cam = F.interpolate(cam, size=(12, 12), mode="bilinear", align_corners=False)
cam = (cam - cam.min()) / (cam.max() - cam.min() + 1e-12)
print(cls, store["fwd_in"], store["bwd_in"], tuple(store["act"].shape))
print(weights.flatten().numpy().round(5))
print(cam[0, 0, ::3, ::3].numpy().round(4))
sal = img.grad.abs().squeeze()
print(sal.argmax().item(), f"{sal.max().item():.6f}")
h1.remove()
h2.remove()
store.clear()
net(img).sum().backward()
print(store, len(net[3]._forward_hooks), len(net[3]._backward_hooks))
