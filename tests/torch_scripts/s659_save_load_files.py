import os
import tempfile
import torch
import torch.nn as nn

d = tempfile.mkdtemp()
path = os.path.join(d, "ckpt.pt")
model = nn.Linear(2, 2)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    model.bias.copy_(torch.tensor([0.5, -0.5]))
torch.save({"epoch": 3, "model": model.state_dict(), "losses": [0.5, 0.25], "t": torch.arange(3)}, path)
ck = torch.load(path)
print(ck["epoch"], ck["losses"], ck["t"], ck["model"]["weight"])
m2 = nn.Linear(2, 2)
m2.load_state_dict(ck["model"])
print(m2(torch.ones(1, 2)))
x = torch.arange(6.0).reshape(2, 3)
v = x[:, 1]
torch.save([x, v], path)
a, b = torch.load(path)
print(a, b, b.shape)
torch.save(torch.tensor([1, 2], dtype=torch.int16), path)
print(torch.load(path, weights_only=True).dtype)
torch.save(model, path)
whole = torch.load(path, weights_only=False)
print(type(whole).__name__, whole.weight.requires_grad)
torch.save({"p": nn.Parameter(torch.ones(2))}, path)
print(type(torch.load(path)["p"]).__name__)
print(torch.load(path, map_location="cpu")["p"].device)
os.remove(path)
