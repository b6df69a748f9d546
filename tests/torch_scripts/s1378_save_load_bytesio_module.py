# torch.save / torch.load of tensors, dicts and a module's state to BytesIO
import io
import torch
import torch.nn as nn

buf = io.BytesIO()
obj = {"w": torch.arange(6.0).reshape(2, 3), "step": 7, "ints": torch.tensor([1, 2], dtype=torch.int32),
       "nested": [torch.tensor(True), (torch.ones(1), "s")]}
torch.save(obj, buf)
buf.seek(0)
back = torch.load(buf)
print(back["w"], back["step"], back["ints"].dtype, back["nested"])
m = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
with torch.no_grad():
    for p in m.parameters():
        p.fill_(0.25)
buf = io.BytesIO()
torch.save(m.state_dict(), buf)
buf.seek(0)
m2 = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
print(m2.load_state_dict(torch.load(buf, weights_only=True)))
print(m2(torch.tensor([[1.0, -1.0]])))
x = torch.tensor([1.0, 2.0, 3.0, 4.0])
buf = io.BytesIO()
torch.save(x[1:3], buf)
buf.seek(0)
y = torch.load(buf)
print(y, y.shape)
