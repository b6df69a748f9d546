import io
import os
import tempfile
import collections
import torch
import torch.nn as nn

obj = {"w": torch.arange(6.0).reshape(2, 3), "ints": torch.tensor([1, 2], dtype=torch.int32), "meta": {"epoch": 3, "name": "run", "lr": [0.1, 0.01]},
       "tup": (torch.ones(1), 2), "od": collections.OrderedDict(a=torch.zeros(2)), "b": torch.tensor([True, False]), "none": None}
buf = io.BytesIO()
torch.save(obj, buf)
buf.seek(0)
back = torch.load(buf)
print(sorted(back.keys()), back["w"], back["ints"].dtype, back["meta"], type(back["tup"]).__name__, type(back["od"]).__name__, back["b"], back["none"])
base = torch.arange(10.0)
view = base[2:5]
buf = io.BytesIO()
torch.save({"base": base, "view": view}, buf)
buf.seek(0)
r = torch.load(buf)
print(r["base"][:4], r["view"], r["view"].shape)
model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
with torch.no_grad():
    for p in model.parameters():
        p.fill_(0.25)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
model(torch.ones(4, 2)).sum().backward()
opt.step()
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "ckpt.pt")
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": 1}, path)
    ck = torch.load(path, weights_only=True)
    ck2 = torch.load(path, map_location="cpu")
print(list(ck["model"].keys()), ck["epoch"], ck["opt"]["param_groups"][0]["lr"], sorted(ck["opt"]["state"].keys()), list(ck["opt"]["state"][0].keys()))
print(ck["opt"]["state"][0]["step"], ck["opt"]["state"][1]["exp_avg"])
m2 = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
print(m2.load_state_dict(ck2["model"]))
o2 = torch.optim.Adam(m2.parameters(), lr=0.5)
o2.load_state_dict(ck2["opt"])
print(o2.param_groups[0]["lr"], o2.state[m2[0].weight]["exp_avg_sq"])
missing = m2.load_state_dict({"0.weight": torch.zeros(3, 2)}, strict=False)
print(missing.missing_keys, missing.unexpected_keys)
try:
    m2.load_state_dict({"0.weight": torch.zeros(3, 2)})
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])
try:
    m2.load_state_dict({**m2.state_dict(), "0.weight": torch.zeros(2, 2)})
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[1].strip())
sd = m2.state_dict()
print(type(sd).__name__, sd["2.bias"], sd["0.weight"].requires_grad, m2.state_dict(keep_vars=True)["0.weight"].requires_grad)
