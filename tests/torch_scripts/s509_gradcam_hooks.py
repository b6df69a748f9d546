import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 3, 3, padding=1), nn.ReLU(),
            nn.Conv2d(3, 4, 3, padding=1), nn.ReLU())
        self.classifier = nn.Linear(4, 3)

    def forward(self, x):
        f = self.features(x)
        return self.classifier(f.mean(dim=(2, 3)))


model = SmallCNN()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.9 + i).view_as(p))
store = {}


def fwd_hook(module, inp, out):
    store["act"] = out
    out.register_hook(lambda g: store.__setitem__("grad", g))


handle = model.features[3].register_forward_hook(fwd_hook)
img = torch.cos(torch.arange(36, dtype=torch.float64).view(1, 1, 6, 6) * 0.4)
logits = model(img)
cls = logits.argmax(dim=1).item()
print(logits.shape, cls)
logits[0, cls].backward()
act, grad = store["act"], store["grad"]
print(act.shape, grad.shape)
weights = grad.mean(dim=(2, 3), keepdim=True)
cam = F.relu((weights * act).sum(dim=1)).detach()
cam = cam / (cam.max() + 1e-12)
print(cam.shape, round(cam.sum().item(), 5))
print(cam[0, :2])
handle.remove()
print(len(model.features[3]._forward_hooks))
# feature extraction with several hooks and names
feats = {}
hs = [m.register_forward_hook(lambda mod, i, o, n=n: feats.__setitem__(n, o.detach()))
      for n, m in model.named_modules() if isinstance(m, (nn.Conv2d, nn.Linear))]
with torch.no_grad():
    model(img)
print({k: tuple(v.shape) for k, v in feats.items()})
for h in hs:
    h.remove()
# saliency map: gradient wrt the input
x = img.clone().requires_grad_(True)
score = model(x)[0, cls]
score.backward()
print(x.grad.abs().amax(dim=(2, 3)).shape, round(x.grad.abs().sum().item(), 6))
