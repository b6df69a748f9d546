# torch.save / torch.load to BytesIO: tensors sharing storage, nested containers, weights_only
import io
import torch

base = torch.arange(6.0)
view = base[2:5]
obj = {"a": base, "v": view, "list": [torch.tensor([1, 2]), (torch.tensor(True), 3.5)], "name": "x"}
buf = io.BytesIO()
torch.save(obj, buf)
buf.seek(0)
back = torch.load(buf, weights_only=True)
print(back["a"], back["v"], back["list"], back["name"])
back["a"][3] = 100
print(back["v"])
print(back["v"].dtype, back["list"][0].dtype, type(back["list"][1]).__name__)
buf2 = io.BytesIO()
torch.save(torch.nn.Linear(2, 2).state_dict(), buf2)
print(list(torch.load(io.BytesIO(buf2.getvalue()), map_location="cpu").keys()))
t = torch.tensor([1.5, 2.5], requires_grad=True)
b3 = io.BytesIO(); torch.save(t, b3); b3.seek(0)
u = torch.load(b3)
print(u, u.requires_grad, u.is_leaf)
