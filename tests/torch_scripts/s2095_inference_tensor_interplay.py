import torch
import torch.nn as nn

lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0], [0.0, -1.0]]))
    lin.bias.zero_()
with torch.inference_mode():
    feats = lin(torch.tensor([[1.0, 1.0]]))
print(feats, feats.is_inference(), feats.requires_grad)
try:
    (lin(feats) * 1).sum().backward()
    print("backward ok", lin.weight.grad)
except RuntimeError as e:
    print("RuntimeError", "inference" in str(e))
clone = feats.clone()
print(clone.is_inference())
lin.zero_grad()
lin(clone).sum().backward()
print(lin.weight.grad)
other = feats * 1
try:
    other.add_(1)
    print("inplace ok")
except RuntimeError as e:
    print("RuntimeError", "Inplace update to inference tensor outside InferenceMode" in str(e))
with torch.inference_mode():
    feats.add_(1)
print(feats)
with torch.no_grad():
    nog = lin(torch.ones(1, 2))
print(nog.is_inference(), nog.requires_grad)
normal = torch.ones(2)
with torch.inference_mode():
    r = normal * 2
    print(r.is_inference(), normal.is_inference(), torch.is_inference(r))
with torch.inference_mode():
    ii = torch.ones(2)
try:
    lin.weight.data = ii.expand(2, 2)
    print("assigned", lin.weight.is_inference())
except RuntimeError as e:
    print("RuntimeError", type(e).__name__)
