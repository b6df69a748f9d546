import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
print(torch.typename(model), torch.typename(model[0]))
try:
    torch.optim.SGD(model, lr=0.1)
except TypeError as e:
    print("TypeError:", e)
try:
    model[0].weight = torch.zeros(3, 2)
except TypeError as e:
    print("TypeError:", e)
try:
    model[0] = torch.zeros(2)
except TypeError as e:
    print("TypeError:", e)
try:
    model.register_buffer("steps", 5)
except TypeError as e:
    print("TypeError:", e)
try:
    model.missing
except AttributeError as e:
    print("AttributeError:", e)
try:
    model.load_state_dict({"0.weight": torch.zeros(3, 2)})
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
print(torch.typename(torch.zeros(2)), torch.typename(nn.Parameter(torch.ones(1))))
