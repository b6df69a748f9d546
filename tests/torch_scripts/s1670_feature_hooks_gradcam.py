# Grad-CAM style introspection: forward hook storing activations, full backward hook
# storing gradients, channel weights from pooled gradients, ReLU of the weighted map
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(),
                                      nn.Conv2d(4, 5, 3, padding=1), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(5, 3)

    def forward(self, x):
        return self.fc(self.pool(self.features(x)).flatten(1))


net = SmallNet().eval()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel()) * 0.37 + i).view_as(p))
store = {}


def fwd_hook(module, inp, out):
    store["act"] = out
    store["calls"] = store.get("calls", 0) + 1


def bwd_hook(module, grad_in, grad_out):
    store["grad"] = grad_out[0]
    store["grad_in_none"] = [g is None for g in grad_in]


target = net.features[2]
h1 = target.register_forward_hook(fwd_hook)
h2 = target.register_full_backward_hook(bwd_hook)
img = torch.from_numpy(np.random.default_rng(201).standard_normal((1, 3, 6, 6)))
img.requires_grad_(True)
logits = net(img)
cls = logits.argmax(1).item()
logits[0, cls].backward()
print("class", cls, logits.detach().numpy().round(5))
A, G = store["act"], store["grad"]
print(A.shape, G.shape, store["calls"], store["grad_in_none"])
weights = G.mean(dim=(2, 3), keepdim=True)
cam = F.relu((weights * A).sum(1)).detach()
cam = cam / (cam.max() + 1e-12)
print(cam[0].numpy().round(3))
print("saliency", img.grad.abs().amax(1)[0, :2].numpy().round(5))
h1.remove(); h2.remove()
net(img)
print("calls after remove", store["calls"])
up = F.interpolate(cam.unsqueeze(1), size=(12, 12), mode="bilinear", align_corners=False)
print(up.shape, up[0, 0, :2, :4].numpy().round(4))
