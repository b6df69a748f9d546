import io
import torch

base = torch.arange(10.0)
view = base[2:6]
payload = {"base": base, "view": view, "ints": torch.tensor([1, 2, 3], dtype=torch.int16),
           "flags": torch.tensor([True, False]), "nested": [torch.eye(2), (torch.zeros(1), 3.5)],
           "meta": {"name": "run-7", "epoch": 12}}
buf = io.BytesIO()
torch.save(payload, buf)
buf.seek(0)
back = torch.load(buf)
print(sorted(back), back["meta"], back["ints"].dtype, back["flags"])
print(back["view"], back["nested"][1])
back["base"][3] = -1.0
print(back["view"])
print(back["view"].untyped_storage().data_ptr() == back["base"].untyped_storage().data_ptr())
p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
buf2 = io.BytesIO()
torch.save(p, buf2)
buf2.seek(0)
q = torch.load(buf2)
print(type(q).__name__, q.requires_grad, q)
g = torch.tensor([1.0, 2.0], requires_grad=True)
buf3 = io.BytesIO()
torch.save({"g": g}, buf3)
buf3.seek(0)
print(torch.load(buf3)["g"].requires_grad)
model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2))
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    model[0].bias.fill_(0.5)
buf4 = io.BytesIO()
torch.save(model.state_dict(), buf4)
size = buf4.tell()
buf4.seek(0)
sd = torch.load(buf4, weights_only=True)
print(list(sd), sd["1.num_batches_tracked"], size > 500)
clone = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2))
print(clone.load_state_dict(sd))
print(clone[0].weight, clone(torch.ones(3, 2)).shape)
big = torch.zeros(1000)
small = big[:3].clone()
b5, b6 = io.BytesIO(), io.BytesIO()
torch.save(big[:3], b5)
torch.save(small, b6)
print(b5.tell() > b6.tell())
